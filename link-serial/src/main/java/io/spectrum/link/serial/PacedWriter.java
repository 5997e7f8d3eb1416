package io.spectrum.link.serial;

import io.spectrum.time.Clock;
import io.spectrum.time.Sleeper;

/**
 * The write side of a {@link JSerialCommPort}: a bounded ring that {@link #offer} fills without
 * blocking, and the loop ({@link #drain}) its one writer thread runs to hand the ring's bytes to the
 * native line no faster than the line takes them. On 8N1 a byte is 10 bits on the wire, so the line
 * takes baud/10 bytes per second; the writer may run {@link #BURST} bytes ahead of that (a token
 * bucket: idle time earns credit up to the burst, each byte written spends one byte of it).
 *
 * <p>Time is read from the injected {@link Clock} and every wait goes through the injected
 * {@link Sleeper}: the system clock on a real port, a {@code ManualClock} in a test, where the
 * pacing runs on the test's time. Credit is kept in whole numbers (bit-nanoseconds per second:
 * a nanosecond earns {@code baud}, a byte costs {@link #BYTE}), so a wait is exact to the nanosecond.
 *
 * <p>The ring is guarded by its own monitor: {@link #offer} and {@link #pending} from any thread,
 * {@link #drain} on the writer thread only.
 */
final class PacedWriter {
    /** The native end the writer hands bytes to: jSerialComm's port, or a fake in a test. */
    interface Line {
        /** Writes {@code len} bytes of {@code buf} from {@code off}; bytes written, negative on failure. */
        int writeBytes(byte[] buf, int len, int off);

        /** The errno of the last failed call. */
        int lastErrorCode();

        /** Bytes waiting to be read; negative when the port is gone. */
        int bytesAvailable();
    }

    /** How far (in bytes) the writer may run ahead of the line; also its largest native write. */
    static final int BURST = 1024;
    /** The cost of one 8N1 byte in credit: 10 bits times a second in nanoseconds. */
    static final long BYTE = 10L * 1_000_000_000L;
    /** The shortest pause while the line has no room (a fast line takes several bytes per pause). */
    static final long MIN_PAUSE_NANOS = 20_000L;
    /** The pause before writing again after the driver's buffer was full (EAGAIN) or a call was interrupted. */
    static final long RETRY_PAUSE_NANOS = 100_000L;
    /** How often {@link #awaitDrained} looks at the ring again. */
    static final long DRAIN_POLL_NANOS = 1_000_000L;

    private final long baud;
    private final Clock clock;
    private final Sleeper sleeper;
    private final byte[] ring;
    private final byte[] chunk = new byte[BURST];
    private final long cap;
    private int head;
    private int count;
    private volatile boolean running;
    private volatile boolean failed;
    private volatile long transientRetries;
    /** The writer thread's credit and when it was last earned (writer thread only). */
    private long credit;
    private long last;

    /** A writer for a line at {@code baud} with a ring of {@code ringBytes}, on {@code clock} and {@code sleeper}. */
    PacedWriter(int baud, int ringBytes, Clock clock, Sleeper sleeper) {
        if (baud <= 0 || ringBytes <= 0) {
            throw new IllegalArgumentException("baud and ring size are positive: " + baud + ", " + ringBytes);
        }
        this.baud = baud;
        this.clock = clock;
        this.sleeper = sleeper;
        this.ring = new byte[ringBytes];
        this.cap = BURST * BYTE;
    }

    /** Empties the ring and arms the writer for a new open port. */
    void reset() {
        synchronized (this) {
            head = 0;
            count = 0;
        }
        failed = false;
        running = true;
    }

    /** Stops the writer: {@link #drain} returns at its next look at the ring. */
    void stop() {
        running = false;
        synchronized (this) {
            notifyAll();
        }
    }

    /** True once a native write failed for good (unplugged adapter, closed pty). */
    boolean failed() {
        return failed;
    }

    /** Native writes that met a full driver buffer (EAGAIN) or an interrupted call and were retried. */
    long transientRetries() {
        return transientRetries;
    }

