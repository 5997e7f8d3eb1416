package io.spectrum.link.serial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.time.ManualClock;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The serial writer's pacing and its drain wait on a {@link ManualClock}, with a fake native line: the
 * writer loop runs on the test's thread, and its sleeps move the manual clock, so every figure below
 * is the clock's exact time, not a measurement.
 */
@Timeout(30) // a hang guard, not a timing check
class PacedWriterTest {
    /** A native line that records each write and the clock's time of it, and stops the writer once it has {@code expect} bytes. */
    static final class RecordingLine implements PacedWriter.Line {
        final ManualClock clock;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<long[]> writes = new ArrayList<>(); // {time, bytes}
        PacedWriter writer;
        int expect;
        /** Write calls (1-based) that fail once: with this errno. */
        int failCall = -1;
        int failErrno;
        int calls;

        RecordingLine(ManualClock clock) {
            this.clock = clock;
        }

        @Override
        public int writeBytes(byte[] buf, int len, int off) {
            calls++;
            if (calls == failCall) {
                writes.add(new long[] {clock.nanoTime(), -1});
                return -1;
            }
            bytes.write(buf, off, len);
            writes.add(new long[] {clock.nanoTime(), len});
            if (bytes.size() >= expect) {
                writer.stop();
            }
            return len;
        }

        @Override
        public int lastErrorCode() {
            return failErrno;
        }

        @Override
        public int bytesAvailable() {
            return 0;
        }
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    /** Queues {@code data}, runs the writer loop until the line has it all, and returns the line. */
    private static RecordingLine run(int baud, byte[] data, ManualClock clock, int failCall, int failErrno) {
        PacedWriter w = new PacedWriter(baud, data.length, clock, clock);
        w.reset();
        assertEquals(data.length, w.offer(data, 0, data.length));
        RecordingLine line = new RecordingLine(clock);
        line.writer = w;
        line.expect = data.length;
        line.failCall = failCall;
        line.failErrno = failErrno;
        w.drain(line);
        assertArrayEquals(data, line.bytes.toByteArray(), "every byte, in order, nothing dropped");
        assertEquals(0, w.pending());
        return line;
    }

    @Test
    void afterItsBurstTheWriterFeedsTheLineAtBaudOverTenBytesPerSecond() {
        for (int baud : new int[] {9600, 115_200, 3_000_000}) {
            ManualClock clock = new ManualClock(0);
            byte[] data = pattern(4000);
            RecordingLine line = run(baud, data, clock, -1, 0);

            // the first 1 KiB goes at once, in one native write
            assertEquals(0L, line.writes.get(0)[0]);
            assertEquals(PacedWriter.BURST, line.writes.get(0)[1]);

            // never ahead of the line: by time t at most the burst plus t * baud / 10 bytes were written
            long written = 0;
            for (long[] wr : line.writes) {
                written += wr[1];
                long allowed = PacedWriter.BURST + wr[0] * baud / PacedWriter.BYTE;
                assertTrue(written <= allowed, baud + " baud: " + written + " bytes by " + wr[0] + " ns, the line takes " + allowed);
            }

            // and not slower than the line either: the last byte leaves when the line has taken the rest
            // (2976 bytes of 10 bits), give or take the writer's shortest pause
            long rest = (data.length - PacedWriter.BURST) * PacedWriter.BYTE / baud;
            long end = line.writes.get(line.writes.size() - 1)[0];
            assertTrue(end >= rest && end <= rest + PacedWriter.MIN_PAUSE_NANOS,
                    baud + " baud: the last byte left at " + end + " ns, the line needs " + rest + " ns");
        }
    }

    @Test
    void at9600BaudEachByteAfterTheBurstWaitsItsTenBitTimes() {
        ManualClock clock = new ManualClock(0);
        RecordingLine line = run(9600, pattern(PacedWriter.BURST + 3), clock, -1, 0);
        assertEquals(4, line.writes.size());
        // 10 bits at 9600 baud: 1041666.7 ns, so the writer waits 1041667 ns for a byte's credit
        assertEquals(1_041_667L, line.writes.get(1)[0]);
        assertEquals(1L, line.writes.get(1)[1]);
        assertEquals(2_083_334L, line.writes.get(2)[0]);
        // the rounding is not lost: the credit carried over makes the third wait one nanosecond shorter,
        // so three bytes take exactly three byte times (3125000 ns)
        assertEquals(3_125_000L, line.writes.get(3)[0]);
    }

    @Test
    void aFullDriverBufferIsRetriedAfterAPauseAndLosesNothing() {
        ManualClock clock = new ManualClock(0);
        RecordingLine line = run(115_200, pattern(PacedWriter.BURST + 100), clock, 2, 11); // EAGAIN on the 2nd write
        long[] refused = line.writes.get(1);
        long[] retried = line.writes.get(2);
        assertEquals(-1L, refused[1]);
        assertEquals(refused[0] + PacedWriter.RETRY_PAUSE_NANOS, retried[0], "retried after the pause, by the clock");
        assertEquals(1L, line.writer.transientRetries());
        assertFalse(line.writer.failed());
    }

    @Test
    void aFailedNativeWriteStopsTheWriterAndMarksItFailed() {
        ManualClock clock = new ManualClock(0);
        PacedWriter w = new PacedWriter(115_200, 64, clock, clock);
        w.reset();
        w.offer(pattern(10), 0, 10);
        RecordingLine line = new RecordingLine(clock);
        line.writer = w;
        line.expect = 10;
        line.failCall = 1;
        line.failErrno = 5; // EIO: the adapter is gone
        w.drain(line); // returns by itself
        assertTrue(w.failed());
        assertFalse(w.awaitDrained(JSerialCommPort.CLOSE_DRAIN_NANOS));
        assertEquals(0L, clock.nanoTime(), "a failed writer is not waited for");
    }

    @Test
    void closingWaitsForQueuedBytesUntilItsDeadlineOnTheClock() {
        ManualClock clock = new ManualClock(5_000L);
        PacedWriter w = new PacedWriter(115_200, 64, clock, clock);
        w.reset();
        assertTrue(w.awaitDrained(JSerialCommPort.CLOSE_DRAIN_NANOS), "nothing queued: no wait");
        assertEquals(5_000L, clock.nanoTime());

        w.offer(pattern(10), 0, 10); // no writer thread takes them
        assertFalse(w.awaitDrained(JSerialCommPort.CLOSE_DRAIN_NANOS));
        assertEquals(5_000L + JSerialCommPort.CLOSE_DRAIN_NANOS, clock.nanoTime(), "gave up exactly at the deadline");
        assertEquals(10, w.pending());
    }

    @Test
    void theRingTakesWhatFitsAndRefusesTheRest() {
        ManualClock clock = new ManualClock(0);
        PacedWriter w = new PacedWriter(115_200, 16, clock, clock);
        w.reset();
        assertEquals(16, w.offer(pattern(20), 0, 20));
        assertEquals(0, w.offer(pattern(1), 0, 1));
        assertEquals(16, w.pending());
    }
}
