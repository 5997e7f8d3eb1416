package io.spectrum.bench.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of a whole process (user + system, every thread) from {@code /proc/PID/stat}, the same
 * reading for the Mosquitto broker and for a host JVM, so both sides of a comparison are measured
 * alike. Resolution is one clock tick (CLK_TCK, 100 Hz on Linux): rounds of a few seconds.
 */
public final class ProcCpu {
    /** Linux's USER_HZ: what {@code getconf CLK_TCK} answers on every mainstream kernel. */
    private static final long TICK_NANOS = 1_000_000_000L / 100;

    private ProcCpu() {
    }

    /** True where {@code /proc/self/stat} exists (Linux). */
    public static boolean available() {
        return Files.isReadable(Path.of("/proc/self/stat"));
    }

    /** utime + stime of {@code pid} in nanoseconds. */
    public static long nanos(long pid) {
        long[] us = userSystem(pid);
        return us[0] + us[1];
    }

    /** {utime, stime} of {@code pid} in nanoseconds: time in the process's own code vs in the kernel. */
    static long[] userSystem(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/" + pid + "/stat: " + e.getMessage(), e);
        }
        // "pid (comm) state ppid ...": comm may hold spaces, so count fields after the last ')'.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long utime = Long.parseLong(f[11]); // field 14
        long stime = Long.parseLong(f[12]); // field 15
        return new long[] {utime * TICK_NANOS, stime * TICK_NANOS};
    }
}
