package io.spectrum.time;

/** The real clock. */
public final class SystemClock implements Clock {
    public static final SystemClock INSTANCE = new SystemClock();

    private SystemClock() {
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long epochNanos() {
        return System.currentTimeMillis() * 1_000_000L;
    }
}
