package io.spectrum.wire;

/**
 * A read-only flyweight over one PATH (0x06) body: walks its records in place. Re-point it with
 * {@link #wrap(byte[], int, int)} (a body) or {@link #wrap(TlvIndex, int)} (a decoded entry).
 *
 * <p>Records are addressed by their absolute offset in {@link #buffer()}: {@link #first()} and
 * {@link #next(int)} return one, or -1 at the end (or where a record overruns the body; call
 * {@link #validateFrame()} or {@link #validateKey()} first to tell the two apart).
 */
public final class PathView {
    private byte[] buf;
    private int off;
    private int len;

    /** Points the view at a PATH body. */
    public PathView wrap(byte[] buffer, int bodyOffset, int bodyLength) {
        buf = buffer;
        off = bodyOffset;
        len = bodyLength;
        return this;
    }

    /**
     * Points the view at a decoded PATH entry.
     *
     * @return OK, or SCHEMA_TYPE_MISMATCH when the entry is not an opaque PATH
     */
    public int wrap(TlvIndex idx, int entry) {
        if (entry < 0 || entry >= idx.count() || idx.type(entry) != TlvType.PATH || idx.isContainer(entry)) {
            buf = null;
            off = 0;
            len = 0;
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        wrap(idx.buffer(), idx.bodyOffset(entry), idx.bodyLength(entry));
        return WireError.OK;
    }

    /**
     * The array the view reads; records' offsets are absolute in it. Not a copy: treat as
     * read-only.
     */
    public byte[] buffer() {
        return buf;
    }

    /** Offset of the body in {@link #buffer()}. */
    public int bodyOffset() {
        return off;
    }

    /** Bytes of the body, 0 for the root. */
    public int bodyLength() {
        return len;
    }

    /** True for the root path {@code /} (empty body). */
    public boolean isRoot() {
        return len == 0;
    }

    /** Key-context check (see {@link PathKeys#validateKey}). */
    public int validateKey() {
        return PathKeys.validateKey(buf, off, len);
    }

    /** Frame-context check (see {@link PathKeys#validateFrame}). */
    public int validateFrame() {
        return PathKeys.validateFrame(buf, off, len);
    }

    /** Number of records, or -PATH_INVALID when they do not tile the body. */
    public int recordCount() {
        return PathKeys.recordCount(buf, off, len);
    }

    /**
     * Offset of the first record, or -1 for the root or when the first record overruns the body.
     */
    public int first() {
        return fits(off) ? off : -1;
    }

    /**
     * Offset of the record after {@code record}, or -1 at the end or when the next one overruns the
     * body.
     */
    public int next(int record) {
        final int n = buf[record] & 0xFF;
        final int p = record + (n != 0 ? 1 + n : 3 + (buf[record + 2] & 0xFF));
        return fits(p) ? p : -1;
    }

    private boolean fits(int p) {
        final int end = off + len;
        if (p >= end) {
            return false;
        }
        final int n = buf[p] & 0xFF;
        if (n != 0) {
            return end - p - 1 >= n;
        }
        return end - p >= 3 && end - p - 3 >= (buf[p + 2] & 0xFF);
    }

    /** True when the record is an escape ({@code 00 kind n bytes}), not a named segment. */
    public boolean isEscape(int record) {
        return buf[record] == 0;
    }

    /** Offset of a named segment's bytes. */
    public int segmentOffset(int record) {
        return record + 1;
    }

    /** Length of a named segment (0 for an escape). */
    public int segmentLength(int record) {
        return buf[record] & 0xFF;
    }

    /** True when the record is a named segment whose bytes equal {@code s}. */
    public boolean segmentEquals(int record, byte[] s) {
        return !isEscape(record) && Bytes.equals(buf, record + 1, buf[record] & 0xFF, s, 0, s.length);
    }

    /** The escape kind of an escape record ({@link PathKeys#ESCAPE_KIND_LABEL} for a label). */
    public int escapeKind(int record) {
        return buf[record + 1] & 0xFF;
    }

    /** Bytes an escape record carries after its 3-byte head. */
    public int escapeLength(int record) {
        return buf[record + 2] & 0xFF;
    }

    /**
     * True for a well-formed label escape: kind {@link PathKeys#ESCAPE_KIND_LABEL} with exactly
     * {@link PathKeys#LABEL_BYTES} bytes.
     */
    public boolean isLabel(int record) {
        return isEscape(record) && escapeKind(record) == PathKeys.ESCAPE_KIND_LABEL
                && escapeLength(record) == PathKeys.LABEL_BYTES;
    }

    /** Label index: bits 0-15 of the label's u32. */
    public int labelIndex(int record) {
        return Bytes.u16(buf, record + 3);
    }

    /** Label generation: bits 16-31 of the label's u32 (0 = none). */
    public int labelGeneration(int record) {
        return Bytes.u16(buf, record + 5);
    }

    /** True when the body equals {@code b[bOff, bOff+bLen)} byte for byte. */
    public boolean bodyEquals(byte[] b, int bOff, int bLen) {
        return Bytes.equals(buf, off, len, b, bOff, bLen);
    }

    /** True when this path is {@code other} or one of its ancestors. */
    public boolean isAncestorOrSelfOf(PathView other) {
        return PathKeys.isAncestorOrSelf(buf, off, len, other.buf, other.off, other.len);
    }

    /**
     * The path as text for diagnostics ({@code /sensor/temp}; labels as {@code /~label(1,2)}, other
     * escapes as {@code /~esc(0x17)}; a ragged tail as {@code /~ragged}). Allocates: keep it off hot
     * paths.
     */
    public String toText() {
        return appendText(new StringBuilder()).toString();
    }

    /**
     * Appends the {@link #toText()} form to {@code sb} and returns it; allocates only as {@code sb}
     * grows.
     */
    public StringBuilder appendText(StringBuilder sb) {
        if (len == 0) {
            return sb.append('/');
        }
        int covered = off;
        for (int r = first(); r >= 0; r = next(r)) {
            sb.append('/');
            if (!isEscape(r)) {
                Utf8.appendTo(sb, buf, r + 1, segmentLength(r));
            } else if (isLabel(r)) {
                sb.append("~label(").append(labelIndex(r)).append(',').append(labelGeneration(r)).append(')');
            } else {
                sb.append("~esc(0x").append(Integer.toHexString(escapeKind(r))).append(')');
            }
            covered = r + (isEscape(r) ? 3 + escapeLength(r) : 1 + segmentLength(r));
        }
        if (covered != off + len) {
            sb.append("/~ragged");
        }
        return sb;
    }
}
