package io.spectrum.bench.wide;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.LinkCounters;
import io.spectrum.link.LinkStats;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.wide.link.QueuedLink;
import io.spectrum.wide.link.QueuedLinkConfig;
import io.spectrum.wide.link.QueuedLinkStats;
import io.spectrum.wire.WireError;

import java.util.Arrays;

/**
 * One slow subscriber among 100: a node thread fans a delivery frame out to 100 peers of
 * one {@link QueuedLink} as fast as the link takes them, for a few seconds per round; the inner link is in
 * memory (a UDP peer that stops reading costs its sender nothing: the kernel drops for it, so only an inner
 * link that answers FLOW_BACKPRESSURE shows what a slow consumer does to the others). Three cases, run in
 * interleaved rounds (each case takes each place in the order in turn), medians printed:
 * <ul>
 *   <li>{@code none}: 100 peers that take every frame (the baseline);</li>
 *   <li>{@code slow+disconnect}: peer 42 answers FLOW_BACKPRESSURE to every send; it loses its oldest
 *       frames and is disconnected at the threshold (the default configuration);</li>
 *   <li>{@code slow, never disconnected}: the same peer with the disconnect off, so drop-oldest runs for
 *       the whole round.</li>
 * </ul>
 * The figure is the delivered rate of the other 99 peers; the goal is the slow cases within 10% of the
 * baseline. Run:
 * {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.wide.QueuedLinkSlowPeerBench [seconds] [rounds]}
 */
public final class QueuedLinkSlowPeerBench {
    static final int PEERS = 100;
    static final int SLOW = 42;
    static final int FRAME = 48;

    /** The inner link: counts frames per peer; the slow peer never takes one. Driven by the I/O thread only. */
    static final class SinkLink implements Link {
        final long[] delivered = new long[PEERS];
        final boolean slowPeer;
        private final ResourceCounter table = new ResourceCounter("sink peers", PEERS);
        private final LinkCounters stats = new LinkCounters();
        long checksum;

        SinkLink(boolean slowPeer) {
            this.slowPeer = slowPeer;
        }

        @Override
        public int id() {
            return 1;
        }

        @Override
        public String name() {
            return "sink";
        }

        @Override
        public int send(int peer, byte[] buf, int off, int len) {
            if (slowPeer && peer == SLOW) {
                return WireError.FLOW_BACKPRESSURE;
            }
            delivered[peer]++;
            checksum += buf[off + 4];
            return WireError.OK;
        }

        @Override
        public int poll(FrameHandler handler, int maxFrames) {
            return 0;
        }

        @Override
        public int maxFrame() {
            return 1472;
        }

        @Override
        public void setPeerListener(PeerListener listener) {
        }

        @Override
        public LinkStats stats() {
            return stats;
        }

        @Override
        public BoundedResource peers() {
            return table;
        }

        @Override
        public void close() {
        }
    }

    record Result(double othersPerSecond, long accepted, QueuedLinkStats stats) {
    }

    static Result round(String mode, double seconds) {
        boolean slow = !"none".equals(mode);
        QueuedLinkConfig.Builder cfg = QueuedLinkConfig.builder();
        if (mode.contains("never")) {
            cfg.disconnectDrops(0);
        }
        SinkLink sink = new SinkLink(slow);
        QueuedLink link = QueuedLink.wrap(sink, cfg.build());
        FrameHandler ignore = (l, p, b, o, n) -> { };
        byte[] frame = new byte[FRAME];
        frame[0] = 1;
        frame[2] = FRAME - 4;
        long accepted = 0;
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        while (System.nanoTime() - end < 0) {
            for (int p = 0; p < PEERS; p++) {
                frame[4]++;
                int r;
                while ((r = link.send(p, frame, 0, FRAME)) == WireError.FLOW_BACKPRESSURE) {
                    link.poll(ignore, 64);
                    Thread.yield(); // every outbound buffer in flight: let the I/O thread have the core
                }
                if (r == WireError.OK) {
                    accepted++;
                }
            }
            link.poll(ignore, 64);
        }
        long elapsed = System.nanoTime() - start;
        link.close(); // the I/O thread has stopped: its counters are final and visible
        long others = 0;
        for (int p = 0; p < PEERS; p++) {
            if (p != SLOW || !slow) {
                others += sink.delivered[p];
            }
        }
        if (!slow) {
            others = others * (PEERS - 1) / PEERS; // the same 99 peers' share of the baseline
        }
        return new Result(others * 1e9 / elapsed, accepted, link.queueStats());
    }

    static double median(double[] xs) {
        double[] c = xs.clone();
        Arrays.sort(c);
        int n = c.length;
        return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    }

    /**
     * Runs the three cases in interleaved rounds and prints the medians; arguments {@code [seconds] [rounds]}
     * (defaults 2, 5).
     */
    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        String[] modes = {"none", "slow+disconnect", "slow, never disconnected"};
        for (String m : modes) {
            round(m, Math.min(1, seconds)); // warm-up
        }
        double[][] rates = new double[modes.length][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < modes.length; k++) {
                int m = (r + k) % modes.length; // each case takes each place in the order in turn
                Result res = round(modes[m], seconds);
                rates[m][r] = res.othersPerSecond();
                System.out.printf("round %d %-26s other 99 peers: %,12.0f frames/s   %s%n", r + 1, modes[m],
                        res.othersPerSecond(), res.stats());
            }
        }
        double base = median(rates[0]);
        System.out.printf("%nmedians over %d interleaved rounds of %.1f s, delivered frames/s to the 99 other peers%n",
                rounds, seconds);
        for (int m = 0; m < modes.length; m++) {
            double med = median(rates[m]);
            System.out.printf("  %-26s %,12.0f   %+.1f%% vs none%n", modes[m], med, (med / base - 1) * 100);
        }
    }
}
