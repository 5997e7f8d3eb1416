package io.spectrum.bench.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * UDP loopback harness: frames carrying a 16-byte VALUE go through a dialing UdpLink to a listening
 * UdpLink in another thread of the same process (one clock, so one-way latency is exact).
 *
 * <p>Phases: (1) inline latency: one thread stamps a frame, sends it through the dialer and polls
 * the listener until it arrives (loopback delivery is synchronous, so this is the cost of both
 * links plus the kernel, free of scheduler noise); (2) inline throughput: batches of 32 frames sent
 * then received, frames per second; (3) cross-thread latency: frames paced at {@code rate}/s from
 * one thread, received by a spinning poller in another (shows scheduler effects on a loaded box);
 * (4) cross-thread throughput: the sender as fast as the socket takes frames for {@code seconds}.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.link.UdpLinkLatency [frames] [rate] [seconds]</pre>
 */
public final class UdpLinkLatency {
    private UdpLinkLatency() {
    }

    static byte[] frame() {
        byte[] out = new byte[64];
        byte[] body = new byte[16];
        TlvWriter w = new TlvWriter().wrap(out, 0, out.length);
        w.leaf(TlvType.VALUE, body, 0, body.length);
        return Arrays.copyOf(out, w.length());
    }

    static void putLong(byte[] b, int off, long v) {
        for (int i = 0; i < 8; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }

    static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (b[off + i] & 0xFFL) << (8 * i);
        }
        return v;
    }

    /** Receiver: records latency of each frame by its sequence number. */
    static final class Receiver implements FrameHandler {
        final long[] latency;
        volatile long received;
        volatile boolean stop;

        Receiver(int n) {
            latency = new long[n];
        }

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            long now = System.nanoTime();
            long stamp = getLong(buf, off + 4);
            long seq = getLong(buf, off + 12);
            if (seq >= 0 && seq < latency.length) {
                latency[(int) seq] = now - stamp;
            }
            received++;
        }
    }

    /**
     * Runs the four phases and prints their figures; arguments {@code [frames] [rate] [seconds]} (defaults 200000,
     * 20000, 3).
     */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        UdpLinkConfig cfg = new UdpLinkConfig().socketBufferBytes(4 << 20);
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), cfg,
                SystemClock.INSTANCE);
        UdpLink client = UdpLink.dial(2, server.localAddress(), cfg, SystemClock.INSTANCE);
        byte[] f = frame();
        System.out.printf("frame=%d bytes (VALUE with a 16-byte payload), cores=%d%n", f.length,
                Runtime.getRuntime().availableProcessors());

        // Phase 1: inline latency.
        Receiver in = new Receiver(n);
        for (int i = 0; i < n; i++) {
            putLong(f, 4, System.nanoTime());
            putLong(f, 12, i);
            client.send(0, f, 0, f.length);
            long before = in.received;
            while (in.received == before) {
                server.poll(in, 1);
            }
        }
        long[] inl = Arrays.stream(in.latency).filter(x -> x > 0).sorted().toArray();
        int skip = inl.length / 10;   // the first tenth warms the JIT
        long[] inlWarm = Arrays.copyOfRange(in.latency, skip, in.latency.length);
        Arrays.sort(inlWarm);
        System.out.printf("inline latency (send->deliver, one thread): %d frames, p50=%.1f us p99=%.1f us p99.9=%.1f us%n",
                inlWarm.length, pct(inlWarm, 50) / 1e3, pct(inlWarm, 99) / 1e3, pct(inlWarm, 99.9) / 1e3);

        // Phase 2: inline throughput.
        Receiver bt = new Receiver(0);
        long tEnd = System.nanoTime() + seconds * 1_000_000_000L;
        long tStart = System.nanoTime();
        long batches = 0;
        putLong(f, 12, -1);
        while (System.nanoTime() < tEnd) {
            for (int k = 0; k < 32; k++) {
                client.send(0, f, 0, f.length);
            }
            long want = bt.received + 32;
            long spins = 0;
            while (bt.received < want && ++spins < 1_000_000) {
                server.poll(bt, 32);
            }
            batches++;
        }
        double tSecs = (System.nanoTime() - tStart) / 1e9;
        System.out.printf("inline throughput: %d frames in %.1f s = %.0f frames/s (%d sent)%n",
                bt.received, tSecs, bt.received / tSecs, batches * 32);
        if (inl.length == 0) {
            System.out.println("no frames");
        }

        // Phase 3: cross-thread paced latency.
        Receiver r = new Receiver(n);
        Thread rx = new Thread(() -> {
            while (!r.stop) {
                if (server.poll(r, 256) == 0) {
                    Thread.onSpinWait();
                }
            }
        }, "udp-rx");
        rx.start();
        long gap = 1_000_000_000L / rate;
        long next = System.nanoTime();
        int refused = 0;
        for (int i = 0; i < n; i++) {
            while (System.nanoTime() < next) {
                Thread.onSpinWait();
            }
            next += gap;
            putLong(f, 4, System.nanoTime());
            putLong(f, 12, i);
            if (client.send(0, f, 0, f.length) != WireError.OK) {
                refused++;
            }
        }
        Thread.sleep(200);
        r.stop = true;
        rx.join();
        long[] lat = Arrays.stream(r.latency).filter(x -> x > 0).sorted().toArray();
        System.out.printf("cross-thread latency: sent=%d at %d/s, received=%d, refused=%d; one-way p50=%.1f us p99=%.1f us"
                        + " p99.9=%.1f us max=%.1f us%n",
                n, rate, r.received, refused, pct(lat, 50) / 1e3, pct(lat, 99) / 1e3, pct(lat, 99.9) / 1e3,
                lat.length == 0 ? 0 : lat[lat.length - 1] / 1e3);

        // Phase 4: cross-thread throughput, sender as fast as the socket takes frames.
        Receiver t = new Receiver(0);
        Thread rx2 = new Thread(() -> {
            while (!t.stop) {
                if (server.poll(t, 256) == 0) {
                    Thread.onSpinWait();
                }
            }
        }, "udp-rx2");
        rx2.start();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long sent = 0;
        long start = System.nanoTime();
        while (System.nanoTime() < end) {
            putLong(f, 12, -1);
            if (client.send(0, f, 0, f.length) == WireError.OK) {
                sent++;
            } else {
                LockSupport.parkNanos(1000);
            }
        }
        long elapsed = System.nanoTime() - start;
        Thread.sleep(200);
        t.stop = true;
        rx2.join();
        System.out.printf("cross-thread throughput: sent=%d (%.0f/s) received=%d (%.0f/s) lost=%.2f%% over %.1f s%n",
                sent, sent * 1e9 / elapsed, t.received, t.received * 1e9 / elapsed,
                100.0 * (sent - t.received) / Math.max(1, sent), elapsed / 1e9);
        client.close();
        server.close();
    }

    static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, i)];
    }
}
