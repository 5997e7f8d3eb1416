package io.spectrum.bench.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One slow subscriber among 100. Two host JVMs ({@link BenchHost}), interleaved
 * rounds: one with 100 ordinary UDP subscribers, one with 99 ordinary subscribers and a slow one
 * (its socket read at {@code slowPerSecond} frames a second, a 64 KiB receive buffer). The
 * publisher's window follows the ordinary subscribers in both. Figure: deliveries per second per
 * ordinary subscriber with the slow one vs without it (goal: within 10%), medians of the rounds.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.host.SlowSubscriberBench
 * [subscribers=100] [slowPerSecond=100] [rounds=5] [seconds=3] [window=64] [core=narrow|wide]}
 */
public final class SlowSubscriberBench {
    private SlowSubscriberBench() {
    }

    /**
     * Runs both host JVMs in interleaved rounds and prints the ordinary subscribers' rate with and without the slow
     * one; arguments as in the class comment.
     */
    public static void main(String[] args) throws Exception {
        int n = HostVsMosquitto.intArg(args, "subscribers", 100);
        int slowRate = HostVsMosquitto.intArg(args, "slowPerSecond", 100);
        int rounds = HostVsMosquitto.intArg(args, "rounds", 5);
        double seconds = Double.parseDouble(HostVsMosquitto.arg(args, "seconds", "3"));
        int window = HostVsMosquitto.intArg(args, "window", 64);
        String core = HostVsMosquitto.arg(args, "core", "narrow");
        System.out.printf(Locale.ROOT, "SlowSubscriberBench: %d subscribers, one of them read at %d frames/s; %d rounds x %.1f s; host core %s%n",
                n, slowRate, rounds, seconds, core);
        try (SpectrumSide plain = new SpectrumSide(core, n); SpectrumSide slow = new SpectrumSide(core, n - 1, slowRate)) {
            List<Double> without = new ArrayList<>();
            List<Double> with = new ArrayList<>();
            for (int r = 0; r <= rounds; r++) {
                for (SpectrumSide side : r % 2 == 0 ? new SpectrumSide[] {plain, slow} : new SpectrumSide[] {slow, plain}) {
                    int ordinary = side == plain ? n : n - 1;
                    long s0 = side.slowDelivered();
                    HostVsMosquitto.Round x = HostVsMosquitto.round(side, ordinary, seconds, window);
                    double perSubscriber = x.perSecond() / ordinary;
                    System.out.printf(Locale.ROOT, "  round %d %-22s %,10.0f msg/s per ordinary subscriber  lost %d  stalls %d%s%s%n",
                            r, side.name(), perSubscriber, x.lost(ordinary), x.stalls(),
                            side == slow ? String.format(Locale.ROOT, "  slow one read %,.0f msg/s", (side.slowDelivered() - s0) * 1e9 / x.nanos()) : "",
                            r == 0 ? "  (warm-up)" : "");
                    if (r > 0) {
                        (side == plain ? without : with).add(perSubscriber);
                    }
                }
            }
            double a = median(without);
            double b = median(with);
            System.out.printf(Locale.ROOT, "median per ordinary subscriber: without the slow one %,.0f msg/s, with it %,.0f msg/s (%+.1f%%; goal: not more than 10%% slower)%n",
                    a, b, 100 * (b - a) / a);
        }
    }

    static double median(List<Double> v) {
        double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s.length == 0 ? Double.NaN : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
