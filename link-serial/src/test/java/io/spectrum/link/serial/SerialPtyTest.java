package io.spectrum.link.serial;

import io.spectrum.link.serial.pty.PtyPair;

import io.spectrum.link.Link;
import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** SerialLink over real pseudo-terminals ({@link PtyPair}) through jSerialComm. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SerialPtyTest {
    /** A pty ignores baud, but JSerialCommPort paces its writes to it: 3 Mbaud = 300 KB/s. */
    static final int BAUD = 3_000_000;
    @TempDir
    Path dir;
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @BeforeEach
    void needPtys() {
        assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "pseudo-terminal pairs are made on Linux only");
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    private ReplugPty pair(String name) throws Exception {
        Path d = dir.resolve(name);
        java.nio.file.Files.createDirectories(d);
        ReplugPty p = new ReplugPty(d);
        cleanup.add(p);
        return p;
    }

    private SerialLink link(int id, Path device) {
        SerialLink l = SerialLink.open(id, device.toString(),
                new SerialLinkConfig().baud(BAUD).reopenBackoffMillis(20, 200), SystemClock.INSTANCE);
        cleanup.add(l::close);
        return l;
    }

    /** Polls until {@code c} holds {@code n} frames (or 10 s passed: a hang guard, not a timing check). */
    private static void pollUntil(Link l, Collector c, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (c.frames.size() < n && System.nanoTime() < deadline) {
            if (l.poll(c, 64) == 0) {
                Thread.sleep(1);
            }
        }
    }

    /** Sends, polling both ends while the line pushes back (a pty holds only a few KiB). */
    private static void sendAll(SerialLink l, byte[] f, SerialLink other, Collector atL, Collector atOther)
            throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        int rc;
        while ((rc = l.send(0, f, 0, f.length)) == WireError.FLOW_BACKPRESSURE && System.nanoTime() < deadline) {
            l.poll(atL, 64);
            if (other != null) {
                other.poll(atOther, 64);
            }
            Thread.sleep(0, 100_000);
        }
        assertEquals(WireError.OK, rc);
    }

    @Test
    void framesCrossAPtyPairInBothDirections() throws Exception {
        ReplugPty p = pair("x");
        SerialLink a = link(1, p.a);
        SerialLink b = link(2, p.b);
        Collector atA = new Collector();
        Collector atB = new Collector();
        a.setPeerListener(atA);
        b.setPeerListener(atB);
        int n = 500;
        for (int i = 0; i < n; i++) {
            byte[] f = Frames.value(i, 16 + i % 300);
            sendAll(a, f, b, atA, atB);
            sendAll(b, f, a, atB, atA);
            a.poll(atA, 64);
            b.poll(atB, 64);
        }
        // Poll both ends: a frame the line could not take yet waits in its sender's link and is
        // pushed on by that link's next poll.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ((atA.frames.size() < n || atB.frames.size() < n) && System.nanoTime() < deadline) {
            if (a.poll(atA, 64) + b.poll(atB, 64) == 0) {
                Thread.sleep(1);
            }
        }
        String why = "reconnects a=" + a.stats().reconnects() + " b=" + b.stats().reconnects() + " corrupt a="
                + a.stats().droppedCorrupt() + " b=" + b.stats().droppedCorrupt() + " events a=" + atA.events + " b=" + atB.events;
        assertEquals(n, atA.frames.size(), why);
        assertEquals(n, atB.frames.size(), why);
        for (int i = 0; i < n; i++) {
            assertArrayEquals(Frames.value(i, 16 + i % 300), atA.frames.get(i));
            assertArrayEquals(Frames.value(i, 16 + i % 300), atB.frames.get(i));
        }
        assertEquals(List.of("up 0"), atA.events);
        assertEquals(0, b.stats().droppedCorrupt());
    }

    @Test
    void whenThePtyPairIsUnpluggedTheLinksGoDownAndReopenByThemselvesWhenItIsBack() throws Exception {
        ReplugPty p = pair("y");
        SerialLink a = link(1, p.a);
        SerialLink b = link(2, p.b);
        Collector atA = new Collector();
        Collector atB = new Collector();
        a.setPeerListener(atA);
        b.setPeerListener(atB);
        byte[] f = Frames.value(1, 32);
        a.send(0, f, 0, f.length);
        pollUntil(b, atB, 1);
        b.send(0, f, 0, f.length);
        pollUntil(a, atA, 1);
        assertEquals(List.of("up 0"), atA.events);
        assertEquals(List.of("up 0"), atB.events);

        p.unplug();                                          // both pty ends vanish
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ((a.isPortOpen() || b.isPortOpen()) && System.nanoTime() < deadline) {
            a.poll(atA, 8);
            b.poll(atB, 8);
            Thread.sleep(5);
        }
        assertEquals(List.of("up 0", "down 0"), atA.events);
        assertEquals(List.of("up 0", "down 0"), atB.events);
        assertEquals(WireError.TRANSPORT_DOWN, a.send(0, f, 0, f.length));
        Thread.sleep(100);
        a.poll(atA, 8);                                       // a failed reopen or two while it is gone
        assertTrue(a.openFailures() > 0, "it tried to reopen while the port was gone");

        p.replug();                                          // same link names, new /dev/pts numbers
        deadline = System.nanoTime() + 10_000_000_000L;
        while (!(a.isPortOpen() && b.isPortOpen()) && System.nanoTime() < deadline) {
            a.poll(atA, 8);
            b.poll(atB, 8);
            Thread.sleep(5);
        }
        assertTrue(a.isPortOpen() && b.isPortOpen(), "both links reopened by themselves");
        byte[] g = Frames.value(2, 32);
        assertEquals(WireError.OK, a.send(0, g, 0, g.length));
        pollUntil(b, atB, 2);
        assertArrayEquals(g, atB.frames.get(1));
        assertEquals(List.of("up 0", "down 0", "up 0"), atB.events);
        assertEquals(1, b.stats().reconnects());
    }

    @Test
    void aChildProcessOnTheOtherEndEchoesEveryFrame() throws Exception {
        ReplugPty p = pair("z");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                SerialEchoMain.class.getName(), p.b.toString(), Integer.toString(BAUD));
        pb.redirectErrorStream(true);
        Process child = pb.start();
        cleanup.add(() -> {
            child.destroy();
            if (!child.waitFor(5, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        });
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String ready = out.readLine();
        assertTrue(ready != null && ready.startsWith("echo ready"), "child said: " + ready);

        SerialLink a = link(1, p.a);
        Collector atA = new Collector();
        a.setPeerListener(atA);
        int n = 300;
        for (int i = 0; i < n; i++) {
            byte[] f = Frames.value(i, 16 + i % 200);
            sendAll(a, f, null, atA, null);
            a.poll(atA, 64);
        }
        pollUntil(a, atA, n);
        assertEquals(n, atA.frames.size());
        for (int i = 0; i < n; i++) {
            assertArrayEquals(Frames.value(i, 16 + i % 200), atA.frames.get(i));
        }
        byte[] stop = {0x09, 0x00, 0x00, 0x00};
        sendAll(a, stop, null, atA, null);
        while (a.hasPendingWrite()) {
            a.poll(atA, 64);
            Thread.sleep(1);
        }
        assertTrue(child.waitFor(20, TimeUnit.SECONDS), "child exits on STATUS");
        String last = null;
        for (String line; (line = out.readLine()) != null; ) {
            last = line;
        }
        assertEquals("echo done frames=" + (n + 1), last);
        assertEquals(0, child.exitValue());
    }

    @Test
    void aNoisyRelayBetweenTwoPtyPairsNeverDeliversADamagedFrame() throws Exception {
        ReplugPty left = pair("l");
        ReplugPty right = pair("r");
        SerialLink sender = link(1, left.a);
        SerialLink receiver = link(2, right.b);
        JSerialCommPort relayIn = new JSerialCommPort(left.b.toString(), BAUD);
        JSerialCommPort relayOut = new JSerialCommPort(right.a.toString(), BAUD);
        assertTrue(relayIn.open() && relayOut.open());
        cleanup.add(relayIn::close);
        cleanup.add(relayOut::close);
        int n = 1500;
        NoisyRelay relay = new NoisyRelay(relayIn, relayOut, 99L, 1000, n);
        SerialFaultTest.Checker checker = new SerialFaultTest.Checker(n);
        sender.poll(checker, 1);
        // Let the opening delimiter through first so the relay's frame count starts at frame 0.
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (relay.frameIndex == 0 && System.nanoTime() < deadline) {
            relay.pump();
            Thread.sleep(1);
        }
        for (int k = 1; k <= n; k++) {
            byte[] f = Frames.value(k, SerialFaultTest.sizeOf(k));
            long until = System.nanoTime() + 10_000_000_000L;
            while (sender.send(0, f, 0, f.length) == WireError.FLOW_BACKPRESSURE && System.nanoTime() < until) {
                sender.poll(checker, 1);
                relay.pump();
                receiver.poll(checker, 64);
            }
            relay.pump();
            receiver.poll(checker, 64);
        }
        deadline = System.nanoTime() + 10_000_000_000L;
        while (relay.frameIndex < n + 1 && System.nanoTime() < deadline) {
            sender.poll(checker, 1);
            if (relay.pump() == 0) {
                Thread.sleep(1);
            }
            receiver.poll(checker, 64);
        }
        // Drain: until the relay's writer is empty and nothing new arrived for 300 ms (10 s at most).
        long quietSince = System.nanoTime();
        long lastFrames = -1;
        deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            relay.pump();
            receiver.poll(checker, 1024);
            if (checker.frames != lastFrames || relayOut.pendingBytes() > 0 || !relay.idle()) {
                lastFrames = checker.frames;
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince > 300_000_000L) {
                break;
            }
            Thread.sleep(2);
        }
        int damaged = 0;
        int lostClean = 0;
        StringBuilder lost = new StringBuilder();
        for (int k = 1; k <= n; k++) {
            if (relay.damaged[k]) {
                damaged++;
                assertTrue(!checker.delivered[k], "damaged frame " + k + " was delivered");
            } else if (!relay.damaged[k - 1] && !checker.delivered[k]) {
                lostClean++;
                lost.append(k).append(' ');
            }
        }
        System.out.printf("serial pty relay: frames=%d damaged=%d delivered=%d droppedCorrupt=%d%n",
                n, damaged, checker.frames, receiver.stats().droppedCorrupt());
        assertTrue(damaged > 20);
        assertEquals(0, checker.mismatched);
        assertEquals(0, lostClean, "resynchronised within the next frame; clean frames lost: " + lost
                + " relay frames seen=" + relay.frameIndex + " reconnects=" + receiver.stats().reconnects()
                + " sender reconnects=" + sender.stats().reconnects());
        assertTrue(receiver.stats().droppedCorrupt() + receiver.stats().droppedOversize() >= damaged / 2);
    }
}
