package io.spectrum.node.api;

import io.spectrum.wire.PathHandle;
import io.spectrum.wire.PathKeys;

/**
 * A validated, pre-encoded PATH made once (configuration time) and then used on the hot path with
 * no parsing, formatting or allocation: the node API's name for the codec's {@link PathHandle}.
 * {@link #tlv()} is the whole PATH TLV ({@code 06 00 LL LL body}); the body is the canonical
 * vertex key. Key rules: {@link PathKeys}.
 */
public final class NodePath {
    private final PathHandle handle;

    private NodePath(PathHandle handle) {
        this.handle = handle;
    }

    /** Parses {@code /seg/seg}; {@code /} is the root. Throws IllegalArgumentException on a bad path. */
    public static NodePath of(String path) {
        return new NodePath(PathHandle.of(path));
    }

    /** Wraps an already-validated handle (no copy, no check). */
    public static NodePath of(PathHandle handle) {
        return new NodePath(handle);
    }

    /** Wraps an encoded PATH body after checking the key rules; null if it is not a valid key. */
    public static NodePath ofBody(byte[] buf, int off, int len) {
        PathHandle h = PathHandle.fromBody(buf, off, len);
        return h == null ? null : new NodePath(h);
    }

    /** The key rules in key context (no escapes, 1..64-byte segments, limits): OK or PATH_INVALID. */
    public static int validateKey(byte[] b, int off, int len) {
        return PathKeys.validateKey(b, off, len);
    }

    /** The codec's handle this path wraps (same bytes, no copy). */
    public PathHandle handle() {
        return handle;
    }

    /** Whole PATH TLV bytes; do not modify. */
    public byte[] tlv() {
        return handle.frame();
    }

    /** Offset of the body (the canonical vertex key) in {@link #tlv()}. */
    public int bodyOffset() {
        return handle.bodyOffset();
    }

    /** Bytes of the body, 0 for the root. */
    public int bodyLength() {
        return handle.bodyLength();
    }

    @Override
    public String toString() {
        return handle.text();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodePath && handle.equals(((NodePath) o).handle);
    }

    @Override
    public int hashCode() {
        return handle.hashCode();
    }

    /** Renders a PATH body as {@code /a/b} (configuration-time and diagnostics only). */
    public static String render(byte[] b, int off, int len) {
        PathHandle h = PathHandle.fromBody(b, off, len);
        return h == null ? "/?" : h.text();
    }
}
