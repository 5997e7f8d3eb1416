package io.spectrum.time.archfixture;

/** Breaks the time-source rule on purpose: the negative control of TimeSourcesTest. */
public final class ReadsTheSystemTime {
    private ReadsTheSystemTime() {
    }

    static long deadline() {
        return System.nanoTime() + 1_000_000L;
    }

    static void pause() {
        java.util.concurrent.locks.LockSupport.parkNanos(1_000L);
    }
}
