package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The node allocates nothing in steady state: ≥ 1,000,000 mixed operations (writes with fan-out,
 * reads, toggles, wire subscribe / toggle / clear, remote READ / WRITE / AWAIT, list reads, ticks)
 * measured with the thread's allocated-bytes counter after a warm-up, in three windows of 1M
 * operations: at least one window must be exactly 0 and none may exceed 1 KiB (a one-off JIT
 * event, never a per-operation allocation). Tagged "alloc" so Surefire reruns it with
 * -XX:-DoEscapeAnalysis.
 */
@Tag("alloc")
class NodeAllocationTest {
    private static final com.sun.management.ThreadMXBean TMX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    static long sink;

    private static long allocated() {
        return TMX.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void millionMixedOperationsAllocateNothing() {
        MixedWorkload w = new MixedWorkload();
        long rounds = 1_000_000 / MixedWorkload.OPS_PER_ROUND + 1;
        for (int i = 0; i < 3; i++) {
            sink += w.run(rounds / 2); // warm-up: class loading, JIT tiers
        }
        long sendsBefore = w.link.sendCalls;
        long deliveredBefore = w.delivered;
        long[] windows = new long[3];
        for (int m = 0; m < windows.length; m++) {
            long before = allocated();
            sink += w.run(rounds);
            windows[m] = allocated() - before;
        }
        long ops = rounds * MixedWorkload.OPS_PER_ROUND;
        System.out.println("node mixed ops per window=" + ops + " allocated bytes=" + java.util.Arrays.toString(windows)
                + " frames sent=" + (w.link.sendCalls - sendsBefore));
        assertTrue(ops >= 1_000_000);
        // the work really happened: every round sends replies and deliveries, callbacks ran
        assertTrue(w.link.sendCalls - sendsBefore >= 3 * rounds * 10, "frames sent " + (w.link.sendCalls - sendsBefore));
        assertTrue(w.delivered - deliveredBefore >= 3 * rounds * 3 * 8);
        long min = Math.min(windows[0], Math.min(windows[1], windows[2]));
        assertEquals(0, min, "a window of " + ops + " operations allocated");
        for (long bytes : windows) {
            // a per-operation allocation of even one object would be >= 16 MB per window; a JIT
            // deoptimisation under a loaded machine can rematerialise a few objects once
            assertTrue(bytes <= 1024, "allocated " + bytes + " bytes in one window");
        }
    }
}
