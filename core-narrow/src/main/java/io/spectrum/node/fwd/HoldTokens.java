package io.spectrum.node.fwd;


/**
 * Mints holder tokens (docs/security.md, "Holders and spoofing"): 63-bit positive numbers a third
 * party cannot guess or derive from tokens it was handed itself. Each is SipHash-2-4, keyed with the
 * node's 128-bit secret, of a counter that never repeats within the process: the key is all that
 * protects them, so the process that runs the node seeds it from a strong source
 * ({@code NarrowNode#seedHoldTokens}; the runtime's node agent does); until then a key derived from
 * the clock and the heap stands in. Allocation-free.
 */
final class HoldTokens {
    private long k0;
    private long k1;
    private long counter;
    private long v0;
    private long v1;
    private long v2;
    private long v3;

    HoldTokens() {
        seed(System.nanoTime() ^ System.identityHashCode(this) * 0x9E3779B97F4A7C15L,
                System.currentTimeMillis() ^ Runtime.getRuntime().freeMemory() * 0xC2B2AE3D27D4EB4FL);
    }

    void seed(long key0, long key1) {
        k0 = key0;
        k1 = key1;
    }

    /** A fresh token: positive, never 0. */
    long next() {
        long t;
        do {
            t = sipHash(++counter) & Long.MAX_VALUE;
        } while (t == 0);
        return t;
    }

    /** The raw SipHash of one block (the reference-vector test). */
    long hashForTest(long m) {
        return sipHash(m);
    }

    /** SipHash-2-4 of one 8-byte message block (the counter, little-endian) under (k0, k1). */
    private long sipHash(long m) {
        v0 = k0 ^ 0x736f6d6570736575L;
        v1 = k1 ^ 0x646f72616e646f6dL;
        v2 = k0 ^ 0x6c7967656e657261L;
        v3 = k1 ^ 0x7465646279746573L;
        v3 ^= m;
        rounds(2);
        v0 ^= m;
        final long b = 8L << 56; // message length 8, no tail bytes
        v3 ^= b;
        rounds(2);
        v0 ^= b;
        v2 ^= 0xff;
        rounds(4);
        return v0 ^ v1 ^ v2 ^ v3;
    }

    private void rounds(int n) {
        for (int i = 0; i < n; i++) {
            v0 += v1;
            v1 = Long.rotateLeft(v1, 13) ^ v0;
            v0 = Long.rotateLeft(v0, 32);
            v2 += v3;
            v3 = Long.rotateLeft(v3, 16) ^ v2;
            v0 += v3;
            v3 = Long.rotateLeft(v3, 21) ^ v0;
            v2 += v1;
            v1 = Long.rotateLeft(v1, 17) ^ v2;
            v2 = Long.rotateLeft(v2, 32);
        }
    }
}
