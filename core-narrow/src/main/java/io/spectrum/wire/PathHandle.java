package io.spectrum.wire;

/**
 * A pre-encoded, key-validated PATH built once (init time) from text such as {@code /sensor/temp}.
 * Hot paths pass the handle; nothing is parsed, formatted or allocated per call. {@link #frame()}
 * is the whole PATH TLV ({@code 06 00 LL LL body}); its body is the canonical vertex key.
 *
 * <p>The arrays returned are the handle's own: treat them as read-only.
 */
public final class PathHandle {
    private static final int HEADER = 4;

    private final byte[] frame;
    private final int segments;

    private PathHandle(byte[] frame, int segments) {
        this.frame = frame;
        this.segments = segments;
    }

    /**
     * Checks path text without building anything: {@code /} or {@code /seg(/seg)*}, segments per
     * the key rules ({@link PathKeys}).
     *
     * @return OK or PATH_INVALID
     */
    public static int check(String text) {
        return encodeBody(text, null) < 0 ? WireError.PATH_INVALID : WireError.OK;
    }

    /**
     * Builds a handle from text (allocates; init-time use).
     *
     * @throws IllegalArgumentException carrying {@code tr::path::invalid} when the text is not a
     *     valid key (a configuration error, found at start-up)
     */
    public static PathHandle of(String text) {
        PathHandle h = parse(text);
        if (h == null) {
            throw new IllegalArgumentException(WireError.identity(WireError.PATH_INVALID) + ": " + text);
        }
        return h;
    }

    /** Builds a handle from text, or returns null when the text is not a valid key. */
    public static PathHandle parse(String text) {
        int bodyLen = encodeBody(text, null);
        if (bodyLen < 0) {
            return null;
        }
        byte[] f = new byte[HEADER + bodyLen];
        encodeBody(text, f);
        f[0] = (byte) TlvType.PATH;
        f[1] = 0;
        Bytes.put16(f, 2, bodyLen);
        return new PathHandle(f, PathKeys.recordCount(f, HEADER, bodyLen));
    }

    /**
     * Builds a handle from a PATH body (copies it).
     *
     * @return the handle, or null when the body is not a valid key
     */
    public static PathHandle fromBody(byte[] b, int off, int len) {
        if (PathKeys.validateKey(b, off, len) != WireError.OK) {
            return null;
        }
        byte[] f = new byte[HEADER + len];
        f[0] = (byte) TlvType.PATH;
        Bytes.put16(f, 2, len);
        System.arraycopy(b, off, f, HEADER, len);
        return new PathHandle(f, PathKeys.recordCount(f, HEADER, len));
    }

    /** Encodes the body of {@code text} into {@code out} at offset 4 (or only measures when null); -1 if invalid. */
    private static int encodeBody(String text, byte[] out) {
        if (text == null || text.isEmpty() || text.charAt(0) != '/') {
            return -1;
        }
        if (text.length() == 1) {
            return 0;
        }
        int p = 0;
        int segStart = 1;
        final int n = text.length();
        for (int i = 1; i <= n; i++) {
            if (i == n || text.charAt(i) == '/') {
                CharSequence seg = text.subSequence(segStart, i);
                int segLen = Utf8.encodedLength(seg);
                if (segLen < 1 || segLen > PathKeys.MAX_SEGMENT_BYTES) {
                    return -1;
                }
                byte[] tmp = new byte[segLen];
                Utf8.encode(seg, tmp, 0);
                if (PathKeys.validateSegment(tmp, 0, segLen) != WireError.OK) {
                    return -1;
                }
                if (out != null) {
                    out[HEADER + p] = (byte) segLen;
                    System.arraycopy(tmp, 0, out, HEADER + p + 1, segLen);
                }
                p += 1 + segLen;
                segStart = i + 1;
            }
        }
        if (p > PathKeys.MAX_BODY_BYTES) {
            return -1;
        }
        // the segment count limit is checked on the encoded form
        if (out != null && PathKeys.validateKey(out, HEADER, p) != WireError.OK) {
            return -1;
        }
        if (out == null) {
            int segs = 1;
            for (int i = 1; i < n; i++) {
                if (text.charAt(i) == '/') {
                    segs++;
                }
            }
            if (segs > PathKeys.MAX_SEGMENTS) {
                return -1;
            }
        }
        return p;
    }

    /** The whole PATH TLV bytes (header + body), ready to copy into a frame. */
    public byte[] frame() {
        return frame;
    }

    /** Bytes of {@link #frame()}: the 4-byte header plus the body. */
    public int frameLength() {
        return frame.length;
    }

    /** Offset of the body (the vertex key) in {@link #frame()}. */
    public int bodyOffset() {
        return HEADER;
    }

    /** Bytes of the body (the vertex key), 0 for the root. */
    public int bodyLength() {
        return frame.length - HEADER;
    }

    /** Number of segments, 0 for the root. */
    public int segmentCount() {
        return segments;
    }

    /** True for the root path {@code /} (empty body). */
    public boolean isRoot() {
        return frame.length == HEADER;
    }

    /**
     * True when this handle's body equals {@code b[off, off+len)} byte for byte (the canonical key
     * comparison).
     */
    public boolean bodyEquals(byte[] b, int off, int len) {
        return Bytes.equals(frame, HEADER, frame.length - HEADER, b, off, len);
    }

    /** True when this handle is {@code b}'s body or one of its ancestors. */
    public boolean isAncestorOrSelfOf(byte[] b, int off, int len) {
        return PathKeys.isAncestorOrSelf(frame, HEADER, frame.length - HEADER, b, off, len);
    }

    /**
     * True when this handle is {@code other} or one of its ancestors (a byte-prefix test on
     * canonical keys).
     */
    public boolean isAncestorOrSelfOf(PathHandle other) {
        return isAncestorOrSelfOf(other.frame, HEADER, other.frame.length - HEADER);
    }

    /** True when this handle is an ancestor of {@code other} and not {@code other} itself. */
    public boolean isStrictAncestorOf(PathHandle other) {
        return PathKeys.isStrictAncestor(frame, HEADER, frame.length - HEADER, other.frame, HEADER,
                other.frame.length - HEADER);
    }

    /** The parent's handle (allocates), or null for the root. */
    public PathHandle parent() {
        int pl = PathKeys.parentLength(frame, HEADER, frame.length - HEADER);
        return pl < 0 ? null : fromBody(frame, HEADER, pl);
    }

    /** The text form, {@code /a/b} (allocates). */
    public String text() {
        return new PathView().wrap(frame, HEADER, frame.length - HEADER).toText();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PathHandle)) {
            return false;
        }
        byte[] f = ((PathHandle) o).frame;
        return Bytes.equals(frame, 0, frame.length, f, 0, f.length);
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (int i = HEADER; i < frame.length; i++) {
            h = 31 * h + frame[i];
        }
        return h;
    }

    @Override
    public String toString() {
        return text();
    }
}
