package io.spectrum.time;

/** The real clock: the one place the system time is read and slept on (besides the idle strategies). */
public final class SystemClock implements Clock, Sleeper {
    /** The one instance: stateless and thread-safe. */
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

    @Override
    public void sleepNanos(long nanos) throws InterruptedException {
        if (nanos > 0) {
            Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
        }
    }
}
