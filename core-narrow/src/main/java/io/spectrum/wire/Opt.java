package io.spectrum.wire;

/** The bits of a frame header's {@code opt} byte ({@code R PL TS CR LL CW TF R}, bit 7 to bit 0). */
public final class Opt {
    /** Reserved bits 7 and 0: a hard reject, never masked. */
    public static final int RESERVED = 0x81;
    /** Payload is concatenated child TLVs. */
    public static final int PL = 0x40;
    /** A timestamp trailer is present. */
    public static final int TS = 0x20;
    /** A CRC trailer is present. */
    public static final int CR = 0x10;
    /** The length field is u32 instead of u16. */
    public static final int LL = 0x08;
    /** The CRC is CRC-16-CCITT instead of CRC-32C (meaningful with CR). */
    public static final int CW = 0x04;
    /** The timestamp is relative i32 ns instead of absolute u64 ns (meaningful with TS). */
    public static final int TF = 0x02;

    private Opt() {
    }

    /** Header bytes for this opt byte: 6 with {@link #LL}, else 4. */
    public static int headerSize(int opt) {
        return (opt & LL) != 0 ? 6 : 4;
    }

    /**
     * Timestamp-trailer bytes for this opt byte: 0 without {@link #TS}, 4 relative ({@link #TF}), 8
     * absolute.
     */
    public static int tsSize(int opt) {
        return (opt & TS) == 0 ? 0 : ((opt & TF) != 0 ? 4 : 8);
    }

    /**
     * CRC-trailer bytes for this opt byte: 0 without {@link #CR}, 2 for CRC-16 ({@link #CW}), 4 for
     * CRC-32C.
     */
    public static int crcSize(int opt) {
        return (opt & CR) == 0 ? 0 : ((opt & CW) != 0 ? 2 : 4);
    }

    /** The payload length in the header at {@code b[off]} (u16, or u32 with {@link #LL}). */
    public static long bodyLength(byte[] b, int off) {
        return (b[off + 1] & LL) != 0 ? Bytes.u32(b, off + 2) : Bytes.u16(b, off + 2);
    }

    /**
     * Header + payload length of the one TLV at {@code b[off, off+len)} (its trailers excluded), or
     * -1 when the bytes are not exactly one TLV (type 0, reserved opt bits, or a length that does
     * not add up with the trailers the opt byte announces).
     */
    public static int untrailedLength(byte[] b, int off, int len) {
        if (len < 4 || (b[off] & 0xFF) == 0) {
            return -1;
        }
        int opt = b[off + 1] & 0xFF;
        if ((opt & RESERVED) != 0) {
            return -1;
        }
        int h = headerSize(opt);
        if (len < h) {
            return -1;
        }
        long bl = bodyLength(b, off);
        if (h + bl + tsSize(opt) + crcSize(opt) != len) {
            return -1;
        }
        return (int) (h + bl);
    }
}
