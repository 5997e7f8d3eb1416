package io.spectrum.time;

/**
 * A clock that moves only when told to; for tests and simulations. Sleeping on it advances it (a
 * retry's backoff passes at once, on the test's time).
 */
public final class ManualClock implements Clock, Sleeper {
    private long nanos;
    private long epochBase;

    /**
     * A clock whose {@link #nanoTime()} starts at {@code startNanos}; its epoch time is a fixed
     * base (2023-11-14T22:13:20Z) plus that.
     */
    public ManualClock(long startNanos) {
        nanos = startNanos;
        epochBase = 1_700_000_000_000_000_000L;
    }

    /**
     * Moves the clock forward by {@code delta} nanoseconds (a negative delta moves it back; tests
     * only).
     */
    public void advanceNanos(long delta) {
        nanos += delta;
    }

    /** Moves the clock forward by {@code millis} milliseconds. */
    public void advanceMillis(long millis) {
        nanos += millis * 1_000_000L;
    }

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public long epochNanos() {
        return epochBase + nanos;
    }

    @Override
    public void sleepNanos(long delta) {
        if (delta > 0) {
            nanos += delta;
        }
    }
}
