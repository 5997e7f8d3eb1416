package io.spectrum.link.serial;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.testing.Frames;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Framing, deframing and both links' send/poll allocate nothing per frame (run with -XX:-DoEscapeAnalysis). */
class SerialLinkAllocationTest {
    private static final com.sun.management.ThreadMXBean TMX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    static final class Sink implements FrameHandler {
        long last = -1;
        long frames;

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v |= (buf[off + 4 + i] & 0xFFL) << (8 * i);
            }
            last = v;
            frames++;
        }
    }

    private static void stamp(byte[] f, long c) {
        for (int i = 0; i < 8; i++) {
            f[4 + i] = (byte) (c >>> (8 * i));
        }
    }

    private static boolean roundTrip(SerialLink a, SerialLink b, Sink atA, Sink atB, byte[] f, long c) {
        stamp(f, c);
        if (a.send(0, f, 0, f.length) != WireError.OK || b.poll(atB, 1) != 1 || atB.last != c) {
            return false;
        }
        return b.send(0, f, 0, f.length) == WireError.OK && a.poll(atA, 1) == 1 && atA.last == c;
    }

    @Test
    void oneHundredThousandRoundTripsAllocateNothing() {
        InMemorySerialPort[] line = InMemorySerialPort.pair("alloc", 1 << 16);
        SerialLinkConfig cfg = new SerialLinkConfig().maxFrame(1024);
        SerialLink a = new SerialLink(1, line[0], cfg, SystemClock.INSTANCE);
        SerialLink b = new SerialLink(2, line[1], cfg, SystemClock.INSTANCE);
        Sink atA = new Sink();
        Sink atB = new Sink();
        a.poll(atA, 1);
        b.poll(atB, 1);
        byte[] f = Frames.value(0, 64);
        long c = 0;
        for (int i = 0; i < 50_000; i++) {
            assertEquals(true, roundTrip(a, b, atA, atB, f, ++c));
        }
        long tid = Thread.currentThread().getId();
        long[] allocated = new long[3];
        for (int r = 0; r < allocated.length; r++) {
            long before = TMX.getThreadAllocatedBytes(tid);
            boolean ok = true;
            for (int i = 0; i < 100_000 && ok; i++) {
                ok = roundTrip(a, b, atA, atB, f, ++c);
            }
            allocated[r] = TMX.getThreadAllocatedBytes(tid) - before;
            assertEquals(true, ok);
        }
        System.out.println("serial in-memory: 3 x 200000 frames, allocated bytes=" + Arrays.toString(allocated));
        for (long x : allocated) {
            assertEquals(0, x);
        }
    }
}
