package io.spectrum.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PeerHandlesTest {
    @Test
    void handlesNeverRunOut_andAReusedHandleComesWithAGenerationItsOldHolderNeverMatches() {
        PeerHandles h = new PeerHandles(64);
        int firstHandle = h.take();
        long firstGen = h.generation(firstHandle);
        h.free(firstHandle);
        for (int i = 0; i < 200_000; i++) { // far past capacity, and past 65 536 lifetime handles
            int p = h.take();
            assertTrue(p >= 0 && p < 64, "cycle " + i + " got " + p);
            h.free(p);
        }
        int next = h.take();
        assertTrue(next >= 0, "a new holder is admitted after 200 000 cycles");
        assertEquals(0, h.inUse() - 1);
        int again = next;
        while (again != firstHandle) { // walk to the first handle's next holder
            again = h.take();
        }
        assertTrue(h.generation(firstHandle) > firstGen);
        assertFalse(h.matches(firstHandle, firstGen), "the first holder's pair does not match its successor");
        assertTrue(h.matches(firstHandle, h.generation(firstHandle)));
    }

    @Test
    void aFreedHandleIsTakenAgainOnlyAfterEveryOtherFreeHandle() {
        PeerHandles h = new PeerHandles(4);
        int[] got = {h.take(), h.take(), h.take(), h.take()};
        assertEquals(-1, h.take(), "every handle held: refused, nothing changes");
        assertEquals(4, h.inUse());
        h.free(got[2]);
        h.free(got[0]);
        h.free(got[0]); // a second free of the same handle changes nothing
        assertEquals(2, h.inUse());
        assertEquals(got[2], h.take());
        assertEquals(got[0], h.take());
        assertEquals(-1, h.take());
        assertNotEquals(1, h.generation(got[2]));
        assertEquals(1, h.generation(got[1]));
    }
}
