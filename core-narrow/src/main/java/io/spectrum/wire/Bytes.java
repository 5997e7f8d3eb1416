package io.spectrum.wire;

/** Little-endian reads and writes over byte arrays. */
public final class Bytes {
    private Bytes() {
    }

    /** Unsigned byte at {@code b[off]}, 0..255. */
    public static int u8(byte[] b, int off) {
        return b[off] & 0xFF;
    }

    /** Unsigned little-endian 16-bit value at {@code b[off]}, 0..65535. */
    public static int u16(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8;
    }

    /**
     * Little-endian 32-bit value at {@code b[off]}, signed (use {@link #u32} for the unsigned
     * reading).
     */
    public static int i32(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8 | (b[off + 2] & 0xFF) << 16 | (b[off + 3] & 0xFF) << 24;
    }

    /** Unsigned little-endian 32-bit value at {@code b[off]}, 0..2^32-1 in a long. */
    public static long u32(byte[] b, int off) {
        return i32(b, off) & 0xFFFFFFFFL;
    }

    /**
     * Little-endian 64-bit value at {@code b[off]} (two's complement; a u64 reads as its bit
     * pattern).
     */
    public static long i64(byte[] b, int off) {
        return (i32(b, off) & 0xFFFFFFFFL) | ((long) i32(b, off + 4)) << 32;
    }

    /** Unsigned little-endian integer of 1..8 bytes (a VALUE's variable width). */
    public static long uLe(byte[] b, int off, int len) {
        long v = 0;
        for (int i = len - 1; i >= 0; i--) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    /** Writes the low 16 bits of {@code v} little-endian at {@code b[off]}. */
    public static void put16(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
    }

    /** Writes {@code v} little-endian at {@code b[off, off+4)}. */
    public static void put32(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

    /** Writes {@code v} little-endian at {@code b[off, off+8)}. */
    public static void put64(byte[] b, int off, long v) {
        put32(b, off, (int) v);
        put32(b, off + 4, (int) (v >>> 32));
    }

    /** Little-endian write of the low {@code len} bytes of {@code v}. */
    public static void putLe(byte[] b, int off, long v, int len) {
        for (int i = 0; i < len; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }

    /**
     * True when the two ranges have the same length and bytes (an unsigned, allocation-free
     * compare).
     */
    public static boolean equals(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
        if (aLen != bLen) {
            return false;
        }
        for (int i = 0; i < aLen; i++) {
            if (a[aOff + i] != b[bOff + i]) {
                return false;
            }
        }
        return true;
    }
}
