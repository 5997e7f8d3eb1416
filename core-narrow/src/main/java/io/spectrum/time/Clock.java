package io.spectrum.time;

/** Injected time, so grace periods, purges and liveness can be tested without sleeping. */
public interface Clock {
    /** Monotonic nanoseconds, for intervals. */
    long nanoTime();

    /** Wall-clock nanoseconds since the Unix epoch, for trailers and reports. */
    long epochNanos();
}
