package io.spectrum.bench.node;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodePath;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * 1:1 write -> delivery: one writer, one subscriber callback (libtracer: 120 ns p50). Sampled, so
 * the report carries percentiles; plus an unobserved write and a read for scale.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WriteDeliveryBench {
    private NarrowNode node;
    private final NodePath observed = NodePath.of("/bench/one");
    private final NodePath unobserved = NodePath.of("/bench/none");
    private final NodeBenchSupport.Counter counter = new NodeBenchSupport.Counter();
    private final byte[] value = {1, 0, 4, 0, (byte) 0xD2, 4, 0, 0};
    private final byte[] out = new byte[64];

    /** A node with one subscriber on the observed vertex and a value on the unobserved one. */
    @Setup
    public void setup() {
        node = NodeBenchSupport.node(1);
        node.subscribe(observed, 0, counter);
        node.write(unobserved, value, 0, value.length);
    }

    /** One write delivered to one subscriber, sampled for percentiles; returns the delivered count. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    public long writeToOneSubscriber() {
        node.write(observed, value, 0, value.length);
        return counter.n;
    }

    /** A write nobody observes; returns the node's status. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    public int unobservedWrite() {
        return node.write(unobserved, value, 0, value.length);
    }

    /** A read of the value; returns its length (or a negated error). */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    public int read() {
        return node.read(unobserved, out, 0, out.length);
    }
}
