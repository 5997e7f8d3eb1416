package io.spectrum.bench.wide;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.node.api.VertexValue;
import io.spectrum.wide.WideNode;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;

/**
 * The host-scale figures on the WIDE node, in one run: 100,000 vertices (create + write, write, read,
 * subscribe one edge per vertex, write delivering to that edge, unsubscribe: ns per operation and
 * operations per second, best of {@code rounds} passes, one thread), and the heap they take,
 * measured: used heap ({@link MemoryMXBean}) after {@code System.gc()} (a full collection, repeated
 * until it stops falling) before and after building them, divided by the count. Bytes per vertex
 * (8-byte value, paths {@code /board<k>/v<j>}, 100 parents of 1,000 leaves), per edge when the
 * edges spread one per vertex, and per edge when 100,000 edges share one vertex (the fan-out case).
 * The caller's NodePath objects and the array holding the handles are allocated before the first
 * reading, so they are not counted.
 *
 * <p>Run: {@code java -Xmx1g -cp bench/target/benchmarks.jar io.spectrum.bench.wide.WideScale [vertices=100000] [rounds=3]}
 */
public final class WideScale {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final byte[] VALUE = {1, 0, 4, 0, (byte) 0xD2, 4, 0, 0};
    private static final ValueListener SINK = new ValueListener() {
        @Override
        public void onValue(Subscription s, VertexValue v, long seq, boolean stale) {
            delivered++;
        }
    };
    static long delivered;

    private WideScale() {
    }

    /** Used heap after full collections, the lowest of a few readings. */
    static long usedHeap() {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 6; i++) {
            System.gc();
            best = Math.min(best, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return best;
    }

    static NodePath[] paths(int n) {
        NodePath[] p = new NodePath[n];
        for (int i = 0; i < n; i++) {
            p[i] = NodePath.of("/board" + (i / 1000) + "/v" + (i % 1000));
        }
        return p;
    }

    interface Pass {
        void run(WideNode node, NodePath[] paths, Subscription[] handles);
    }

    /** Runs {@code pass} {@code rounds} times on fresh state from {@code setup}; prints the best ns/op. */
    static void time(String what, int rounds, NodePath[] paths, Pass setup, Pass pass) {
        long best = Long.MAX_VALUE;
        Subscription[] handles = new Subscription[paths.length];
        for (int r = 0; r < rounds; r++) {
            WideNode node = new WideNode(WideNode.hostConfig().build());
            setup.run(node, paths, handles);
            long t0 = System.nanoTime();
            pass.run(node, paths, handles);
            best = Math.min(best, System.nanoTime() - t0);
            node.close();
        }
        double ns = (double) best / paths.length;
        System.out.printf(Locale.ROOT, "  %-44s %8.0f ns/op %,12.0f ops/s%n", what, ns, 1e9 / ns);
    }

    static void writeAll(WideNode node, NodePath[] paths, Subscription[] h) {
        for (NodePath p : paths) {
            node.write(p, VALUE, 0, VALUE.length);
        }
    }

    static void subscribeAll(WideNode node, NodePath[] paths, Subscription[] h) {
        for (int i = 0; i < paths.length; i++) {
            h[i] = node.subscribe(paths[i], 0, SINK);
        }
    }

    /**
     * Prints ns per operation and bytes per vertex and per edge; arguments {@code key=value}: {@code vertices}
     * (100000), {@code rounds} (3).
     */
    public static void main(String[] args) {
        int n = Integer.parseInt(arg(args, "vertices", "100000"));
        int rounds = Integer.parseInt(arg(args, "rounds", "3"));
        NodePath[] paths = paths(n);
        byte[] out = new byte[16];
        Pass none = (node, p, h) -> { };
        System.out.printf(Locale.ROOT, "WideScale: %,d vertices (%d parents), best of %d passes, one thread%n", n, (n + 999) / 1000, rounds);
        time("create + write (fresh node)", rounds, paths, none, WideScale::writeAll);
        time("write (existing vertex)", rounds, paths, WideScale::writeAll, WideScale::writeAll);
        time("read", rounds, paths, WideScale::writeAll, (node, p, h) -> {
            for (NodePath x : p) {
                node.read(x, out, 0, out.length);
            }
        });
        time("subscribe (one edge per vertex)", rounds, paths, WideScale::writeAll, WideScale::subscribeAll);
        time("write delivering to its one edge", rounds, paths, (node, p, h) -> {
            writeAll(node, p, h);
            subscribeAll(node, p, h);
        }, WideScale::writeAll);
        time("unsubscribe (close the edge)", rounds, paths, (node, p, h) -> {
            writeAll(node, p, h);
            subscribeAll(node, p, h);
        }, (node, p, h) -> {
            for (Subscription s : h) {
                s.close();
            }
        });

        Subscription[] handles = new Subscription[n];
        NodePath one = NodePath.of("/bench/fanout");
        WideNode fan = new WideNode(WideNode.hostConfig().build());
        fan.subscribe(one, 0, SINK).close(); // the vertex exists before the reading
        long base = usedHeap();
        for (int i = 0; i < n; i++) {
            handles[i] = fan.subscribe(one, 0, SINK);
        }
        long withFanout = usedHeap();
        if (fan.listenerCount(one) != n) {
            throw new IllegalStateException("expected " + n + " edges, found " + fan.listenerCount(one));
        }
        fan.close();
        java.util.Arrays.fill(handles, null);

        WideNode node = new WideNode(WideNode.hostConfig().build());
        long empty = usedHeap();
        writeAll(node, paths, handles);
        long withVertices = usedHeap();
        subscribeAll(node, paths, handles);
        long withSpread = usedHeap();
        System.out.printf(Locale.ROOT, "  heap: %,d bytes per vertex (8-byte value), %,d bytes per edge with %,d edges on one vertex, "
                        + "%,d bytes per edge spread one per vertex (GC + MemoryMXBean; %,d vertices take %.1f MiB)%n",
                (withVertices - empty) / n, (withFanout - base) / n, n, (withSpread - withVertices) / n, n,
                (withVertices - empty) / 1048576.0);
        if (node.listenerCount(paths[0]) != 1) {
            throw new IllegalStateException("expected one edge on " + paths[0]);
        }
    }

    static String arg(String[] args, String key, String def) {
        for (String a : args) {
            if (a.startsWith(key + "=")) {
                return a.substring(key.length() + 1);
            }
        }
        return def;
    }
}
