package io.spectrum.time;

/**
 * How a thread waits a while when nothing can wake it earlier (a reconnect backoff, a retry): the
 * system clock sleeps ({@link SystemClock}); a {@link ManualClock} advances itself instead, so a
 * test of the retry runs at once and on the test's time.
 */
public interface Sleeper {
    /** Waits {@code nanos} by this clock. */
    void sleepNanos(long nanos) throws InterruptedException;
}
