package io.spectrum.bench.host;

import io.spectrum.runtime.LinkSpec;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.bench.link.RingLink;
import io.spectrum.board.Board;
import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.node.api.VertexValue;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * 64 boards emulated in-process. Each board is a NarrowNode with the demo
 * declarations ({@link Board#declare}: temp i16, humidity u16, counter u32, ...); one host node
 * subscribes to each board's temp, humidity and counter ({@code subscribeRemote}, mirrored at
 * {@code /b<i>/...}) over its own link, and one host subscriber per board (on {@code /b<i>}) counts
 * the values that reach it. One thread drives everything: each step writes the three vertices of
 * every board, lets every board poll, then the host polls until its links are empty. Figures:
 * values per second reaching the host subscribers, thread CPU per value (boards + links + host), and
 * the host's share (its polls, timed).
 *
 * <p>Links: {@code memory} (a {@link RingLink} pair per board) or {@code udp} (each board listens on
 * its own loopback port; the host dials each, as {@code spectrum host --peer} does). Without the
 * runtime's liveness pings (one thread drives the nodes directly) a board's listener keeps its
 * silent host up for an hour instead of 10 s.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.host.BoardsBench
 * [boards=64] [link=memory|udp] [seconds=5] [rounds=3] [core=narrow|wide]}
 */
public final class BoardsBench implements AutoCloseable {
    static final NodePath[] VERTICES = {Board.TEMP, Board.HUMIDITY, Board.COUNTER};
    static final int[] WIDTHS = {2, 2, 4};

    private final NarrowNode[] boards;
    private final Link[] boardLinks;
    private final Link[] hostLinks;
    private final Node host;
    private final Counter counter = new Counter();
    private final byte[] buf = new byte[16];
    private final TlvWriter w = new TlvWriter(2);
    private long hostNanos;
    private long step;

    BoardsBench(int count, String linkKind, HostCore core) throws IOException {
        boards = new NarrowNode[count];
        boardLinks = new Link[count];
        hostLinks = new Link[count];
        host = core.newNode(NodeConfig.builder().maxLinks(count + 4).maxRemoteSubscriptions(count * VERTICES.length + 16)
                .maxVertices(count * 8 + 64).maxSubscribers(count * 2 + 16).remoteWritesToUndeclared(true).build());
        for (int i = 0; i < count; i++) {
            boards[i] = new NarrowNode(NodeConfig.builder().peerDeliveriesPerSecond(0).build());
            Board.declare(boards[i]);
            if ("udp".equals(linkKind)) {
                // No runtime here, so no liveness pings: the board must not take its silent host for gone.
                UdpLink listener = (UdpLink) LinkSpec.listen(1, "udp://127.0.0.1:0",
                        LinkSettings.clientDefaults().timeoutMillis(3_600_000L), SystemClock.INSTANCE);
                boardLinks[i] = listener;
                hostLinks[i] = LinkSpec.dial(10 + i, "udp://" + UdpLink.hostPort(listener.localAddress()), LinkSettings.clientDefaults(), SystemClock.INSTANCE);
            } else {
                RingLink[] pair = RingLink.pair(1, 10 + i, 64, 2048);
                boardLinks[i] = pair[0];
                hostLinks[i] = pair[1];
            }
            check(boards[i].attach(boardLinks[i]), "board attach");
            check(host.attach(hostLinks[i]), "host attach");
            for (NodePath v : VERTICES) {
                int h = host.subscribeRemote(hostLinks[i], 0, v, NodePath.of("/b" + i + v.toString().substring(v.toString().lastIndexOf('/'))), 0);
                if (h < 0) {
                    throw new IllegalStateException("subscribeRemote " + v + ": " + WireError.identity(-h));
                }
            }
            Subscription s = host.subscribe(NodePath.of("/b" + i), 0, counter);
            check(s.error(), "host subscribe");
        }
        for (int r = 0; r < 50; r++) { // the appends and their answers
            pump();
        }
    }

    private static void check(int rc, String what) {
        if (rc != WireError.OK) {
            throw new IllegalStateException(what + ": " + WireError.identity(rc));
        }
    }

    /** Every board polls, then the host drains its links; returns frames the host handled. */
    private int pump() {
        for (NarrowNode b : boards) {
            b.poll();
        }
        long t = System.nanoTime();
        int total = 0;
        int n;
        do {
            n = host.poll();
            total += n;
        } while (n > 0);
        hostNanos += System.nanoTime() - t;
        return total;
    }

    /** One step: every board writes its three vertices, then {@link #pump}. */
    void step() {
        long k = step++;
        for (NarrowNode b : boards) {
            for (int v = 0; v < VERTICES.length; v++) {
                int len = w.wrap(buf, 0, buf.length).value(v == 2 ? k & 0xFFFFFFFFL : 100 + (k & 0x1FF), WIDTHS[v]).length();
                b.write(VERTICES[v], buf, 0, len);
            }
        }
        pump();
    }

    long values() {
        return counter.n;
    }

    /** Values the boards wrote that are expected at the host after {@code steps} steps. */
    int valuesPerStep() {
        return boards.length * VERTICES.length;
    }

    @Override
    public void close() {
        for (int i = 0; i < boards.length; i++) {
            boardLinks[i].close();
            hostLinks[i].close();
            boards[i].close();
        }
        host.close();
    }

    static final class Counter implements ValueListener {
        long n;

        @Override
        public void onValue(Subscription s, VertexValue v, long seq, boolean stale) {
            n++;
        }
    }

    /**
     * Runs the boards for each round and prints the values per second and CPU per value; arguments {@code key=value}:
     * {@code boards} (64), {@code link} (memory or udp), {@code seconds} (5), {@code rounds} (3), {@code core}
     * (narrow).
     */
    public static void main(String[] args) throws IOException {
        int count = HostVsMosquitto.intArg(args, "boards", 64);
        String link = HostVsMosquitto.arg(args, "link", "memory");
        double seconds = Double.parseDouble(HostVsMosquitto.arg(args, "seconds", "5"));
        int rounds = HostVsMosquitto.intArg(args, "rounds", 3);
        HostCore core = HostCore.parse(HostVsMosquitto.arg(args, "core", "narrow"));
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (BoardsBench b = new BoardsBench(count, link, core)) {
            System.out.printf(Locale.ROOT, "BoardsBench: %d boards (NarrowNode, demo declarations), %s links, host %s, 3 vertices per board%n",
                    count, link, core);
            for (int r = 0; r <= rounds; r++) {
                long v0 = b.values();
                long s0 = b.step;
                long h0 = b.hostNanos;
                long c0 = mx.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                long end = t0 + (long) (seconds * 1e9);
                while (System.nanoTime() - end < 0) {
                    for (int i = 0; i < 16; i++) {
                        b.step();
                    }
                }
                long t = System.nanoTime() - t0;
                long cpu = mx.getCurrentThreadCpuTime() - c0;
                long values = b.values() - v0;
                long expected = (b.step - s0) * b.valuesPerStep();
                System.out.printf(Locale.ROOT, "  round %d: %,11.0f values/s at the host subscribers; %5.0f ns CPU per value (host polls %4.0f ns wall); %d of %d arrived%s%n",
                        r, values * 1e9 / t, (double) cpu / values, (double) (b.hostNanos - h0) / values, values, expected,
                        r == 0 ? "  (warm-up)" : "");
            }
        }
    }
}
