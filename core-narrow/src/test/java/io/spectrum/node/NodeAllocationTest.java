package io.spectrum.node;

import io.spectrum.testing.SteadyStateAllocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    static long sink;


    @Test
    void millionMixedOperationsAllocateNothing() {
        MixedWorkload w = new MixedWorkload();
        long rounds = 1_000_000 / MixedWorkload.OPS_PER_ROUND + 1;
        for (int i = 0; i < 3; i++) {
            sink += w.run(rounds / 2); // warm-up: class loading, JIT tiers
        }
        long sendsBefore = w.link.sendCalls();
        long deliveredBefore = w.delivered;
        long[] windows = new long[3];
        for (int m = 0; m < windows.length; m++) {
            long before = SteadyStateAllocation.allocatedBytes();
            sink += w.run(rounds);
            windows[m] = SteadyStateAllocation.allocatedBytes() - before;
        }
        long ops = rounds * MixedWorkload.OPS_PER_ROUND;
        System.out.println("node mixed ops per window=" + ops + " allocated bytes=" + java.util.Arrays.toString(windows)
                + " frames sent=" + (w.link.sendCalls() - sendsBefore));
        assertTrue(ops >= 1_000_000);
        // the work really happened: every round sends replies and deliveries, callbacks ran
        assertTrue(w.link.sendCalls() - sendsBefore >= 3 * rounds * 10, "frames sent " + (w.link.sendCalls() - sendsBefore));
        assertTrue(w.delivered - deliveredBefore >= 3 * rounds * 3 * 8);
        // the paths added by issue 11 ran inside the windows too: the per-peer delivery rate dropped
        // frames (3 deliveries a round to one peer, 1 ms a round, against 2000/s) and tick() refreshed
        // /$node/stats every simulated second
        assertTrue(w.node.deliveriesDropped() > 0, "the outbound rate limit's drop path ran");
        assertTrue(w.node.sequence(NarrowNode.STATS) >= 3 * rounds / 1000, "stats refreshed " + w.node.sequence(NarrowNode.STATS));
        SteadyStateAllocation.assertNone("node mixed operations", ops, windows);
    }
}
