package io.spectrum.bench.codec;

import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FrameEncoder;
import io.spectrum.wire.TlvIndex;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * A companion to {@link CodecBench} for a shared, overloaded machine: measures the thread's CPU
 * time (not wall time) per decode and per decode+encode round-trip, best of several rounds, so
 * time spent waiting for a core does not count. Not a JMH benchmark; run it with
 * {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.codec.CodecCpuTime}.
 */
public final class CodecCpuTime {
    private CodecCpuTime() {
    }

    /**
     * Prints the thread CPU time per decode and per round trip, best of several rounds; the optional argument is the
     * operations per round (default 2,000,000).
     */
    public static void main(String[] args) {
        ThreadMXBean tm = ManagementFactory.getThreadMXBean();
        FrameDecoder d = new FrameDecoder();
        FrameEncoder e = new FrameEncoder();
        TlvIndex idx = new TlvIndex();
        byte[] out = new byte[256];
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        long sink = 0;
        String[] names = {"subscriber/policy-suspended (44 B)", "fwd/fwd-read (38 B)"};
        byte[][] frames = {CodecBench.SUBSCRIBER_SUSPENDED, CodecBench.FWD_READ};
        for (int f = 0; f < frames.length; f++) {
            byte[] b = frames[f];
            double bestDecode = Double.MAX_VALUE;
            double bestRoundTrip = Double.MAX_VALUE;
            for (int round = 0; round < 10; round++) {
                long c0 = tm.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    sink += d.decode(b, 0, b.length, idx);
                }
                long c1 = tm.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    d.decode(b, 0, b.length, idx);
                    sink += e.encode(idx, 0, out, 0, out.length);
                }
                long c2 = tm.getCurrentThreadCpuTime();
                bestDecode = Math.min(bestDecode, (c1 - c0) / (double) n);
                bestRoundTrip = Math.min(bestRoundTrip, (c2 - c1) / (double) n);
            }
            System.out.printf(Locale.ROOT, "%-36s decode %6.1f ns  decode+encode %6.1f ns  (thread CPU time, best of 10 x %d)%n",
                    names[f], bestDecode, bestRoundTrip, n);
        }
        System.out.println("checksum " + sink);
    }
}
