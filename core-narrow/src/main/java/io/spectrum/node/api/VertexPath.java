package io.spectrum.node.api;

/**
 * A read-only view of one vertex's PATH body (the canonical key: {@code [len][segment]...}), handed
 * to listeners. A flyweight the node re-points; valid only during the callback. It exposes no
 * buffer: a listener reads the bytes or copies them out, and cannot write the node's key store.
 */
public interface VertexPath {
    /** Bytes in the PATH body (0 for the root). */
    int pathLength();

    /** Byte {@code i} (0 .. pathLength()-1) of the PATH body. */
    byte pathByte(int i);

    /**
     * Copies the PATH body into {@code dst} at {@code off} (no allocation).
     *
     * @return bytes copied, or a negated {@link io.spectrum.wire.WireError#FLOW_BACKPRESSURE} when
     *     {@code dst} has less room than {@link #pathLength()}
     */
    int copyPathTo(byte[] dst, int off);

    /** The vertex as a {@link NodePath} (allocates; configuration and diagnostics). */
    NodePath nodePath();

    /** The vertex as text, {@code /a/b} (allocates; tests and diagnostics). */
    String path();
}
