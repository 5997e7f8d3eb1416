package io.spectrum.time;

/** A clock that moves only when told to; for tests and simulations. */
public final class ManualClock implements Clock {
    private long nanos;
    private long epochBase;

    public ManualClock(long startNanos) {
        nanos = startNanos;
        epochBase = 1_700_000_000_000_000_000L;
    }

    public void advanceNanos(long delta) {
        nanos += delta;
    }

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
}
