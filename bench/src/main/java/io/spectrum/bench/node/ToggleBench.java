package io.spectrum.bench.node;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * RFC-0035 toggle (suspend then resume of one edge) and unsubscribe + resubscribe, with N
 * subscribers on one vertex. The toggle should be flat in N: one bit of the slot's word plus the
 * vertex's delivering counts. (libtracer #2045: toggle ~46-52 ns flat; unsubscribe + re-subscribe
 * 187 / 212 / 349 / 5,244 ns at N = 1 / 8 / 32 / 1,024.)
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ToggleBench {
    /** Subscribers on the vertex. */
    @Param({"1", "8", "32", "1024", "4096"})
    public int n;

    private NarrowNode node;
    private Subscription middle;
    private Subscription last;
    private final NodePath path = NodePath.of("/bench/toggle");
    private final NodeBenchSupport.Counter counter = new NodeBenchSupport.Counter();

    /** A node with {@link #n} in-process subscriptions on the vertex. */
    @Setup
    public void setup() {
        node = NodeBenchSupport.node(n);
        Subscription s = null;
        for (int i = 0; i < n; i++) {
            s = node.subscribe(path, 0, counter);
            if (i == n / 2) {
                middle = s;
            }
        }
        last = s;
    }

    /** suspend + resume of the middle edge: one pair of toggles per op. */
    @Benchmark
    public int suspendResume() {
        return middle.suspend() + middle.resume();
    }

    /** close the last edge, then subscribe again at the same N (the handle is a new object). */
    @Benchmark
    public int unsubscribeResubscribe() {
        int r = last.close();
        last = node.subscribe(path, 0, counter);
        return r + last.index();
    }
}
