package io.spectrum.bench.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.serial.InMemorySerialPort;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Serial goodput as a share of the line rate: SerialLink to SerialLink over an in-memory line paced
 * at baud/10 bytes per second (8N1), frames carrying a 64-byte VALUE payload, sender and receiver in
 * their own threads. Reports libtracer frame bytes and payload bytes delivered per second, each as a
 * share of the line rate; the framing ceiling is frame / (frame + 4 CRC + 1 COBS code + 1 delimiter).
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.link.SerialGoodput [seconds] [baud...]</pre>
 */
public final class SerialGoodput {
    private SerialGoodput() {
    }

    static final class Counter implements FrameHandler {
        volatile long frames;
        volatile long bytes;
        volatile boolean stop;

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            frames++;
            bytes += len;
        }
    }

    /**
     * Prints the goodput at each baud rate; arguments {@code [seconds] [baud...]} (defaults 5 s, 115200 and 921600
     * baud).
     */
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int[] bauds = args.length > 1
                ? Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {115_200, 921_600};
        int payload = 64;
        byte[] body = new byte[payload];
        for (int i = 0; i < payload; i++) {
            body[i] = (byte) (i * 7 + 1);
        }
        byte[] out = new byte[128];
        TlvWriter w = new TlvWriter().wrap(out, 0, out.length);
        w.leaf(TlvType.VALUE, body, 0, body.length);
        byte[] frame = Arrays.copyOf(out, w.length());
        int wire = frame.length + 4 + 1 + 1;
        for (int baud : bauds) {
            run(baud, seconds, frame, payload, wire);
        }
    }

    static void run(int baud, int seconds, byte[] frame, int payload, int wire) throws Exception {
        InMemorySerialPort[] line = InMemorySerialPort.pair("paced", 1 << 16);
        SerialLinkConfig cfg = new SerialLinkConfig().baud(baud).maxFrame(1024).writeRetries(0);
        SerialLink tx = new SerialLink(1, new PacedSerialPort(line[0], baud, 64), cfg, SystemClock.INSTANCE);
        SerialLink rx = new SerialLink(2, line[1], cfg, SystemClock.INSTANCE);
        Counter c = new Counter();
        rx.poll(c, 1);
        tx.poll(c, 1);
        Thread receiver = new Thread(() -> {
            while (!c.stop) {
                if (rx.poll(c, 64) == 0) {
                    LockSupport.parkNanos(100_000);
                }
            }
        }, "serial-rx");
        receiver.start();
        // Warm up one second, then measure.
        long warmEnd = System.nanoTime() + 1_000_000_000L;
        sendUntil(tx, c, frame, warmEnd);
        long f0 = c.frames;
        long b0 = c.bytes;
        long t0 = System.nanoTime();
        sendUntil(tx, c, frame, t0 + seconds * 1_000_000_000L);
        long t1 = System.nanoTime();
        long frames = c.frames - f0;
        long bytes = c.bytes - b0;
        c.stop = true;
        receiver.join();
        double lineRate = baud / 10.0;
        double secs = (t1 - t0) / 1e9;
        System.out.printf("serial %d baud (8N1 line rate %.0f B/s), %d-byte frames (64-byte payload), %d bytes on the wire:"
                        + " %.1f frames/s, frame goodput %.0f B/s = %.1f%% of line rate, payload goodput %.0f B/s = %.1f%%"
                        + " (framing ceiling %.1f%% / %.1f%%), dropped corrupt=%d%n",
                baud, lineRate, frame.length, wire, frames / secs, bytes / secs, 100 * bytes / secs / lineRate,
                frames * payload / secs, 100 * frames * payload / secs / lineRate,
                100.0 * frame.length / wire, 100.0 * payload / wire, rx.stats().droppedCorrupt());
        tx.close();
        rx.close();
    }

    private static void sendUntil(SerialLink tx, Counter c, byte[] frame, long end) {
        while (System.nanoTime() < end) {
            int rc = tx.send(0, frame, 0, frame.length);
            if (rc == WireError.FLOW_BACKPRESSURE || tx.hasPendingWrite()) {
                // The paced line is busy: come back when about a few bytes have gone out.
                LockSupport.parkNanos(20_000);
                tx.poll(c, 0);
            }
        }
    }
}
