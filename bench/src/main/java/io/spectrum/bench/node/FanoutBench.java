package io.spectrum.bench.node;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodePath;
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
 * A local write delivered to N in-process subscribers of the vertex (assign + propagate). libtracer
 * C++: fan-out notify 1 / 8 / 64 / 1024 ≈ 101 ns / 227 ns / 1.0 µs / 14.5 µs; in-process fan 1024
 * ≈ 7.3 µs (libtracer #2045, a public libtracer issue).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FanoutBench {
    /** Subscribers on the written vertex. */
    @Param({"1", "8", "64", "1024"})
    public int n;

    private NarrowNode node;
    private final NodePath path = NodePath.of("/bench/fanout");
    private final NodeBenchSupport.Counter counter = new NodeBenchSupport.Counter();
    private final byte[] value = {1, 0, 4, 0, (byte) 0xD2, 4, 0, 0};

    /** A node with {@link #n} in-process subscriptions on the vertex. */
    @Setup
    public void setup() {
        node = NodeBenchSupport.node(n);
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
}
