package io.spectrum.node;

/**
 * Runs the mixed workload for a given number of operations; meant for a JVM with the Epsilon
 * collector and a small heap, where any per-operation allocation ends the run with an
 * OutOfMemoryError. Prints {@code ops=<n> checksum=<c>}.
 */
public final class EpsilonMain {
    private EpsilonMain() {
    }

    public static void main(String[] args) {
        long ops = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        MixedWorkload w = new MixedWorkload();
        long rounds = (ops + MixedWorkload.OPS_PER_ROUND - 1) / MixedWorkload.OPS_PER_ROUND;
        long sum = w.run(rounds);
        System.out.println("ops=" + rounds * MixedWorkload.OPS_PER_ROUND + " checksum=" + sum + " frames=" + w.link.sendCalls());
    }
}
