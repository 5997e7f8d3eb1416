package io.spectrum.wide.link;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** A pool holds what it was sized for, whatever sizes of frame passed through it. */
class FramePoolTest {
    @Test
    void aFrameThatGrewForOneLargeDatagramComesBackAtThePoolsSize() {
        FramePool pool = new FramePool("test frames", 8, 2048);
        assertEquals(8L * 2048, pool.freeBytes());
        byte[] big = new byte[65_507]; // the largest UDP datagram
        for (int round = 0; round < 3; round++) {
            Frame[] out = new Frame[8];
            for (int i = 0; i < out.length; i++) {
                out[i] = pool.take();
                assertNotNull(out[i]);
                out[i].copyIn(big, 0, big.length);
                assertEquals(big.length, out[i].len);
            }
            for (Frame f : out) {
                pool.give(f);
            }
            assertEquals(8L * 2048, pool.freeBytes(), "after round " + round + ": no frame keeps 64 KiB");
        }
        Frame common = pool.take();
        common.copyIn(new byte[FramePool.KEEP_BYTES], 0, FramePool.KEEP_BYTES); // grows once, up to the kept size
        byte[] kept = common.buf;
        pool.give(common);
        Frame again = pool.take();
        for (int i = 0; i < 7 && again.buf != kept; i++) {
            pool.give(again);
            again = pool.take();
        }
        assertEquals(kept, again.buf, "a frame grown up to the kept size keeps its buffer: steady traffic allocates nothing");
    }
}
