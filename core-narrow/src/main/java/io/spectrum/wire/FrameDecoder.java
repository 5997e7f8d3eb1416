package io.spectrum.wire;

/**
 * Decodes one libtracer v1 frame iteratively into a {@link TlvIndex}. No recursion, no allocation,
 * no exception: the result is {@link WireError#OK} or a refusal code, and on refusal the index is
 * left empty ({@code count() == 0}).
 *
 * <p>The only per-type rule at this tier is the PATH_REF / PATH_REF_REVERSE shape check; PATH
 * grammar, FIELD modes and the like are reader rules above the codec.
 */
public final class FrameDecoder {
    /** Largest payload length accepted at any level (the digest suggests 16 MiB). */
    public static final long MAX_TLV_BYTES = 16L * 1024 * 1024;
    /** Largest PATH_REF body: 255 elements of 8 bytes. */
    public static final int MAX_PATH_REF_BYTES = 2040;

    private final int[] stackEntry;
    private final int[] stackCursor;
    private final int[] stackLimit;
    private final int[] stackLast;
    private final long maxTlvBytes;

    /**
     * A decoder whose stack holds {@code maxDepth} open containers (deeper frames are refused with
     * TLV_NESTING_TOO_DEEP) and that refuses any payload longer than {@code maxTlvBytes}. The
     * stacks are allocated here, once.
     */
    public FrameDecoder(int maxDepth, long maxTlvBytes) {
        stackEntry = new int[maxDepth];
        stackCursor = new int[maxDepth];
        stackLimit = new int[maxDepth];
        stackLast = new int[maxDepth];
        this.maxTlvBytes = maxTlvBytes;
    }

    /** A decoder for 64 nesting levels and payloads up to {@link #MAX_TLV_BYTES}. */
    public FrameDecoder() {
        this(64, MAX_TLV_BYTES);
    }

