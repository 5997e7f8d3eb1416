package io.spectrum.bench.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.dtls.DtlsCredentials;
import io.spectrum.link.dtls.DtlsLink;
import io.spectrum.link.dtls.keys.FleetCa;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * DTLS against plain UDP on this machine's loopback, one process: (1) handshake time, full (a new
 * host process: a fresh SSLContext) and resumed (the same host reconnecting), from opening the
 * dialer to the peer being up on both ends; (2) per-frame round-trip latency (host -> board ->
 * host, one thread polling both links, the link threads doing the crypto); (3) one-way throughput
 * in batches of 32 frames. Frames carry a 16-byte VALUE (the same frame as {@link UdpLinkLatency}).
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.link.DtlsLinkBench [handshakes] [roundTrips] [seconds]</pre>
 */
public final class DtlsLinkBench {
    private DtlsLinkBench() {
    }

    static final class Sink implements FrameHandler {
        volatile long received;
        long last = -1;
        int peer;

        @Override
        public void onFrame(Link link, int p, byte[] buf, int off, int len) {
            last = UdpLinkLatency.getLong(buf, off + 12);
            peer = p;
            received++;
        }
    }

    /**
     * Prints handshake times, round-trip latency and throughput, DTLS against plain UDP; arguments {@code
     * [handshakes] [roundTrips] [seconds]} (defaults 30, 50000, 3).
     */
    public static void main(String[] args) throws Exception {
        int handshakes = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int trips = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Path dir = Files.createTempDirectory("spectrum-dtls-bench");
        FleetCa ca = FleetCa.init(dir, "bench CA");
        ca.issue("board1", FleetCa.NODE_VALIDITY);
        ca.issue("host", FleetCa.NODE_VALIDITY);
        DtlsCredentials boardKeys = DtlsCredentials.fromDir(dir, "board1");
        UdpLinkConfig cfg = new UdpLinkConfig().socketBufferBytes(4 << 20);
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        System.out.printf("cores=%d, %s, frame=%d bytes%n", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), UdpLinkLatency.frame().length);

        // (1) handshakes
        DtlsLink board = DtlsLink.listen(1, any, cfg, boardKeys, SystemClock.INSTANCE);
        long[] full = new long[handshakes];
        long[] resumed = new long[handshakes];
        DtlsCredentials sameHost = DtlsCredentials.fromDir(dir, "host");
        for (int i = 0; i < handshakes; i++) {
            full[i] = handshake(board, DtlsCredentials.fromDir(dir, "host"), cfg);
        }
        for (int i = 0; i < handshakes; i++) {
            resumed[i] = handshake(board, sameHost, cfg);
        }
        System.out.printf("handshake, full (new host process): %s%n", summary(warm(full)));
        System.out.printf("handshake, resumed (same host again): %s (resumed %d of %d)%n", summary(warm(resumed)),
                board.dtlsStats().resumed(), board.dtlsStats().handshakes());
        board.close();

        // (2) + (3) plain, then DTLS
        UdpLink plainBoard = UdpLink.listen(1, any, cfg, SystemClock.INSTANCE);
        UdpLink plainHost = UdpLink.dial(2, plainBoard.localAddress(), cfg, SystemClock.INSTANCE);
        run("plain udp", plainHost, plainBoard, trips, seconds);
        plainHost.close();
        plainBoard.close();

        DtlsLink dBoard = DtlsLink.listen(1, any, cfg, boardKeys, SystemClock.INSTANCE);
        DtlsLink dHost = DtlsLink.dial(2, dBoard.localAddress(), cfg, sameHost, SystemClock.INSTANCE);
        Sink s = new Sink();
        while (!dHost.isPeerUp(0) || !dBoard.isPeerUp(0)) {
            dHost.poll(s, 16);
            dBoard.poll(s, 16);
            Thread.onSpinWait();
        }
        long allocBefore = dHost.linkThreadAllocatedBytes() + dBoard.linkThreadAllocatedBytes();
        long frames = run("dtls", dHost, dBoard, trips, seconds);
        long alloc = dHost.linkThreadAllocatedBytes() + dBoard.linkThreadAllocatedBytes() - allocBefore;
        System.out.printf("dtls link threads allocated %.0f B per frame (JDK record crypto; the node's side: 0 B)%n",
                (double) alloc / frames);
        dHost.close();
        dBoard.close();
    }

    /** Nanoseconds from opening a dialer to both ends reporting the peer up. */
    static long handshake(DtlsLink board, DtlsCredentials host, UdpLinkConfig cfg) throws Exception {
        Sink s = new Sink();
        long t0 = System.nanoTime();
        DtlsLink h = DtlsLink.dial(2, board.localAddress(), cfg, host, SystemClock.INSTANCE);
        long before = board.dtlsStats().handshakes();
        while (!h.isPeerUp(0) || board.dtlsStats().handshakes() == before) {
            h.poll(s, 16);
            board.poll(s, 16);
            Thread.onSpinWait();
        }
        long took = System.nanoTime() - t0;
        h.close();
        return took;
    }

    /** Round trips, then one-way throughput; returns the frames carried (for per-frame figures). */
    static long run(String what, Link host, Link board, int trips, int seconds) {
        byte[] f = UdpLinkLatency.frame();
        Sink atBoard = new Sink();
        Sink atHost = new Sink();
        long[] rtt = new long[trips];
        for (int i = 0; i < trips; i++) {
            UdpLinkLatency.putLong(f, 12, i);
            long t0 = System.nanoTime();
            host.send(0, f, 0, f.length);
            while (atBoard.last != i) {
                board.poll(atBoard, 1);
            }
            board.send(atBoard.peer, f, 0, f.length);
            while (atHost.last != i) {
                host.poll(atHost, 1);
            }
            rtt[i] = System.nanoTime() - t0;
        }
        long[] w = warm(rtt);
        System.out.printf("%s round trip (host->board->host): %d trips, p50=%.1f us p99=%.1f us p99.9=%.1f us%n", what,
                w.length, UdpLinkLatency.pct(w, 50) / 1e3, UdpLinkLatency.pct(w, 99) / 1e3, UdpLinkLatency.pct(w, 99.9) / 1e3);

        Sink bt = new Sink();
        UdpLinkLatency.putLong(f, 12, -1);
        long sent = 0;
        long tStart = System.nanoTime();
        long tEnd = tStart + seconds * 1_000_000_000L;
        while (System.nanoTime() < tEnd) {
            for (int k = 0; k < 32; k++) {
                if (host.send(0, f, 0, f.length) == 0) {
                    sent++;
                }
            }
            long spins = 0;
            while (bt.received < sent && ++spins < 5_000_000) {
                board.poll(bt, 64);
            }
        }
        double secs = (System.nanoTime() - tStart) / 1e9;
        System.out.printf("%s throughput (one way, batches of 32): %.0f frames/s (%d of %d delivered)%n", what,
                bt.received / secs, bt.received, sent);
        return 2L * trips + bt.received;
    }

    /** Drops the first tenth (JIT and caches warming) and sorts. */
    static long[] warm(long[] xs) {
        long[] w = Arrays.copyOfRange(xs, xs.length / 10, xs.length);
        Arrays.sort(w);
        return w;
    }

    static String summary(long[] sorted) {
        return String.format("%d runs, p50=%.1f ms p90=%.1f ms", sorted.length, UdpLinkLatency.pct(sorted, 50) / 1e6, UdpLinkLatency.pct(sorted, 90) / 1e6);
    }
}
