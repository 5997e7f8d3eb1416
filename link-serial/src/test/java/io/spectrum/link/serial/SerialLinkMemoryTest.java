package io.spectrum.link.serial;

import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SerialLink over an in-memory line with a manual clock: life cycle and bad input. */
class SerialLinkMemoryTest {
    private final ManualClock clock = new ManualClock(0);
    private final InMemorySerialPort[] ends = InMemorySerialPort.pair("line", 1 << 16);
    private final SerialLinkConfig cfg = new SerialLinkConfig().maxFrame(256).reopenBackoffMillis(100, 800);
    private final SerialLink a = new SerialLink(1, ends[0], cfg, clock);
    private final SerialLink b = new SerialLink(2, ends[1], cfg, clock);
    private final Collector atA = new Collector();
    private final Collector atB = new Collector();

    SerialLinkMemoryTest() {
        a.setPeerListener(atA);
        b.setPeerListener(atB);
        a.poll(atA, 1);
        b.poll(atB, 1);
    }

    @Test
    void framesCrossInBothDirectionsAndThePeerComesUpOnTheFirstGoodFrame() {
        assertTrue(a.isPortOpen() && b.isPortOpen());
        assertEquals(List.of(), atB.events, "an open port is not yet a live peer");
        byte[] f1 = Frames.value(1, 16);
        byte[] f2 = Frames.value(2, 200);
        assertEquals(WireError.OK, a.send(0, f1, 0, f1.length));
        assertEquals(WireError.OK, a.send(0, f2, 0, f2.length));
        assertEquals(2, b.poll(atB, 10));
        assertArrayEquals(f1, atB.frames.get(0));
        assertArrayEquals(f2, atB.frames.get(1));
        assertEquals(List.of("up 0"), atB.events);
        assertEquals(List.of(0, 0), atB.peers);
        assertEquals(WireError.OK, b.send(0, f1, 0, f1.length));
        assertEquals(1, a.poll(atA, 10));
        assertEquals(List.of("up 0"), atA.events);
        assertEquals(WireError.TRANSPORT_DOWN, a.send(1, f1, 0, f1.length), "a serial line has only peer 0");
    }

    @Test
    void pollRespectsMaxFramesAndKeepsTheRest() {
        for (int i = 0; i < 5; i++) {
            byte[] f = Frames.value(i, 16);
            a.send(0, f, 0, f.length);
        }
        assertEquals(2, b.poll(atB, 2));
        assertEquals(3, b.poll(atB, 10));
        for (int i = 0; i < 5; i++) {
            assertEquals(i, Frames.counter(atB.frames.get(i), 0));
        }
    }

    @Test
    void aVanishedPortIsReportedDownAndReopenedByItselfAfterTheBackoff() {
        byte[] f = Frames.value(1, 16);
        a.send(0, f, 0, f.length);
        b.poll(atB, 10);
        assertEquals(List.of("up 0"), atB.events);

        ends[1].unplug();                                   // the USB adapter is pulled
        b.poll(atB, 10);
        assertEquals(List.of("up 0", "down 0"), atB.events);
        assertFalse(b.isPortOpen());
        assertEquals(WireError.TRANSPORT_DOWN, b.send(0, f, 0, f.length));

        ends[1].plug();
        clock.advanceMillis(50);
        b.poll(atB, 10);
        assertFalse(b.isPortOpen(), "still inside the 100 ms backoff");
        clock.advanceMillis(60);
        b.poll(atB, 10);
        assertTrue(b.isPortOpen(), "reopened by itself");
        assertEquals(2, ends[1].opens());
        assertEquals(1, b.stats().reconnects());
        assertEquals(List.of("up 0", "down 0"), atB.events, "up only when bytes flow again");

        a.send(0, f, 0, f.length);
        b.poll(atB, 10);
        assertEquals(List.of("up 0", "down 0", "up 0"), atB.events);
        assertEquals(2, atB.frames.size());
    }

    @Test
    void reopenBacksOffWhileThePortStaysAway() {
        ends[1].unplug();
        b.poll(atB, 10);                                   // lost: next try at +100 ms
        long[] waits = {100, 200, 400, 800, 800};
        long failuresBefore = b.openFailures();
        for (int i = 0; i < waits.length; i++) {
            clock.advanceMillis(waits[i] - 1);
            b.poll(atB, 10);
            assertEquals(failuresBefore + i, b.openFailures(), "no attempt before the backoff ends (step " + i + ")");
            clock.advanceMillis(1);
            b.poll(atB, 10);
            assertEquals(failuresBefore + i + 1, b.openFailures(), "one attempt when it ends (step " + i + ")");
        }
        ends[1].plug();
        clock.advanceMillis(800);
        b.poll(atB, 10);
        assertTrue(b.isPortOpen());
    }

