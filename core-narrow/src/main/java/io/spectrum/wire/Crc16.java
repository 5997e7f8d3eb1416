package io.spectrum.wire;

/** CRC-16-CCITT "FALSE" (poly 0x1021, not reflected, init 0xFFFF, no xor-out). */
public final class Crc16 {
    private static final char[] TABLE = new char[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i << 8;
            for (int k = 0; k < 8; k++) {
                c = (c & 0x8000) != 0 ? (c << 1) ^ 0x1021 : c << 1;
            }
            TABLE[i] = (char) c;
        }
    }

    private Crc16() {
    }

    /** Starting register value for {@link #update}: 0xFFFF. */
    public static int init() {
        return 0xFFFF;
    }

    /**
     * Folds {@code buf[off, off+len)} into {@code crc} and returns the new 16-bit register (no
     * final xor is needed for this variant). Allocation-free.
     */
    public static int update(int crc, byte[] buf, int off, int len) {
        final char[] t = TABLE;
        for (int i = off, end = off + len; i < end; i++) {
            crc = ((crc << 8) ^ t[((crc >>> 8) ^ buf[i]) & 0xFF]) & 0xFFFF;
        }
        return crc;
    }

    /** CRC-16-CCITT of one range, in the low 16 bits of the result. */
    public static int compute(byte[] buf, int off, int len) {
        return update(init(), buf, off, len);
    }
}