    /**
     * Decodes the frame that occupies exactly {@code buf[off, off+len)}.
     *
     * @return {@link WireError#OK} or one of FRAME_TRUNCATED, FRAME_INVALID, FRAME_CRC_FAIL,
     *     TLV_NESTING_TOO_DEEP
     */
    public int decode(byte[] buf, int off, int len, TlvIndex idx) {
        idx.clear(buf, off, len);
        if (buf == null || off < 0 || len < 0 || off > buf.length - len) {
            return fail(idx, off, WireError.FRAME_TRUNCATED);
        }
        // one linear pass: the parse position walks the buffer once; entering a non-empty
        // container pushes the enclosing context, reaching a context's limit pops it
        final int[] rec = idx.rec;
        final int capacity = idx.capacity();
        final int stackMax = Math.min(stackEntry.length, idx.maxDepth());
        final long maxLen = maxTlvBytes;
        final int frameEnd = off + len;
        int count = 0;
        int sp = 0;
        int pos = off;
        int limit = frameEnd;
        int parentEntry = TlvIndex.NONE;
        int last = TlvIndex.NONE;
        while (true) {
            if (limit - pos < 4) {
                return fail(idx, pos, WireError.FRAME_TRUNCATED);
            }
            final int t = buf[pos] & 0xFF;
            final int o = buf[pos + 1] & 0xFF;
            if (t == 0) {
                return fail(idx, pos, WireError.FRAME_INVALID);
            }
            if ((o & Opt.RESERVED) != 0) {
                return fail(idx, pos + 1, WireError.FRAME_INVALID); // point at the opt byte
            }
            final int header;
            final long length;
            if ((o & Opt.LL) != 0) {
                if (limit - pos < 6) {
                    return fail(idx, pos, WireError.FRAME_TRUNCATED);
                }
                header = 6;
                length = Bytes.u32(buf, pos + 2);
            } else {
                header = 4;
                length = (buf[pos + 2] & 0xFF) | (buf[pos + 3] & 0xFF) << 8;
            }
            if (length > maxLen) {
                return fail(idx, pos + 2, WireError.FRAME_INVALID); // point at the length field
            }
            final int tsLen = Opt.tsSize(o);
            final int crcLen = Opt.crcSize(o);
            if ((long) header + length + tsLen + crcLen > (long) (limit - pos)) {
                return fail(idx, pos, WireError.FRAME_TRUNCATED);
            }
            if ((t == TlvType.PATH_REF || t == TlvType.PATH_REF_REVERSE)
                    && ((o & (Opt.PL | Opt.LL)) != 0 || (length & 7) != 0 || length > MAX_PATH_REF_BYTES)) {
                return fail(idx, pos, WireError.FRAME_INVALID);
            }
            if (count == capacity) {
                return fail(idx, pos, WireError.TLV_NESTING_TOO_DEEP);
            }
            final int bodyOff = pos + header;
            final int bodyLen = (int) length;
            final int tsOff = bodyOff + bodyLen;
            final int e = count++;
            if ((o & (Opt.TS | Opt.CR)) != 0) {
                long tsValue = 0;
                if (tsLen == 8) {
                    tsValue = Bytes.i64(buf, tsOff);
                } else if (tsLen == 4) {
                    tsValue = Bytes.i32(buf, tsOff);
                }
                int crcValue = 0;
                final int crcOff = tsOff + tsLen;
                if (crcLen == 4) {
                    crcValue = Bytes.i32(buf, crcOff);
                    if (Crc32c.compute(buf, bodyOff, bodyLen + tsLen) != crcValue) {
                        return fail(idx, crcOff, WireError.FRAME_CRC_FAIL);
                    }
                } else if (crcLen == 2) {
                    crcValue = Bytes.u16(buf, crcOff);
                    if (Crc16.compute(buf, bodyOff, bodyLen + tsLen) != crcValue) {
                        return fail(idx, crcOff, WireError.FRAME_CRC_FAIL);
                    }
                }
                idx.ts[e] = tsValue;
                idx.crc[e] = crcValue;
            }
            final int entryEnd = tsOff + tsLen + crcLen;
            final int r = e * TlvIndex.STRIDE;
            rec[r] = t | o << 8 | sp << 16;
            rec[r + TlvIndex.START] = pos;
            rec[r + TlvIndex.BODY] = bodyOff;
            rec[r + TlvIndex.LEN] = bodyLen;
            rec[r + TlvIndex.END] = entryEnd;
            rec[r + TlvIndex.FIRST] = TlvIndex.NONE;
            rec[r + TlvIndex.NEXT] = TlvIndex.NONE;
            rec[r + TlvIndex.PARENT] = parentEntry;
            if (parentEntry == TlvIndex.NONE) {
                if (entryEnd != frameEnd) {
                    return fail(idx, entryEnd, WireError.FRAME_INVALID); // bytes after the root
                }
            } else if (last == TlvIndex.NONE) {
                rec[parentEntry * TlvIndex.STRIDE + TlvIndex.FIRST] = e;
            } else {
                rec[last * TlvIndex.STRIDE + TlvIndex.NEXT] = e;
            }
            pos = entryEnd;
            last = e;
            if ((o & Opt.PL) != 0 && bodyLen > 0) {
                if (sp >= stackMax) {
                    return fail(idx, rec[r + TlvIndex.START], WireError.TLV_NESTING_TOO_DEEP);
                }
                stackEntry[sp] = parentEntry;
                stackCursor[sp] = pos;
                stackLimit[sp] = limit;
                stackLast[sp] = last;
                sp++;
                parentEntry = e;
                pos = bodyOff;
                limit = tsOff;
                last = TlvIndex.NONE;
            }
            while (pos == limit) {
                if (sp == 0) {
                    idx.count = count;
                    return WireError.OK;
                }
                sp--;
                parentEntry = stackEntry[sp];
                pos = stackCursor[sp];
                limit = stackLimit[sp];
                last = stackLast[sp];
            }
        }
    }

    private static int fail(TlvIndex idx, int at, int code) {
        idx.count = 0;
        idx.errorOffset = at;
        return code;
    }
}
