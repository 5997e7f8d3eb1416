package io.spectrum.wire;

/**
 * Builds TLVs into a caller buffer. Containers are opened with {@link #begin} and closed with
 * {@link #end}, which back-patches the length and appends the trailer the opt byte asks for (the
 * CRC is computed over payload then timestamp, as the wire requires). Running out of room, closing
 * too much or a u16 length overflow sets a sticky error instead of throwing; check {@link #error()}
 * once after building.
 */
public final class TlvWriter {
    private final int[] openStart;
    private final int[] openOpt;
    private final int[] openType;
    private byte[] buf;
    private int base;
    private int limit;
    private int pos;
    private int depth;
    private int error;

    /**
     * A writer that can hold {@code maxDepth} open containers (one more is the sticky
     * TLV_NESTING_TOO_DEEP); its stacks are allocated here, once.
     */
    public TlvWriter(int maxDepth) {
        openStart = new int[maxDepth];
        openOpt = new int[maxDepth];
        openType = new int[maxDepth];
    }

    /** A writer for 64 open containers. */
    public TlvWriter() {
        this(64);
    }

    /** Points the writer at {@code buf[off, off+capacity)} and resets it. */
    public TlvWriter wrap(byte[] buffer, int off, int capacity) {
        buf = buffer;
        base = off;
        limit = off + capacity;
        pos = off;
        depth = 0;
        error = WireError.OK;
        return this;
    }

    /** The buffer of the last {@link #wrap}, where the bytes are written. */
    public byte[] buffer() {
        return buf;
    }

    /** Bytes written since {@link #wrap}. */
    public int length() {
        return pos - base;
    }

    /** Absolute write position in the buffer. */
    public int position() {
        return pos;
    }

    /** {@link WireError#OK}, or the first error met (FLOW_BACKPRESSURE when out of room). */
    public int error() {
        return error;
    }

    /** Open containers. */
    public int depth() {
        return depth;
    }

    private boolean room(int n) {
        if (error != WireError.OK) {
            return false;
        }
        if (limit - pos < n) {
            error = WireError.FLOW_BACKPRESSURE;
            return false;
        }
        return true;
    }

    /** Opens a container; PL is forced on. The raw opt is otherwise kept (LL selects a u32 length). */
    public TlvWriter begin(int type, int opt) {
        opt |= Opt.PL;
        int header = Opt.headerSize(opt);
        if (depth == openStart.length) {
            if (error == WireError.OK) {
                error = WireError.TLV_NESTING_TOO_DEEP;
            }
            return this;
        }
        if (!room(header)) {
            return this;
        }
        openStart[depth] = pos;
        openOpt[depth] = opt;
        openType[depth] = type;
        depth++;
        buf[pos] = (byte) type;
        buf[pos + 1] = (byte) opt;
        pos += header;
        return this;
    }

    /** Opens a container of {@code type} with a u16 length and no trailer. */
    public TlvWriter begin(int type) {
        return begin(type, Opt.PL);
    }

    /** Closes the innermost container; a TS trailer, if its opt asks for one, carries 0. */
    public TlvWriter end() {
        return end(0L);
    }

    /** Closes the innermost container with the given trailer timestamp (used only if TS is set). */
    public TlvWriter end(long timestamp) {
        if (depth == 0) {
            if (error == WireError.OK) {
                error = WireError.FRAME_INVALID;
            }
            return this;
        }
        depth--;
        if (error != WireError.OK) {
            return this;
        }
        final int start = openStart[depth];
        final int opt = openOpt[depth];
        final int header = Opt.headerSize(opt);
        final int bodyLen = pos - start - header;
        if (!patchLength(start, opt, bodyLen)) {
            return this;
        }
        trailer(start + header, bodyLen, opt, timestamp);
        return this;
    }

    private boolean patchLength(int start, int opt, int bodyLen) {
        if ((opt & Opt.LL) != 0) {
            Bytes.put32(buf, start + 2, bodyLen);
        } else {
            if (bodyLen > 0xFFFF) {
                error = WireError.FRAME_INVALID;
                return false;
            }
            Bytes.put16(buf, start + 2, bodyLen);
        }
        return true;
    }

