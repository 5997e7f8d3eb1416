package io.spectrum.wire;

/**
 * The forward hop's rewrite of a FWD frame (digest §5.2), matching libtracer's router
 * ({@code rebuild_fwd_forward}) byte for byte:
 *
 * <ul>
 *   <li>dst: its first {@code stripBytes} body bytes (the leading mount run) removed, a fresh
 *       {@code PATH} header (opt 0, LL only past 0xFFFF);</li>
 *   <li>src: the inbound run prepended (packed segment records), a fresh header; on a REPLY src
 *       is not grown (a reply accumulates no return route) and may be a {@code PATH_REF}. A
 *       delivery (a WRITE with empty src) grows like any request: its src becomes the run;</li>
 *   <li>the op child, the FIELD selector and everything after src copied untouched, with two
 *       exceptions where this hop contributes no mint element: a REPLY's trailing {@code PATH_REF}
 *       mint answer and a mint-flagged request's trailing {@code PATH_REF_REVERSE} are removed
 *       (a list that skips a hop would be a wrong route, RFC-0024 §7.1);</li>
 *   <li>the outer header fresh: PL, LL only when the body passes 0xFFFF, the TS/TF bits and the
 *       timestamp bytes kept verbatim, CR/CW dropped (the body changed; the CRC no longer covers
 *       it).</li>
 * </ul>
 *
 * Also the hop's ERROR answer ({@link #errorReply}). Static, allocation-free; the single copy of a
 * forwarded frame is the one into the caller's buffer.
 */
public final class FwdRewrite {
    private FwdRewrite() {
    }

    /**
     * Writes the forwarded frame of the FWD {@code fwd} wraps into {@code out[off, off+cap)}.
     *
     * @param stripBytes leading dst body bytes to remove (whole records: see {@link #runLength})
     * @param run the inbound run's packed records, prepended to src (ignored on a REPLY)
     * @return quantity: the frame's length, or a negated code: FRAME_INVALID when the frame cannot
     *     be forwarded (dst not a PATH or shorter than the strip, a request's src not a PATH),
     *     FLOW_BACKPRESSURE when it does not fit {@code cap}
     */
    public static int forward(FwdView fwd, int stripBytes, byte[] run, int runOff, int runLen,
            byte[] out, int off, int cap) {
        return forward(fwd, stripBytes, run, runOff, runLen, out, off, cap, null, 0, 0);
    }