    @Test
    void aWriteFailureTakesThePortDownAtTheNextPoll() {
        byte[] f = Frames.value(1, 16);
        b.send(0, f, 0, f.length);
        a.poll(atA, 10);
        ends[0].unplug();
        assertEquals(WireError.TRANSPORT_DOWN, a.send(0, f, 0, f.length));
        a.poll(atA, 10);
        assertEquals(List.of("up 0", "down 0"), atA.events);
        assertFalse(a.isPortOpen());
    }

    @Test
    void aSilentPeerOnAnOpenPortIsProbedThenReportedDown() {
        InMemorySerialPort[] line = InMemorySerialPort.pair("quiet", 4096);
        SerialLink x = new SerialLink(3, line[0], new SerialLinkConfig().peerTimeoutMillis(1000).pingIntervalMillis(400), clock);
        SerialLink y = new SerialLink(4, line[1], new SerialLinkConfig(), clock);
        Collector atX = new Collector();
        x.setPeerListener(atX);
        List<Integer> probes = new ArrayList<>();
        x.setLivenessProbe((link, peer) -> probes.add(peer));
        x.poll(atX, 1);
        y.poll(atX, 1);
        byte[] f = Frames.value(1, 16);
        y.send(0, f, 0, f.length);
        x.poll(atX, 10);
        clock.advanceMillis(450);
        x.poll(atX, 10);
        assertEquals(List.of(0), probes);
        clock.advanceMillis(600);
        x.poll(atX, 10);
        assertEquals(List.of("up 0", "down 0"), atX.events);
        assertTrue(x.isPortOpen(), "silence does not close the port");
        y.send(0, f, 0, f.length);
        x.poll(atX, 10);
        assertEquals(List.of("up 0", "down 0", "up 0"), atX.events);
    }

    @Test
    void aLinkThatWasNotPolledForLongerThanTheTimeoutReportsThePeerDownThenUpAgain() {
        byte[] f = Frames.value(1, 16);
        a.send(0, f, 0, f.length);
        b.poll(atB, 10);
        a.send(0, f, 0, f.length);
        clock.advanceMillis(11_000);                       // b froze longer than the 10 s default timeout
        b.poll(atB, 10);
        assertEquals(List.of("up 0", "down 0", "up 0"), atB.events);
    }

    @Test
    void garbageAndOversizeFramesAreDroppedCountedAndTheNextGoodFrameArrives() {
        byte[] garbage = new byte[300];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) ((i * 37 + 11) % 255 + 1);
        }
        garbage[150] = 0;                                                   // a delimiter in the middle
        ends[0].write(garbage, 0, garbage.length);
        ends[0].write(new byte[] {0}, 0, 1);
        // A well-stuffed frame with a good CRC whose content is not one libtracer frame.
        byte[] notOneFrame = {0x01, 0x00, 0x09, 0x00, 0x2A};
        byte[] wire = new byte[64];
        int n = CobsFramer.encode(notOneFrame, 0, notOneFrame.length, wire, 0, wire.length);
        ends[0].write(wire, 0, n);
        // A valid frame that is larger than this link's 256-byte limit.
        byte[] big = Frames.value(5, 400);
        byte[] bigWire = new byte[CobsFramer.maxEncodedLength(big.length)];
        n = CobsFramer.encode(big, 0, big.length, bigWire, 0, bigWire.length);
        ends[0].write(bigWire, 0, n);
        byte[] good = Frames.value(6, 16);
        assertEquals(WireError.OK, a.send(0, good, 0, good.length));

        assertEquals(1, b.poll(atB, 10));
        assertArrayEquals(good, atB.frames.get(0));
        assertEquals(2, b.stats().droppedCorrupt(), "both halves of the garbage");
        assertEquals(1, b.stats().droppedInvalid());
        assertEquals(1, b.stats().droppedOversize());
        assertEquals(1, b.stats().framesIn());

        assertEquals(WireError.FRAME_INVALID, a.send(0, big, 0, big.length));
        assertEquals(1, a.stats().droppedOversize());
        assertEquals(WireError.OK, a.send(0, good, 0, good.length));
        assertEquals(1, b.poll(atB, 10));
    }
}
