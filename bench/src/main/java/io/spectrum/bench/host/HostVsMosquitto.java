package io.spectrum.bench.host;

import io.spectrum.wire.TlvWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * The host against Mosquitto. One publisher, N subscribers (default 100) of one
 * topic / vertex over loopback, the same payload (the 8-byte value TLV of a u32 counter) both ways;
 * measured per round: messages delivered per second (summed over the subscribers) and per
 * CPU-second of the server process (broker or host JVM, user + system from {@code /proc/PID/stat},
 * the host in a JVM of its own so it is read the same way). Rounds alternate the two sides (the
 * first round of each is warm-up and not counted); the figures are the medians.
 *
 * <p>Load: the publisher keeps at most {@code window} messages in flight (published minus delivered
 * / N), so both servers run saturated without dropping; a window that does not move for 20 ms is
 * stepped past (counted as a stall; lost messages show as delivered < published x N).
 *
 * <p>A third side, the UDP floor ({@link FloorSide}, {@code floor=off} leaves it out), is a relay
 * process that only receives each frame and sends it to the N receivers: what one datagram per
 * delivery costs before any node work. {@code floor=batched} has the relay send {@code sendmmsg} at a
 * time (the floor of a batched UDP host), {@code floor=on} one {@code send} per datagram, and
 * {@code floor=segmented} each receiver's waiting frames as one segmented run (the floor of a host
 * whose UDP link segments runs to one peer).
 *
 * <p>Run ({@code mvn -B -q -o -pl bench -am package -DskipTests} first):
 * {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.host.HostVsMosquitto [subscribers=100]
 * [rounds=5] [seconds=3] [window=64] [core=narrow|wide] [transport=udp|tcp] [floor=on|batched|segmented|off]}
 *
 * <p>{@code transport=tcp} puts the Spectrum side's subscribers and publisher on TCP connections to
 * the host (libtracer's TCP transport), each a stream as a Mosquitto client's is.
 */
public final class HostVsMosquitto {
    /** One measured round of one side. */
    record Round(String side, long published, long delivered, long nanos, long cpuNanos, long systemNanos, long stalls) {
        double perSecond() {
            return delivered * 1e9 / nanos;
        }

        double perCpuSecond() {
            return cpuNanos == 0 ? Double.NaN : delivered * 1e9 / cpuNanos;
        }

        long lost(int subscribers) {
            return published * subscribers - delivered;
        }
    }

    private HostVsMosquitto() {
    }

    /**
     * Runs the alternating rounds and prints the medians; prints a skip line and returns when Mosquitto is not
     * installed. Arguments {@code key=value}: {@code subscribers} (100), {@code rounds} (5), {@code seconds} (3),
     * {@code window} (64), {@code core} (narrow), {@code transport} (udp or tcp), {@code floor} (on, batched, segmented or off).
     */
    public static void main(String[] args) throws Exception {
        int subscribers = intArg(args, "subscribers", 100);
        int rounds = intArg(args, "rounds", 5);
        double seconds = Double.parseDouble(arg(args, "seconds", "3"));
        int window = intArg(args, "window", 64);
        String core = arg(args, "core", "narrow");
        String transport = arg(args, "transport", "udp");
        Path mosquitto = MqttSide.binary();
        if (mosquitto == null) {
            System.out.println("HostVsMosquitto skipped: mosquitto not installed (apt-get install mosquitto)");
            return;
        }
        System.out.printf(Locale.ROOT, "HostVsMosquitto: %d subscribers, %d rounds x %.1f s per side, window %d, host core %s over %s, %d CPUs%n",
                subscribers, rounds, seconds, window, core, transport, Runtime.getRuntime().availableProcessors());
        String floorKind = arg(args, "floor", "on");
        boolean floor = !"off".equals(floorKind);
        try (MqttSide m = new MqttSide(mosquitto, subscribers); SpectrumSide s = new SpectrumSide(core, transport, subscribers);
             FloorSide f = floor ? new FloorSide(subscribers, floorKind) : null) {
            List<Side> sides = floor ? List.of(m, s, f) : List.of(m, s);
            List<List<Round>> measured = new ArrayList<>();
            for (int i = 0; i < sides.size(); i++) {
                measured.add(new ArrayList<>());
            }
            for (int r = 0; r <= rounds; r++) {
                for (int k = 0; k < sides.size(); k++) {
                    int i = (k + r) % sides.size(); // each round starts with the next side
                    Side side = sides.get(i);
                    Round x = round(side, subscribers, seconds, window);
                    System.out.printf(Locale.ROOT, "  round %d %-16s %,12.0f msg/s %,12.0f msg/CPU-s  cpu %5.2f s (%2.0f%% kernel)  lost %d  stalls %d%s%n",
                            r, side.name(), x.perSecond(), x.perCpuSecond(), x.cpuNanos() / 1e9,
                            x.cpuNanos() == 0 ? 0.0 : 100.0 * x.systemNanos() / x.cpuNanos(), x.lost(subscribers),
                            x.stalls(), r == 0 ? "  (warm-up)" : "");
                    if (r > 0) {
                        measured.get(i).add(x);
                    }
                }
            }
            report(measured.get(0), measured.get(1));
            if (floor) {
                List<Round> fl = measured.get(2);
                double fCpu = median(fl, Round::perCpuSecond);
                double own = 1e9 / median(measured.get(1), Round::perCpuSecond) - 1e9 / fCpu;
                System.out.printf(Locale.ROOT, "%s (a relay that only does the %d sends): %,12.0f msg/CPU-second = %.2fx mosquitto,"
                                + " %.0f%% kernel; spectrum = %.2fx the floor; %s%n",
                        f.name(), subscribers, fCpu, fCpu / median(measured.get(0), Round::perCpuSecond), 100 * median(fl, q -> (double) q.systemNanos() / q.cpuNanos()),
                        median(measured.get(1), Round::perCpuSecond) / fCpu,
                        own >= 0 ? String.format(Locale.ROOT, "the host's own work per delivery: %.0f ns of CPU", own)
                                : String.format(Locale.ROOT, "the host spends %.0f ns of CPU less per delivery than the floor", -own));
            }
            if (s.unexpectedReplies() > 0) {
                System.out.println("  note: the Spectrum publisher received " + s.unexpectedReplies() + " replies it did not ask for");
            }
        }
    }

    static void report(List<Round> mosquitto, List<Round> spectrum) {
        double mRate = median(mosquitto, Round::perSecond);
        double sRate = median(spectrum, Round::perSecond);
        double mCpu = median(mosquitto, Round::perCpuSecond);
        double sCpu = median(spectrum, Round::perCpuSecond);
        System.out.printf(Locale.ROOT, "median delivered msg/s:         mosquitto %,12.0f  spectrum %,12.0f  ratio %.2fx%n", mRate, sRate, sRate / mRate);
        System.out.printf(Locale.ROOT, "median delivered msg/CPU-second: mosquitto %,12.0f  spectrum %,12.0f  ratio %.2fx%n", mCpu, sCpu, sCpu / mCpu);
        System.out.printf(Locale.ROOT, "median share of server CPU in the kernel: mosquitto %.0f%%  spectrum %.0f%%%n",
                100 * median(mosquitto, r -> (double) r.systemNanos() / r.cpuNanos()),
                100 * median(spectrum, r -> (double) r.systemNanos() / r.cpuNanos()));
    }

    /** One round: publish for {@code seconds} under the window, then let the last ones arrive (at most 1 s). */
    static Round round(Side side, int subscribers, double seconds, int window) {
        byte[] buf = new byte[16];
        TlvWriter w = new TlvWriter(2);
        long d0 = side.delivered();
        long[] c0 = ProcCpu.userSystem(side.serverPid());
        long t0 = System.nanoTime();
        long end = t0 + (long) (seconds * 1e9);
        long published = 0;
        long stalls = 0;
        long seen = d0;
        long seenAt = t0;
        long now = t0;
        while (now - end < 0) {
            long d = side.delivered();
            if (d != seen) {
                seen = d;
                seenAt = now;
            }
            if (published - (d - d0) / subscribers < window || now - seenAt > 20_000_000L) {
                if (now - seenAt > 20_000_000L) {
                    stalls++;
                    seenAt = now;
                }
                int len = w.wrap(buf, 0, buf.length).value(published & 0xFFFFFFFFL, 4).length();
                side.publish(Arrays.copyOf(buf, len));
                published++;
            } else {
                LockSupport.parkNanos(20_000);
            }
            now = System.nanoTime();
        }
        long drainEnd = now + 1_000_000_000L;
        while (side.delivered() - d0 < published * subscribers && System.nanoTime() - drainEnd < 0) {
            LockSupport.parkNanos(100_000);
        }
        long t1 = System.nanoTime();
        long[] c1 = ProcCpu.userSystem(side.serverPid());
        long system = c1[1] - c0[1];
        return new Round(side.name(), published, side.delivered() - d0, t1 - t0, c1[0] - c0[0] + system, system, stalls);
    }

    static double median(List<Round> rounds, java.util.function.ToDoubleFunction<Round> f) {
        double[] v = rounds.stream().mapToDouble(f).sorted().toArray();
        return v.length == 0 ? Double.NaN : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /**
     * The value of the {@code key=value} argument, or {@code def} when none is given; shared by the benchmarks'
     * mains.
     */
    public static String arg(String[] args, String key, String def) {
        for (String a : args) {
            if (a.startsWith(key + "=")) {
                return a.substring(key.length() + 1);
            }
        }
        return def;
    }

    /** {@link #arg} as an int; {@link NumberFormatException} when the value is not one. */
    public static int intArg(String[] args, String key, int def) {
        return Integer.parseInt(arg(args, key, String.valueOf(def)));
    }
}
