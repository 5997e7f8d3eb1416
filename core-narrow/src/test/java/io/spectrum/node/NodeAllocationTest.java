package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The node allocates nothing in steady state: ≥ 1,000,000 mixed operations (writes with fan-out,
 * reads, toggles, wire subscribe / toggle / clear, remote READ / WRITE / AWAIT, list reads, ticks)
 * measured with the thread's allocated-bytes counter after a warm-up. Tagged "alloc" so Surefire
 * reruns it with -XX:-DoEscapeAnalysis.
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
        long before = allocated();
        sink += w.run(rounds);
        long bytes = allocated() - before;
        long ops = rounds * MixedWorkload.OPS_PER_ROUND;
        System.out.println("node mixed ops=" + ops + " allocated bytes=" + bytes + " frames sent=" + (w.link.sendCalls - sendsBefore));
        assertTrue(ops >= 1_000_000);
        // the work really happened: every round sends replies and deliveries, callbacks ran
        assertTrue(w.link.sendCalls - sendsBefore >= rounds * 10, "frames sent " + (w.link.sendCalls - sendsBefore));
        assertTrue(w.delivered - deliveredBefore >= rounds * 3 * 8);
        assertEquals(0, bytes, "bytes allocated over " + ops + " operations");
    }
}
