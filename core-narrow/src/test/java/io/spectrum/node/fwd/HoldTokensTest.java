package io.spectrum.node.fwd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Holder tokens are SipHash-2-4 under the node's key: the reference vector, and tokens are positive and distinct. */
class HoldTokensTest {
    @Test
    void sipHashReferenceVector_andTokensArePositiveAndFresh() {
        HoldTokens t = new HoldTokens();
        // SipHash-2-4 paper, key 00..0f: the 8-byte message 00..07 hashes to 0x93f5f5799a932462
        t.seed(0x0706050403020100L, 0x0f0e0d0c0b0a0908L);
        HoldTokens u = new HoldTokens();
        u.seed(0x0706050403020100L, 0x0f0e0d0c0b0a0908L);
        long a = t.next();
        long b = t.next();
        assertTrue(a > 0 && b > 0);
        assertNotEquals(a, b);
        assertEquals(a, u.next(), "same key, same sequence");
        HoldTokens v = new HoldTokens();
        v.seed(1, 2);
        assertNotEquals(a, v.next(), "another key, other tokens");
        assertEquals(0x93f5f5799a932462L, t.hashForTest(0x0706050403020100L));
    }
}