    /**
     * {@link #forward(FwdView, int, byte[], int, int, byte[], int, int)} for a request the forwarding
     * node holds at the next hop itself (a forwarded AWAIT: the next hop sees the forwarder as its
     * caller): the sender's announcement children (the SETTINGS after src and the payload: its holder
     * pair and name belong to its relation with this hop, not the next) are left out and
     * {@code ann[annOff, +annLen)}, the forwarder's own announcement, is appended instead.
     * {@code ann} null copies the tail untouched.
     */
    public static int forward(FwdView fwd, int stripBytes, byte[] run, int runOff, int runLen,
            byte[] out, int off, int cap, byte[] ann, int annOff, int annLen) {
        final TlvIndex x = fwd.index();
        final byte[] b = x.buffer();
        final int e = fwd.entry();
        final int dst = fwd.dst();
        final int src = fwd.src();
        final boolean reply = fwd.opcode() == FwdView.OP_REPLY;
        final boolean srcRef = x.type(src) == TlvType.PATH_REF;
        if (e < 0 || x.type(dst) != TlvType.PATH || (srcRef && !reply)
                || stripBytes < 0 || stripBytes > x.bodyLength(dst)) {
            return -WireError.FRAME_INVALID;
        }
        final int op = fwd.opEntry();
        final int opTotal = x.totalLength(op);
        final int sel = fwd.field();
        final int selTotal = sel == TlvIndex.NONE ? 0 : x.totalLength(sel);
        final int bodyEnd = x.bodyOffset(e) + x.bodyLength(e);
        final int tailStart = x.end(src);
        int tailEnd = bodyEnd;
        final int last = lastChild(x, src);
        if (last != src) {
            final int lt = x.type(last);
            if (reply ? lt == TlvType.PATH_REF : (fwd.op() & FwdView.MINT) != 0 && lt == TlvType.PATH_REF_REVERSE) {
                tailEnd = x.start(last); // this hop mints nothing: strip the list
            }
        }
        long tailBytes = tailEnd - tailStart;
        if (ann != null) {
            tailBytes = annLen;
            for (int c = x.nextSibling(src); c != TlvIndex.NONE && x.start(c) < tailEnd; c = x.nextSibling(c)) {
                if (x.type(c) != TlvType.SETTINGS) {
                    tailBytes += x.totalLength(c);
                }
            }
        }
        final int grow = reply ? 0 : runLen;
        final int dstBody = x.bodyLength(dst) - stripBytes;
        final int srcBody = x.bodyLength(src) + grow;
        final int dstTotal = headerBytes(dstBody) + dstBody;
        final int srcTotal = headerBytes(srcBody) + srcBody;
        final long body = (long) opTotal + dstTotal + selTotal + srcTotal + tailBytes;
        final int inOpt = x.opt(e);
        final boolean ts = (inOpt & Opt.TS) != 0;
        final int tsBytes = ts ? ((inOpt & Opt.TF) != 0 ? 4 : 8) : 0;
        final long total = headerBytes(body) + body + tsBytes;
        if (total > cap || body > Integer.MAX_VALUE) {
            return -WireError.FLOW_BACKPRESSURE;
        }
        int p = header(out, off, TlvType.FWD, Opt.PL | (ts ? inOpt & (Opt.TS | Opt.TF) : 0), (int) body);
        p = copy(b, x.start(op), opTotal, out, p);
        p = header(out, p, TlvType.PATH, 0, dstBody);
        p = copy(b, x.bodyOffset(dst) + stripBytes, dstBody, out, p);
        if (sel != TlvIndex.NONE) {
            p = copy(b, x.start(sel), selTotal, out, p);
        }
        p = header(out, p, srcRef ? TlvType.PATH_REF : TlvType.PATH, 0, srcBody);
        if (grow > 0) {
            p = copy(run, runOff, grow, out, p);
        }
        p = copy(b, x.bodyOffset(src), x.bodyLength(src), out, p);
        if (ann == null) {
            p = copy(b, tailStart, tailEnd - tailStart, out, p);
        } else {
            for (int c = x.nextSibling(src); c != TlvIndex.NONE && x.start(c) < tailEnd; c = x.nextSibling(c)) {
                if (x.type(c) != TlvType.SETTINGS) {
                    p = copy(b, x.start(c), x.totalLength(c), out, p);
                }
            }
            p = copy(ann, annOff, annLen, out, p);
        }
        if (ts) {
            p = copy(b, bodyEnd, tsBytes, out, p); // the stamp, verbatim
        }
        return p - off;
    }

    /**
     * The dst body bytes {@code run} covers when dst begins with it as whole records: {@code runLen}
     * when the PATH body {@code b[bodyOff, bodyOff+bodyLen)} starts with the run's bytes (a run is
     * whole records from the start, so a byte prefix is a record prefix), else -1.
     */
    public static int runLength(byte[] b, int bodyOff, int bodyLen, byte[] run, int runOff, int runLen) {
        if (runLen <= 0 || runLen > bodyLen) {
            return -1;
        }
        for (int i = 0; i < runLen; i++) {
            if (b[bodyOff + i] != run[runOff + i]) {
                return -1;
            }
        }
        return runLen;
    }

