package io.spectrum.wire;

/**
 * Re-encodes a decoded frame from its {@link TlvIndex}: raw opt bytes and length widths are kept,
 * leaf payloads are copied, container lengths are recomputed from the children, timestamps are
 * re-emitted from the decoded values and CRCs are recomputed. A valid frame therefore comes back
 * byte for byte. Iterative, allocation-free, no exceptions.
 *
 * <p>The walk is one linear pass over the index: entries are stored in pre-order, so a subtree is
 * a contiguous run of entries deeper than its root, and a container closes when the depth falls
 * back to its own. Open containers wait on a small explicit stack for their length and trailer.
 */
public final class FrameEncoder {
    private final int[] openEntry;
    private final int[] openStart;

    /**
     * An encoder whose stack holds {@code maxDepth} open containers (deeper subtrees are refused
     * with TLV_NESTING_TOO_DEEP); the stack is allocated here, once.
     */
    public FrameEncoder(int maxDepth) {
        openEntry = new int[maxDepth];
        openStart = new int[maxDepth];
    }

    /** An encoder for 64 nesting levels, matching the default {@link FrameDecoder}. */
    public FrameEncoder() {
        this(64);
    }

    /**
     * Encodes entry {@code e} of {@code idx} (0 = the whole frame) into {@code out}.
     *
     * @return bytes written (&gt; 0), or a negated {@link WireError} code: FRAME_INVALID for a bad
     *     entry, FLOW_BACKPRESSURE when {@code capacity} is too small, TLV_NESTING_TOO_DEEP when the
     *     frame nests deeper than this encoder's stack
     */
    public int encode(TlvIndex idx, int e, byte[] out, int off, int capacity) {
        final int count = idx.count;
        if (count == 0 || e < 0 || e >= count) {
            return -WireError.FRAME_INVALID;
        }
        // a decoded subtree re-encodes to exactly its wire size: check room once
        final int total = idx.totalLength(e);
        if (capacity < total || off < 0 || off > out.length - total) {
            return -WireError.FLOW_BACKPRESSURE;
        }
        final byte[] src = idx.buf;
        final int[] rec = idx.rec;
        final int rootDepth = rec[e * TlvIndex.STRIDE] >>> 16;
        int pos = off;
        int sp = 0;
        for (int k = e; k < count; k++) {
            final int r = k * TlvIndex.STRIDE;
            final int tod = rec[r];
            final int d = tod >>> 16;
            if (k != e && d <= rootDepth) {
                break;
            }
            while (sp > 0 && (rec[openEntry[sp - 1] * TlvIndex.STRIDE] >>> 16) >= d) {
                sp--;
                pos = close(idx, openEntry[sp], openStart[sp], out, pos);
            }
            final int o = tod >>> 8 & 0xFF;
            out[pos] = (byte) tod;
            out[pos + 1] = (byte) o;
            final int header = (o & Opt.LL) != 0 ? 6 : 4;
            if ((o & Opt.PL) != 0) {
                if (sp == openEntry.length) {
                    return -WireError.TLV_NESTING_TOO_DEEP;
                }
                openEntry[sp] = k;
                openStart[sp] = pos;
                sp++;
                pos += header;
            } else {
                final int n = rec[r + TlvIndex.LEN];
                putLength(out, pos, o, n);
                pos += header;
                System.arraycopy(src, rec[r + TlvIndex.BODY], out, pos, n);
                pos += n;
                if ((o & (Opt.TS | Opt.CR)) != 0) {
                    pos = trailer(idx, k, out, pos - n, n, pos);
                }
            }
        }
        while (sp > 0) {
            sp--;
            pos = close(idx, openEntry[sp], openStart[sp], out, pos);
        }
        return pos - off;
    }

    private static void putLength(byte[] out, int at, int o, int n) {
        if ((o & Opt.LL) != 0) {
            Bytes.put32(out, at + 2, n);
        } else {
            Bytes.put16(out, at + 2, n);
        }
    }

    /** Back-patches a container's length and appends its trailer; returns the new position. */
    private static int close(TlvIndex idx, int k, int start, byte[] out, int pos) {
        final int o = idx.opt(k);
        final int bodyOff = start + ((o & Opt.LL) != 0 ? 6 : 4);
        final int n = pos - bodyOff;
        putLength(out, start, o, n);
        if ((o & (Opt.TS | Opt.CR)) != 0) {
            return trailer(idx, k, out, bodyOff, n, pos);
        }
        return pos;
    }

    /** Writes entry k's timestamp and CRC (over payload then timestamp) at {@code pos}. */
    private static int trailer(TlvIndex idx, int k, byte[] out, int bodyOff, int n, int pos) {
        final int o = idx.opt(k);
        final int tsLen = Opt.tsSize(o);
        if (tsLen == 8) {
            Bytes.put64(out, pos, idx.ts[k]);
        } else if (tsLen == 4) {
            Bytes.put32(out, pos, (int) idx.ts[k]);
        }
        pos += tsLen;
        final int crcLen = Opt.crcSize(o);
        if (crcLen == 4) {
            Bytes.put32(out, pos, Crc32c.compute(out, bodyOff, n + tsLen));
        } else if (crcLen == 2) {
            Bytes.put16(out, pos, Crc16.compute(out, bodyOff, n + tsLen));
        }
        return pos + crcLen;
    }
}
