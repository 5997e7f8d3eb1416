package io.spectrum.wire;

/**
 * A caller-owned flat index of one decoded frame: one entry per TLV, in pre-order, over the
 * receive buffer (no object per TLV). Each entry is an 8-int record in one packed array (type, opt
 * and depth; header offset; body offset; body length; end; first child; next sibling; parent), plus
 * the trailer values in two side arrays written only when a trailer is present. Entry 0 is the
 * root; a subtree is a contiguous run of entries. Sized once;
 * {@link FrameDecoder} refuses a frame that needs more entries or deeper nesting than it holds.
 *
 * <p>A record view is re-pointed at an entry rather than allocated; the index itself is reused
 * frame after frame.
 */
public final class TlvIndex {
    /** Sentinel for "no such entry". */
    public static final int NONE = -1;

    /** Ints per entry in {@link #rec}. */
    static final int STRIDE = 8;
    /** Slot 0: type | opt &lt;&lt; 8 | depth &lt;&lt; 16. */
    static final int TOD = 0;
    static final int START = 1;
    static final int BODY = 2;
    static final int LEN = 3;
    static final int END = 4;
    static final int FIRST = 5;
    static final int NEXT = 6;
    static final int PARENT = 7;

    private final int capacity;
    private final int maxDepth;
    /** Entry e's record is rec[e * STRIDE .. e * STRIDE + 7]: one array, so one cache line per entry. */
    final int[] rec;
    final long[] ts;
    final int[] crc;
    int count;
    byte[] buf;
    int frameOff;
    int frameLen;
    int errorOffset = NONE;

    /**
     * @param capacity entries the index can hold (TLVs per frame)
     * @param maxDepth deepest nesting the decoder will follow (root is depth 0)
     */
    public TlvIndex(int capacity, int maxDepth) {
        if (capacity < 1 || maxDepth < 1) {
            throw new IllegalArgumentException("capacity and maxDepth must be positive");
        }
        if (maxDepth > 0xFFFF) {
            throw new IllegalArgumentException("maxDepth above 65535");
        }
        this.capacity = capacity;
        this.maxDepth = maxDepth;
        rec = new int[capacity * STRIDE];
        ts = new long[capacity];
        crc = new int[capacity];
    }

    /** A default index for protocol frames: 256 TLVs, depth 16 (protocol shapes nest at most 5). */
    public TlvIndex() {
        this(256, 16);
    }

    /** Entries the index can hold: the most TLVs a frame may have to decode. */
    public int capacity() {
        return capacity;
    }

    /** Deepest nesting the decoder follows into this index (root at depth 0). */
    public int maxDepth() {
        return maxDepth;
    }

    /** Number of entries of the last successful decode (0 after a refusal). */
    public int count() {
        return count;
    }

    /** The buffer the entries point into. */
    public byte[] buffer() {
        return buf;
    }

    /** Offset of the decoded frame in {@link #buffer()}. */
    public int frameOffset() {
        return frameOff;
    }

    /** Bytes of the decoded frame, trailers included. */
    public int frameLength() {
        return frameLen;
    }

    /** Absolute buffer offset at which the last refusal was detected (the TLV, or its opt byte,
     * length field or CRC trailer), or {@link #NONE}. */
    public int errorOffset() {
        return errorOffset;
    }

    /** Entry {@code e}'s type code ({@link TlvType}), 1..255. */
    public int type(int e) {
        return rec[e * STRIDE] & 0xFF;
    }

    /** The raw opt byte, kept verbatim so the frame re-encodes byte for byte. */
    public int opt(int e) {
        return rec[e * STRIDE] >>> 8 & 0xFF;
    }

    /** True when entry {@code e} has PL set: its payload is child TLVs (possibly none). */
    public boolean isContainer(int e) {
        return (rec[e * STRIDE] & Opt.PL << 8) != 0;
    }

    /** Offset of the entry's header in {@link #buffer()}. */
    public int start(int e) {
        return rec[e * STRIDE + START];
    }