    /**
     * Opens the answer to the request whose routes are entries {@code src} and {@code dst} of
     * {@code x}, with the route swap every reply carries (digest §5.2):
     * {@code FWD{REPLY, dst = request src bytes, src = request dst bytes, VALUE u8 kind}}; the caller
     * appends the payload and closes the FWD. The one writer of that envelope (the terminus and
     * the forward hop's refusals).
     */
    public static TlvWriter beginReply(TlvWriter t, TlvIndex x, int src, int dst, int kind) {
        return t.begin(TlvType.FWD).value(FwdView.OP_REPLY, 1)
                .raw(x.buffer(), x.start(src), x.totalLength(src))
                .raw(x.buffer(), x.start(dst), x.totalLength(dst))
                .value(kind, 1);
    }

    /**
     * The hop's refusal, as libtracer answers a path it may not route:
     * {@code FWD{REPLY, dst = request src, src = request dst, kind ERROR, STATUS{ERROR{code}}}}.
     * Nothing is written for a REPLY (never answer a reply) or an empty src (no reply wanted).
     *
     * @return quantity: the reply's length, 0 when none is due, or a negated code when it does not fit
     */
    public static int errorReply(FwdView req, int code, TlvWriter t) {
        if (req.opcode() == FwdView.OP_REPLY || req.srcEmpty()) {
            return 0;
        }
        beginReply(t, req.index(), req.src(), req.dst(), FwdView.KIND_ERROR).status(code).end();
        return t.error() == WireError.OK ? t.length() : -t.error();
    }

    /**
     * Writes one packed segment record ({@code len, bytes}) of an ASCII name to {@code out} at
     * {@code off}: a mount's run (configuration time).
     *
     * @return quantity: bytes written, or a negated PATH_INVALID when the name is not a valid
     *     ASCII key segment or does not fit {@code cap}
     */
    public static int writeSegment(CharSequence name, byte[] out, int off, int cap) {
        final int n = name.length();
        if (n < 1 || n > PathKeys.MAX_SEGMENT_BYTES || n + 1 > cap) {
            return -WireError.PATH_INVALID;
        }
        out[off] = (byte) n;
        for (int i = 0; i < n; i++) {
            final char c = name.charAt(i);
            if (c >= 0x80) {
                return -WireError.PATH_INVALID; // mount names are ASCII
            }
            out[off + 1 + i] = (byte) c;
        }
        return PathKeys.validateSegment(out, off + 1, n) == WireError.OK ? n + 1 : -WireError.PATH_INVALID;
    }

    /**
     * Writes one packed segment record spelling {@code number-generation} in decimal (both
     * non-negative) to {@code out} at {@code off}: a listener peer's segment of an inbound run.
     * Allocation-free.
     *
     * @return quantity: bytes written (at most 41), or a negated PATH_INVALID when it does not fit
     */
    public static int writeNumberSegment(long number, long generation, byte[] out, int off, int cap) {
        if (cap < 41 || number < 0 || generation < 0) {
            return -WireError.PATH_INVALID;
        }
        int p = decimal(number, out, off + 1);
        out[p++] = '-';
        p = decimal(generation, out, p);
        out[off] = (byte) (p - off - 1);
        return p - off;
    }

    private static int decimal(long v, byte[] out, int p) {
        long d = 1;
        while (v / d >= 10) {
            d *= 10;
        }
        for (; d > 0; d /= 10) {
            out[p++] = (byte) ('0' + (v / d) % 10);
        }
        return p;
    }

    private static int lastChild(TlvIndex x, int from) {
        int last = from;
        for (int c = x.nextSibling(from); c != TlvIndex.NONE; c = x.nextSibling(c)) {
            last = c;
        }
        return last;
    }

    private static int headerBytes(long body) {
        return body > 0xFFFF ? 6 : 4;
    }

    private static int header(byte[] out, int p, int type, int opt, int body) {
        out[p] = (byte) type;
        if (body > 0xFFFF) {
            out[p + 1] = (byte) (opt | Opt.LL);
            Bytes.put32(out, p + 2, body);
            return p + 6;
        }
        out[p + 1] = (byte) opt;
        Bytes.put16(out, p + 2, body);
        return p + 4;
    }

    private static int copy(byte[] from, int at, int len, byte[] out, int p) {
        System.arraycopy(from, at, out, p, len);
        return p + len;
    }
}
