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

    public FrameDecoder(int maxDepth, long maxTlvBytes) {
        stackEntry = new int[maxDepth];
        stackCursor = new int[maxDepth];
        stackLimit = new int[maxDepth];
        stackLast = new int[maxDepth];
        this.maxTlvBytes = maxTlvBytes;
    }

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
        if (off < 0 || len < 0 || off > buf.length - len) {
            return fail(idx, off, WireError.FRAME_TRUNCATED);
        }
        final int frameEnd = off + len;
        int r = parseOne(buf, off, frameEnd, TlvIndex.NONE, 0, idx);
        if (r != WireError.OK) {
            return fail(idx, idx.errorOffset, r);
        }
        if (idx.end[0] != frameEnd) {
            return fail(idx, idx.end[0], WireError.FRAME_INVALID);
        }
        final int stackMax = Math.min(stackEntry.length, idx.maxDepth());
        int sp = 0;
        if (idx.isContainer(0) && idx.len[0] > 0) {
            sp = push(0, idx, sp);
        }
        while (sp > 0) {
            final int top = sp - 1;
            final int cursor = stackCursor[top];
            if (cursor == stackLimit[top]) {
                sp--;
                continue;
            }
            final int parentEntry = stackEntry[top];
            r = parseOne(buf, cursor, stackLimit[top], parentEntry, sp, idx);
            if (r != WireError.OK) {
                return fail(idx, idx.errorOffset, r);
            }
            final int e = idx.count - 1;
            stackCursor[top] = idx.end[e];
            if (stackLast[top] == TlvIndex.NONE) {
                idx.firstChild[parentEntry] = e;
            } else {
                idx.nextSibling[stackLast[top]] = e;
            }
            stackLast[top] = e;
            if (idx.isContainer(e) && idx.len[e] > 0) {
                if (sp >= stackMax) {
                    return fail(idx, idx.start[e], WireError.TLV_NESTING_TOO_DEEP);
                }
                sp = push(e, idx, sp);
            }
        }
        return WireError.OK;
    }

    private int push(int e, TlvIndex idx, int sp) {
        stackEntry[sp] = e;
        stackCursor[sp] = idx.body[e];
        stackLimit[sp] = idx.body[e] + idx.len[e];
        stackLast[sp] = TlvIndex.NONE;
        return sp + 1;
    }

    private static int fail(TlvIndex idx, int at, int code) {
        idx.count = 0;
        idx.errorOffset = at;
        return code;
    }

    /** Parses the header and trailer of one TLV at {@code pos} that must end by {@code limit}. */
    private int parseOne(byte[] buf, int pos, int limit, int parentEntry, int depth, TlvIndex idx) {
        idx.errorOffset = pos;
        if (limit - pos < 4) {
            return WireError.FRAME_TRUNCATED;
        }
        final int type = buf[pos] & 0xFF;
        final int opt = buf[pos + 1] & 0xFF;
        if (type == 0) {
            return WireError.FRAME_INVALID;
        }
        if ((opt & Opt.RESERVED) != 0) {
            idx.errorOffset = pos + 1; // point at the opt byte
            return WireError.FRAME_INVALID;
        }
        final int header;
        final long length;
        if ((opt & Opt.LL) != 0) {
            if (limit - pos < 6) {
                return WireError.FRAME_TRUNCATED;
            }
            header = 6;
            length = Bytes.u32(buf, pos + 2);
        } else {
            header = 4;
            length = Bytes.u16(buf, pos + 2);
        }
        if (length > maxTlvBytes) {
            idx.errorOffset = pos + 2; // point at the length field
            return WireError.FRAME_INVALID;
        }
        final int tsLen = Opt.tsSize(opt);
        final int crcLen = Opt.crcSize(opt);
        if ((long) header + length + tsLen + crcLen > (long) (limit - pos)) {
            return WireError.FRAME_TRUNCATED;
        }
        if ((type == TlvType.PATH_REF || type == TlvType.PATH_REF_REVERSE)
                && ((opt & (Opt.PL | Opt.LL)) != 0 || length % 8 != 0 || length > MAX_PATH_REF_BYTES)) {
            return WireError.FRAME_INVALID;
        }
        if (idx.count == idx.capacity()) {
            return WireError.TLV_NESTING_TOO_DEEP;
        }
        final int bodyOff = pos + header;
        final int bodyLen = (int) length;
        final int tsOff = bodyOff + bodyLen;
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
                idx.errorOffset = crcOff;
                return WireError.FRAME_CRC_FAIL;
            }
        } else if (crcLen == 2) {
            crcValue = Bytes.u16(buf, crcOff);
            if (Crc16.compute(buf, bodyOff, bodyLen + tsLen) != crcValue) {
                idx.errorOffset = crcOff;
                return WireError.FRAME_CRC_FAIL;
            }
        }
        final int e = idx.count++;
        idx.type[e] = type;
        idx.opt[e] = opt;
        idx.start[e] = pos;
        idx.body[e] = bodyOff;
        idx.len[e] = bodyLen;
        idx.end[e] = crcOff + crcLen;
        idx.firstChild[e] = TlvIndex.NONE;
        idx.nextSibling[e] = TlvIndex.NONE;
        idx.parent[e] = parentEntry;
        idx.depth[e] = depth;
        idx.ts[e] = tsValue;
        idx.crc[e] = crcValue;
        return WireError.OK;
    }
}
