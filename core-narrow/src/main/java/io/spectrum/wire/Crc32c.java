package io.spectrum.wire;

/**
 * CRC-32C (Castagnoli, reflected, init and xor-out 0xFFFFFFFF). Table-driven because the NARROW core
 * may not use {@code java.util.zip}.
 */
public final class Crc32c {
    private static final int[] TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
            }
            TABLE[i] = c;
        }
    }

    private Crc32c() {
    }

    /** Starting register value for {@link #update}. */
    public static int init() {
        return 0xFFFFFFFF;
    }

    /**
     * Folds {@code buf[off, off+len)} into the running register {@code crc} and returns it; pass
     * the result to {@link #finish} to get the checksum. Allocation-free.
     */
    public static int update(int crc, byte[] buf, int off, int len) {
        final int[] t = TABLE;
        for (int i = off, end = off + len; i < end; i++) {
            crc = t[(crc ^ buf[i]) & 0xFF] ^ (crc >>> 8);
        }
        return crc;
    }

    /**
     * The checksum of a register built by {@link #init} and {@link #update} (the final xor-out).
     */
    public static int finish(int crc) {
        return ~crc;
    }

    /** CRC-32C of one range. */
    public static int compute(byte[] buf, int off, int len) {
        return finish(update(init(), buf, off, len));
    }
}
