package io.spectrum.bench.wide;

import io.spectrum.node.api.NodePath;
import io.spectrum.wide.WideNode;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * 100,000 vertices on the WIDE node, two ways, each figure per vertex:
 * {@code build}: a fresh node, then create (mkdir -p, 100 parents of 1,000 leaves) + write + read
 * of every vertex; {@code writeRead}: a write and a read of every vertex of a node that already has
 * them.
 * Run: {@code java -jar bench/target/benchmarks.jar WideVerticesBench -f 1 -wi 3 -w 1s -i 5 -r 1s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WideVerticesBench {
    static final int VERTICES = 100_000;
    private final NodePath[] paths = new NodePath[VERTICES];
    private final byte[] value = {1, 0, 4, 0, (byte) 0xD2, 4, 0, 0};
    private final byte[] out = new byte[16];
    private WideNode built;

    /** The vertex paths, and a node that already holds every vertex. */
    @Setup(Level.Trial)
    public void setup() {
        for (int i = 0; i < VERTICES; i++) {
            paths[i] = NodePath.of("/board" + (i / 1000) + "/v" + (i % 1000));
        }
        built = new WideNode(WideNode.hostConfig().build());
        build(built);
    }

    private long build(WideNode node) {
        long sum = 0;
        for (NodePath p : paths) {
            node.write(p, value, 0, value.length);
            sum += node.read(p, out, 0, out.length);
        }
        return sum;
    }

    /** A fresh node, then create + write + read of every vertex; returns a sum of the read lengths. */
    @Benchmark
    @OperationsPerInvocation(VERTICES)
    public long build() {
        return build(new WideNode(WideNode.hostConfig().build()));
    }

    /** A write and a read of every vertex of the built node; returns a sum of the read lengths. */
    @Benchmark
    @OperationsPerInvocation(VERTICES)
    public long writeRead() {
        return build(built);
    }
}
