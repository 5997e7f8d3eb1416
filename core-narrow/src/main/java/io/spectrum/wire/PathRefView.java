package io.spectrum.wire;

/**
 * A read-only flyweight over a PATH_REF (0x14) or PATH_REF_REVERSE (0x15) body: N elements of
 * (u32 index, u32 generation), one per host on the route.
 */
public final class PathRefView {
    /** Bytes per element: a u32 index then a u32 generation. */
    public static final int ELEMENT_BYTES = 8;
    /** Most elements a body may hold (one per host on the route). */
    public static final int MAX_ELEMENTS = 255;

    private byte[] buf;
    private int off;
    private int count;

    /**
     * Points the view at a body.
     *
     * @return OK, or FRAME_INVALID when the length is not a multiple of 8 or exceeds 255 elements
     */
    public int wrap(byte[] buffer, int bodyOffset, int bodyLength) {
        buf = buffer;
        off = bodyOffset;
        if (bodyLength < 0 || bodyLength % ELEMENT_BYTES != 0 || bodyLength > MAX_ELEMENTS * ELEMENT_BYTES) {
            count = 0;
            return WireError.FRAME_INVALID;
        }
        count = bodyLength / ELEMENT_BYTES;
        return WireError.OK;
    }

    /** @return OK, or SCHEMA_TYPE_MISMATCH when the entry is not a PATH_REF / PATH_REF_REVERSE */
    public int wrap(TlvIndex idx, int entry) {
        if (entry < 0 || entry >= idx.count()
                || (idx.type(entry) != TlvType.PATH_REF && idx.type(entry) != TlvType.PATH_REF_REVERSE)) {
            count = 0;
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        return wrap(idx.buffer(), idx.bodyOffset(entry), idx.bodyLength(entry));
    }

    /** Elements in the wrapped body, 0 after a refused wrap. */
    public int count() {
        return count;
    }

    /** Element i's index (u32). */
    public long index(int i) {
        return Bytes.u32(buf, off + i * ELEMENT_BYTES);
    }

    /** Element i's generation (u32). */
    public long generation(int i) {
        return Bytes.u32(buf, off + i * ELEMENT_BYTES + 4);
    }
}
