package io.spectrum.bench.node;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A companion to the node JMH benchmarks for a shared, overloaded machine: the thread's CPU time
 * (not wall time) per operation, best of several rounds, so time spent waiting for a core does not
 * count. Drives the same benchmark states. Not a JMH benchmark; run it with
 * {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.node.NodeCpuTime}.
 */
public final class NodeCpuTime {
    private static final ThreadMXBean TM = ManagementFactory.getThreadMXBean();
    private static long sink;

    private NodeCpuTime() {
    }

    static double best(LongSupplier op, int n) {
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 8; round++) {
            long c0 = TM.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                sink += op.getAsLong();
            }
            long c1 = TM.getCurrentThreadCpuTime();
            best = Math.min(best, (c1 - c0) / (double) n);
        }
        return best;
    }

    /**
     * Prints the thread CPU time per operation for each subscriber count; the optional argument is the operations per
     * round (default 1,000,000).
     */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        for (int subs : new int[] {1, 8, 32, 1024, 4096}) {
            ToggleBench t = new ToggleBench();
            t.n = subs;
            t.setup();
            double toggle = best(t::suspendResume, n);
            double resub = best(t::unsubscribeResubscribe, n / 4);
            System.out.printf(Locale.ROOT, "N=%-5d suspend+resume %7.1f ns   unsubscribe+resubscribe %8.1f ns%n", subs, toggle, resub);
        }
        for (int subs : new int[] {1, 8, 64, 1024}) {
            FanoutBench f = new FanoutBench();
            f.n = subs;
            f.setup();
            double w = best(f::write, Math.max(1000, n / subs));
            System.out.printf(Locale.ROOT, "fan-out to %-5d local subscribers %9.1f ns per write (%.1f ns per delivery)%n", subs, w, w / subs);
        }
        WriteDeliveryBench d = new WriteDeliveryBench();
        d.setup();
        System.out.printf(Locale.ROOT, "1:1 write->delivery %7.1f ns   unobserved write %7.1f ns   read %7.1f ns%n",
                best(d::writeToOneSubscriber, n), best(d::unobservedWrite, n), best(() -> d.read(), n));
        WireBench wb = new WireBench();
        wb.setup();
        System.out.printf(Locale.ROOT, "FWD toggle pair (suspend+resume over the wire) %7.1f ns   remote write to one remote edge %7.1f ns   remote read %7.1f ns%n",
                best(wb::wireToggle, n / 4), best(wb::remoteWriteToOneRemoteEdge, n / 4), best(wb::remoteRead, n / 4));
        System.out.println("(thread CPU time, best of 8 rounds; checksum " + sink + ")");
    }
}
