package io.spectrum.link.dtls;

import io.spectrum.time.Clock;

import java.util.concurrent.atomic.AtomicLong;

/** A manual clock the link's own thread sees move too (ManualClock is single-threaded). */
final class SharedClock implements Clock {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    void advanceMillis(long ms) {
        nanos.addAndGet(ms * 1_000_000L);
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public long epochNanos() {
        return 1_700_000_000_000_000_000L + nanos.get();
    }
}
