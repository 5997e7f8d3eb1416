package io.spectrum.bench.wide;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.node.api.VertexValue;
import io.spectrum.wide.WideNode;
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
 * One local write delivered to N in-process subscribers of one vertex (assign + propagate), on the
 * WIDE node and, for comparison in the same run, the NARROW node sized for N. The target:
 * fan-out to 10,000 subscribers. Run:
 * {@code java -jar bench/target/benchmarks.jar WideFanoutBench -f 1 -wi 3 -w 1s -i 5 -r 1s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WideFanoutBench {
    /** Subscribers on the written vertex. */
    @Param({"1024", "10000"})
    public int n;

    /** Which core: {@code wide} or {@code narrow}. */
    @Param({"wide", "narrow"})
    public String core;

    private Node node;
    private final NodePath path = NodePath.of("/bench/fanout");
    private final Counter counter = new Counter();
    private final byte[] value = {1, 0, 4, 0, (byte) 0xD2, 4, 0, 0};

    /** The chosen node with {@link #n} in-process subscriptions on the vertex. */
    @Setup
    public void setup() {
        NodeConfig.Builder b = "wide".equals(core) ? WideNode.hostConfig() : NodeConfig.builder().maxSubscribers(n + 16).recordBytes(4096);
        node = "wide".equals(core) ? new WideNode(b.build()) : new NarrowNode(b.build());
        for (int i = 0; i < n; i++) {
            node.subscribe(path, 0, counter);
        }
    }

    /** One local write delivered to every subscriber; returns the delivered count so the work cannot be elided. */
    @Benchmark
    public long write() {
        node.write(path, value, 0, value.length);
        return counter.n;
    }

    /** Counts delivered bytes; read by the benchmark so the work cannot be elided. */
    static final class Counter implements ValueListener {
        long n;

        @Override
        public void onValue(Subscription s, VertexValue v, long seq, boolean stale) {
            n += v.length();
        }
    }
}