    private void trailer(int bodyOff, int bodyLen, int opt, long timestamp) {
        final int tsLen = Opt.tsSize(opt);
        final int crcLen = Opt.crcSize(opt);
        if (!room(tsLen + crcLen)) {
            return;
        }
        if (tsLen == 8) {
            Bytes.put64(buf, pos, timestamp);
        } else if (tsLen == 4) {
            Bytes.put32(buf, pos, (int) timestamp);
        }
        pos += tsLen;
        if (crcLen == 4) {
            Bytes.put32(buf, pos, Crc32c.compute(buf, bodyOff, bodyLen + tsLen));
        } else if (crcLen == 2) {
            Bytes.put16(buf, pos, Crc16.compute(buf, bodyOff, bodyLen + tsLen));
        }
        pos += crcLen;
    }

    /** Writes a leaf TLV with the raw opt (PL cleared) and the given payload. */
    public TlvWriter leaf(int type, int opt, byte[] src, int off, int len, long timestamp) {
        opt &= ~Opt.PL;
        final int header = Opt.headerSize(opt);
        if (!room(header + len)) {
            return this;
        }
        final int start = pos;
        buf[pos] = (byte) type;
        buf[pos + 1] = (byte) opt;
        if (!patchLength(start, opt, len)) {
            return this;
        }
        pos += header;
        System.arraycopy(src, off, buf, pos, len);
        pos += len;
        trailer(start + header, len, opt, timestamp);
        return this;
    }

    /**
     * Writes a leaf of {@code type} with no trailer and {@code src[off, off+len)} as its payload.
     */
    public TlvWriter leaf(int type, byte[] src, int off, int len) {
        return leaf(type, 0, src, off, len, 0L);
    }

    /** Writes a leaf of {@code type} with no trailer and all of {@code src} as its payload. */
    public TlvWriter leaf(int type, byte[] src) {
        return leaf(type, 0, src, 0, src.length, 0L);
    }

    /** A leaf whose payload is a fixed spelling ({@link Names}). */
    public TlvWriter leaf(int type, Spelling name) {
        return leaf(type, 0, name.bytes, 0, name.bytes.length, 0L);
    }

    /** Writes a VALUE of {@code width} little-endian bytes (1..8). */
    public TlvWriter value(long v, int width) {
        if (width < 1 || width > 8) {
            if (error == WireError.OK) {
                error = WireError.SCHEMA_TYPE_MISMATCH;
            }
            return this;
        }
        if (!room(4 + width)) {
            return this;
        }
        buf[pos] = (byte) TlvType.VALUE;
        buf[pos + 1] = 0;
        Bytes.put16(buf, pos + 2, width);
        Bytes.putLe(buf, pos + 4, v, width);
        pos += 4 + width;
        return this;
    }

    /**
     * Writes an empty-payload TLV, e.g. the empty STATUS {@code 09 00 00 00} or the empty container
     * {@code 0B 40 00 00}; the raw opt is kept and any trailer it asks for is appended.
     */
    public TlvWriter empty(int type, int opt) {
        if (!room(Opt.headerSize(opt))) {
            return this;
        }
        buf[pos] = (byte) type;
        buf[pos + 1] = (byte) opt;
        if ((opt & Opt.LL) != 0) {
            Bytes.put32(buf, pos + 2, 0);
            pos += 6;
        } else {
            Bytes.put16(buf, pos + 2, 0);
            pos += 4;
        }
        trailer(pos, 0, opt, 0L);
        return this;
    }

    /** Copies already-encoded bytes (a stored TLV, a pre-encoded PATH handle) verbatim. */
    public TlvWriter raw(byte[] src, int off, int len) {
        if (!room(len)) {
            return this;
        }
        System.arraycopy(src, off, buf, pos, len);
        pos += len;
        return this;
    }

    /** Copies all of {@code src} (an encoded TLV) verbatim. */
    public TlvWriter raw(byte[] src) {
        return raw(src, 0, src.length);
    }

    /** Copies a fixed TLV ({@link Names#EMPTY_STATUS}, ...) verbatim. */
    public TlvWriter raw(Spelling tlv) {
        return raw(tlv.bytes, 0, tlv.bytes.length);
    }

    /** An ERROR{VALUE u16 code}: the registry form of a refusal. */
    public TlvWriter error(int code) {
        return begin(TlvType.ERROR).value(code, 2).end();
    }

    /** A STATUS{ERROR{VALUE u16 code}}. */
    public TlvWriter status(int code) {
        return begin(TlvType.STATUS).error(code).end();
    }
}