    /** Offset of the payload. */
    public int bodyOffset(int e) {
        return rec[e * STRIDE + BODY];
    }

    /** Payload length (the header's length field). */
    public int bodyLength(int e) {
        return rec[e * STRIDE + LEN];
    }

    /** Offset just past the entry's trailer. */
    public int end(int e) {
        return rec[e * STRIDE + END];
    }

    /** Whole wire size: header, payload and trailer. */
    public int totalLength(int e) {
        return rec[e * STRIDE + END] - rec[e * STRIDE + START];
    }

    /** Size of header plus payload, without trailer: the stored form of a value. */
    public int untrailedLength(int e) {
        final int b = e * STRIDE;
        return rec[b + BODY] + rec[b + LEN] - rec[b + START];
    }

    /** Entry {@code e}'s first child, or {@link #NONE} for a leaf or an empty container. */
    public int firstChild(int e) {
        return rec[e * STRIDE + FIRST];
    }

    /**
     * The entry after {@code e} under the same parent, or {@link #NONE} when {@code e} is the last.
     */
    public int nextSibling(int e) {
        return rec[e * STRIDE + NEXT];
    }

    /** Entry {@code e}'s parent, or {@link #NONE} for the root. */
    public int parent(int e) {
        return rec[e * STRIDE + PARENT];
    }

    /** Entry {@code e}'s nesting depth, 0 for the root. */
    public int depth(int e) {
        return rec[e * STRIDE] >>> 16;
    }

    /** True when entry {@code e} carries a timestamp trailer ({@link #timestamp} reads it). */
    public boolean hasTimestamp(int e) {
        return (opt(e) & Opt.TS) != 0;
    }

    /** Trailer timestamp: absolute u64 ns, or the sign-extended relative i32 when TF is set. */
    public long timestamp(int e) {
        return (opt(e) & Opt.TS) != 0 ? ts[e] : 0L;
    }

    /** True when entry {@code e} carries a CRC trailer ({@link #crc} reads it). */
    public boolean hasCrc(int e) {
        return (opt(e) & Opt.CR) != 0;
    }

    /** The CRC trailer value as carried (already verified by the decoder). */
    public int crc(int e) {
        return (opt(e) & Opt.CR) != 0 ? crc[e] : 0;
    }

    /**
     * Number of direct children of entry {@code e}, 0 for a leaf; walks the siblings (no
     * allocation).
     */
    public int childCount(int e) {
        int n = 0;
        for (int c = firstChild(e); c != NONE; c = nextSibling(c)) {
            n++;
        }
        return n;
    }

    /** The n-th child (0-based), or {@link #NONE}. */
    public int child(int e, int n) {
        int c = firstChild(e);
        while (c != NONE && n-- > 0) {
            c = nextSibling(c);
        }
        return c;
    }

    /** First child of the given type at or after {@code from} (a child entry), or {@link #NONE}. */
    public int findSibling(int from, int wantedType) {
        for (int c = from; c != NONE; c = nextSibling(c)) {
            if (type(c) == wantedType) {
                return c;
            }
        }
        return NONE;
    }

    /** Unsigned little-endian value of a payload of 1..8 bytes; 0 for an empty payload. */
    public long valueAsLong(int e) {
        final int n = bodyLength(e);
        return Bytes.uLe(buf, bodyOffset(e), n > 8 ? 8 : n);
    }

    /** Compares the payload bytes with {@code s}. */
    public boolean payloadEquals(int e, byte[] s) {
        return Bytes.equals(buf, bodyOffset(e), bodyLength(e), s, 0, s.length);
    }

    /** Compares the payload bytes with a fixed spelling ({@link Names}). */
    public boolean payloadEquals(int e, Spelling s) {
        return payloadEquals(e, s.bytes);
    }

    void clear(byte[] b, int off, int length) {
        buf = b;
        frameOff = off;
        frameLen = length;
        count = 0;
        errorOffset = NONE;
    }
}