    /** Bytes accepted by {@link #offer} that {@link #drain} has not handed to the line yet. */
    synchronized int pending() {
        return count;
    }

    /** Copies what fits of {@code len} bytes into the ring; bytes taken (0 when it is full). */
    synchronized int offer(byte[] buf, int off, int len) {
        int n = Math.min(len, ring.length - count);
        int tail = (head + count) % ring.length;
        for (int i = 0; i < n; i++) {
            ring[tail] = buf[off + i];
            tail = tail + 1 == ring.length ? 0 : tail + 1;
        }
        count += n;
        if (n > 0) {
            notifyAll();
        }
        return n;
    }

    /**
     * The writer thread's loop: moves bytes from the ring to {@code line} at the line's pace until
     * {@link #stop} or a failed write (then {@link #failed}). A full driver buffer (EAGAIN) or an
     * interrupted call is no failure: the rest is written after {@link #RETRY_PAUSE_NANOS}, nothing is
     * dropped. Returns when the thread is interrupted, too.
     */
    void drain(Line line) {
        credit = cap;
        last = clock.nanoTime();
        try {
            while (true) {
                earn(clock.nanoTime());
                if (credit < BYTE) {
                    sleeper.sleepNanos(Math.max(MIN_PAUSE_NANOS, nanosToOneByte()));
                    continue;
                }
                int n = take();
                if (n < 0) {
                    return;
                }
                // the time spent waiting for bytes earns credit too, but never beyond the burst
                earn(clock.nanoTime());
                credit -= n * BYTE;
                if (!write(line, n)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for bytes and moves at most the credit's worth into {@link #chunk}; -1 once stopped. */
    private int take() throws InterruptedException {
        synchronized (this) {
            while (count == 0 && running) {
                wait();
            }
            if (!running) {
                return -1;
            }
            int n = (int) Math.min(Math.min(count, chunk.length), credit / BYTE);
            for (int i = 0; i < n; i++) {
                chunk[i] = ring[head];
                head = head + 1 == ring.length ? 0 : head + 1;
            }
            count -= n;
            return n;
        }
    }

    /** Hands {@code n} bytes of {@link #chunk} to the line; false when the writer must stop. */
    private boolean write(Line line, int n) throws InterruptedException {
        int done = 0;
        while (done < n) {
            int w = line.writeBytes(chunk, n - done, done);
            if (w < 0 && isTransient(line.lastErrorCode())) {
                if (!running) {
                    return false;
                }
                transientRetries++;
                sleeper.sleepNanos(RETRY_PAUSE_NANOS);
                continue;
            }
            if (w < 0 || (w == 0 && line.bytesAvailable() < 0)) {
                failed = true;
                return false;
            }
            done += w;
        }
        return true;
    }

    /** Adds the credit earned since the last call, up to the burst. */
    private void earn(long now) {
        long dt = now - last;
        last = now;
        if (dt <= 0) {
            return;
        }
        long room = cap - credit;
        // compare before multiplying: a long idle times a fast baud would overflow
        credit = dt > room / baud ? cap : credit + dt * baud;
    }

    /** Nanoseconds until the credit covers one byte (rounded up). */
    private long nanosToOneByte() {
        return (BYTE - credit + baud - 1) / baud;
    }

    /**
     * Waits, on the clock, until the writer has handed every queued byte to the line, or failed, or
     * {@code timeoutNanos} passed; true when nothing is left. An interrupt ends the wait (the thread
     * keeps its interrupt status).
     */
    boolean awaitDrained(long timeoutNanos) {
        long deadline = clock.nanoTime() + timeoutNanos;
        while (!failed && pending() > 0) {
            long left = deadline - clock.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                sleeper.sleepNanos(Math.min(left, DRAIN_POLL_NANOS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return !failed;
    }

    /** EAGAIN / EWOULDBLOCK (11) and EINTR (4) on Linux: try again, the port is fine. */
    private static boolean isTransient(int errno) {
        return errno == 11 || errno == 4;
    }
}
