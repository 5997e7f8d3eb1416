package io.spectrum.wire;

/** Little-endian reads and writes over byte arrays. */
public final class Bytes {
    private Bytes() {
    }

    public static int u8(byte[] b, int off) {
        return b[off] & 0xFF;
    }

    public static int u16(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8;
    }

    public static int i32(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8 | (b[off + 2] & 0xFF) << 16 | (b[off + 3] & 0xFF) << 24;
    }

    public static long u32(byte[] b, int off) {
        return i32(b, off) & 0xFFFFFFFFL;
    }

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

    public static void put16(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
    }

    public static void put32(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

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
