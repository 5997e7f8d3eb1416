package io.spectrum.bench.host;

import io.spectrum.bench.link.RingLink;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Subscribed;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.node.api.VertexValue;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.Locale;

/**
 * Fan-out of one vertex to N subscribers (default 10,000), one thread, per core:
 * <ul>
 *   <li>{@code local}: N in-process subscriptions ({@code Node.subscribe}); a write is assign +
 *       N listener calls.</li>
 *   <li>{@code remote}: N SUBSCRIBER records appended through the client module's
 *       {@link PeerClient} from one peer over a {@link RingLink} (routes {@code /s/<i>}); a write
 *       renders and sends N FWD WRITE frames, and the peer's end decodes them (FrameDecoder +
 *       FwdView). Node figure = the write call (render + copy into the link); end-to-end adds the
 *       decoding at the peer.</li>
 * </ul>
 * Run: {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.host.FanoutScale [subscribers=10000]
 * [seconds=3] [rounds=3] [core=narrow,wide]}
 */
public final class FanoutScale {
    static final NodePath VERTEX = NodePath.of("/bench/fanout");
    private static final byte[] VALUE = {1, 0, 4, 0, (byte) 0xD2, 4, 0, 0};

    private FanoutScale() {
    }

    static NodeConfig config(HostCore core, int n) {
        NodeConfig.Builder b = core == HostCore.WIDE ? WideNode.hostConfig()
                : NodeConfig.builder().maxSubscribers(n + 16).recordBytes(n * 48 + 4096).slotsPerPeer(n + 16);
        return b.peerDeliveriesPerSecond(0).remoteWritesToUndeclared(true).build();
    }

    /** Counts listener calls. */
    static final class Count implements ValueListener {
        long n;

        @Override
        public void onValue(Subscription s, VertexValue v, long seq, boolean stale) {
            n++;
        }
    }

    /** In-process edges; returns deliveries per second of the best round and prints each. */
    static double local(HostCore core, int n, double seconds, int rounds) {
        try (Node node = core.newNode(config(core, n))) {
            Count count = new Count();
            for (int i = 0; i < n; i++) {
                Subscription s = node.subscribe(VERTEX, 0, count);
                if (s.error() != WireError.OK) {
                    throw new IllegalStateException("subscribe " + i + ": " + WireError.identity(s.error()));
                }
            }
            return rounds(core + " local", rounds, seconds, () -> {
                node.write(VERTEX, VALUE, 0, VALUE.length);
                return count.n;
            }, null);
        }
    }

    /**
     * Remote edges from one peer over a RingLink; prints node-side and end-to-end figures and returns
     * the best end-to-end deliveries per second (0 when the core serves no links).
     */
    static double remote(HostCore core, int n, double seconds, int rounds) {
        RingLink[] pair = RingLink.pair(1, 2, n + 64, 512);
        try (Node node = core.newNode(config(core, n))) {
            int rc = node.attach(pair[0]);
            if (rc != WireError.OK) {
                throw new IllegalStateException("attach: " + WireError.identity(rc));
            }
            node.write(VERTEX, VALUE, 0, VALUE.length); // a remote subscribe needs the vertex to exist
            PeerClient client = new PeerClient(pair[1], 0, Duration.ofSeconds(5));
            client.onPump(node::poll);
            for (int i = 0; i < n; i++) {
                Subscribed s = client.subscribe(VERTEX.toString(), "/s/" + i, -1, false);
                if (!s.ok()) {
                    throw new IllegalStateException("remote subscribe " + i + ": " + WireError.identity(s.code()));
                }
            }
            SpectrumSide.Counter frames = new SpectrumSide.Counter(io.spectrum.wire.FwdView.OP_WRITE);
            long[] nodeNanos = new long[1];
            return rounds(core + " remote", rounds, seconds, () -> {
                long t = System.nanoTime();
                node.write(VERTEX, VALUE, 0, VALUE.length);
                nodeNanos[0] += System.nanoTime() - t;
                while (pair[1].poll(frames, 4096) > 0) {
                    // drain what the write sent
                }
                return frames.counted;
            }, nodeNanos);
        }
    }

    interface Write {
        long once();
    }

    private static double rounds(String what, int rounds, double seconds, Write write, long[] nodeNanos) {
        double best = 0;
        for (int r = 0; r <= rounds; r++) {
            long d0 = write.once();
            long n0 = nodeNanos == null ? 0 : nodeNanos[0];
            long t0 = System.nanoTime();
            long end = t0 + (long) (seconds * 1e9);
            long writes = 0;
            long d = d0;
            while (System.nanoTime() - end < 0) {
                d = write.once();
                writes++;
            }
            long t = System.nanoTime() - t0;
            double perSecond = (d - d0) * 1e9 / t;
            String node = nodeNanos == null ? "" : String.format(Locale.ROOT, "; node %5.1f ns per delivery (%,.0f/s)",
                    (double) (nodeNanos[0] - n0) / (d - d0), (d - d0) * 1e9 / (nodeNanos[0] - n0));
            System.out.printf(Locale.ROOT, "  %-14s round %d: %,6d writes, %,13.0f deliveries/s end to end, %6.1f ns per delivery%s%s%n",
                    what, r, writes, perSecond, (double) t / (d - d0), node, r == 0 ? "  (warm-up)" : "");
            if (r > 0) {
                best = Math.max(best, perSecond);
            }
        }
        return best;
    }

    /** Runs the local and remote fan-out per core and prints ns per delivery; arguments as in the class comment. */
    public static void main(String[] args) {
        int n = HostVsMosquitto.intArg(args, "subscribers", 10_000);
        double seconds = Double.parseDouble(HostVsMosquitto.arg(args, "seconds", "3"));
        int rounds = HostVsMosquitto.intArg(args, "rounds", 3);
        System.out.printf(Locale.ROOT, "FanoutScale: one vertex, %,d subscribers, %d rounds of %.1f s, one thread%n", n, rounds, seconds);
        for (String c : HostVsMosquitto.arg(args, "core", "narrow,wide").split(",")) {
            HostCore core = HostCore.parse(c);
            local(core, n, seconds, rounds);
            remote(core, n, seconds, rounds);
        }
    }
}
