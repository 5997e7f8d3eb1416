package io.spectrum.link.udp;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.testing.Frames;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The single-peer path (dialer to listener and back) allocates nothing per frame. Surefire runs this
 * module with -XX:-DoEscapeAnalysis, so a zero here is by construction, not by JIT luck.
 */
class UdpLinkAllocationTest {
    private static final com.sun.management.ThreadMXBean TMX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Non-capturing handler that remembers the last counter and peer. */
    static final class Sink implements FrameHandler {
        long lastCounter = -1;
        int lastPeer = -1;
        long frames;

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v |= (buf[off + 4 + i] & 0xFFL) << (8 * i);
            }
            lastCounter = v;
            lastPeer = peer;
            frames++;
        }
    }

    private static void stamp(byte[] frame, long counter) {
        for (int i = 0; i < 8; i++) {
            frame[4 + i] = (byte) (counter >>> (8 * i));
        }
    }

    /** One round trip: client -> server -> client. Returns false if a frame went missing. */
    static boolean roundTrip(UdpLink client, UdpLink server, Sink atServer, Sink atClient,
                                     byte[] frame, long counter) {
        stamp(frame, counter);
        if (client.send(0, frame, 0, frame.length) != WireError.OK) {
            return false;
        }
        long spins = 0;
        while (atServer.lastCounter != counter) {
            if (server.poll(atServer, 1) == 0 && ++spins > 50_000_000L) {
                return false;
            }
        }
        if (server.send(atServer.lastPeer, frame, 0, frame.length) != WireError.OK) {
            return false;
        }
        spins = 0;
        while (atClient.lastCounter != counter) {
            if (client.poll(atClient, 1) == 0 && ++spins > 50_000_000L) {
                return false;
            }
        }
        return true;
    }

    @Test
    void sendAndPollAllocateNothingOverOneHundredThousandRoundTrips() throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig(), SystemClock.INSTANCE);
        UdpLink client = UdpLink.dial(2, server.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE);
        try {
            Sink atServer = new Sink();
            Sink atClient = new Sink();
            byte[] frame = Frames.value(0, 16);
            long tid = Thread.currentThread().getId();
            long counter = 0;
            for (int i = 0; i < 50_000; i++) {
                assertEquals(true, roundTrip(client, server, atServer, atClient, frame, ++counter));
            }
            int rounds = 100_000;
            long[] allocated = new long[3];
            for (int r = 0; r < allocated.length; r++) {
                long before = TMX.getThreadAllocatedBytes(tid);
                boolean ok = true;
                for (int i = 0; i < rounds && ok; i++) {
                    ok = roundTrip(client, server, atServer, atClient, frame, ++counter);
                }
                allocated[r] = TMX.getThreadAllocatedBytes(tid) - before;
                assertEquals(true, ok, "a frame went missing on loopback");
            }
            System.out.println("udp single-peer: 3 x " + (2 * rounds) + " frames, allocated bytes="
                    + java.util.Arrays.toString(allocated));
            for (long a : allocated) {
                assertEquals(0, a, "bytes allocated over " + (2 * rounds) + " frames");
            }
            assertEquals(50_000 + 3 * rounds, atServer.frames);
            assertEquals(50_000 + 3 * rounds, atClient.frames);
        } finally {
            client.close();
            server.close();
        }
    }

    /**
     * The batched path with queued sends (both drivers flush once per step, as the node loop does):
     * recvmmsg, sendmmsg and the key lookup allocate nothing. Skipped where batched I/O is off.
     */
    @Test
    void queuedSendsAndBatchedPollsAllocateNothing() throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig(), SystemClock.INSTANCE);
        UdpLink client = UdpLink.dial(2, server.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE);
        try {
            org.junit.jupiter.api.Assumptions.assumeTrue(server.batchedIo() && client.batchedIo(), "batched I/O off here");
            int rounds = 100_000;
            long allocated = queuedBursts(server, client, 1, 50_000, rounds);
            System.out.println("udp batched, queued sends: " + (2 * rounds) + " frames, allocated bytes=" + allocated);
            assertEquals(0, allocated, "bytes allocated over " + (2 * rounds) + " frames");
            assertEquals(50_000 + rounds, client.stats().framesOut());
        } finally {
            client.close();
            server.close();
        }
    }

    /**
     * A burst of 16 frames each way per step, so each flush holds a run to one peer that leaves as one
     * segmented send (the default run, {@link UdpLinkConfig#segmentRun}): still 0 bytes, and every
     * frame arrives.
     */
    @Test
    void segmentedRunsAllocateNothing() throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig().segmentRun(16), SystemClock.INSTANCE);
        UdpLink client = UdpLink.dial(2, server.localAddress(), new UdpLinkConfig().segmentRun(16), SystemClock.INSTANCE);
        try {
            org.junit.jupiter.api.Assumptions.assumeTrue(server.batchedIo() && client.batchedIo(), "batched I/O off here");
            org.junit.jupiter.api.Assumptions.assumeTrue(server.segmentRun() == 16 && client.segmentRun() == 16,
                    "the kernel does not know UDP_SEGMENT (Linux 4.18 and later)");
            int rounds = 10_000;
            long allocated = queuedBursts(server, client, 16, 2_000, rounds);
            System.out.println("udp segmented runs: " + (32 * rounds) + " frames, allocated bytes=" + allocated
                    + ", segmented sends " + client.segmentedSends() + " + " + server.segmentedSends());
            assertEquals(0, allocated, "bytes allocated over " + (32 * rounds) + " frames");
            assertEquals(true, client.segmentedSends() > 0 && server.segmentedSends() > 0,
                    "the runs left segmented: " + client.segmentedSends() + ", " + server.segmentedSends());
        } finally {
            client.close();
            server.close();
        }
    }

    /**
     * Switches both links to queued sends, warms them with {@code warm} burst round trips, then runs
     * {@code rounds} more and answers the bytes this thread allocated over those; every frame must
     * arrive, each side receiving {@code burst} per round.
     */
    private static long queuedBursts(UdpLink server, UdpLink client, int burst, int warm, int rounds) {
        server.flush();
        client.flush();
        Sink atServer = new Sink();
        Sink atClient = new Sink();
        byte[] frame = Frames.value(0, 16);
        long tid = Thread.currentThread().getId();
        long counter = 0;
        for (int i = 0; i < warm; i++) {
            counter += burst;
            assertEquals(true, burstRoundTrip(client, server, atServer, atClient, frame, counter, burst));
        }
        long before = TMX.getThreadAllocatedBytes(tid);
        boolean ok = true;
        for (int i = 0; i < rounds && ok; i++) {
            counter += burst;
            ok = burstRoundTrip(client, server, atServer, atClient, frame, counter, burst);
        }
        long allocated = TMX.getThreadAllocatedBytes(tid) - before;
        assertEquals(true, ok, "a frame went missing on loopback");
        assertEquals((long) burst * (warm + rounds), atServer.frames);
        assertEquals((long) burst * (warm + rounds), atClient.frames);
        return allocated;
    }

    /**
     * {@link #roundTrip} with each send queued and flushed, as a node step does: {@code burst} frames
     * client → server numbered up to {@code last}, then as many back, each side's burst flushed once.
     */
    private static boolean burstRoundTrip(UdpLink client, UdpLink server, Sink atServer, Sink atClient,
                                          byte[] frame, long last, int burst) {
        for (long c = last - burst + 1; c <= last; c++) {
            stamp(frame, c);
            client.send(0, frame, 0, frame.length);
        }
        client.flush();
        long spins = 0;
        while (atServer.lastCounter != last) {
            if (server.poll(atServer, burst) == 0 && ++spins > 50_000_000L) {
                return false;
            }
        }
        for (long c = last - burst + 1; c <= last; c++) {
            stamp(frame, c);
            server.send(atServer.lastPeer, frame, 0, frame.length);
        }
        server.flush();
        spins = 0;
        while (atClient.lastCounter != last) {
            if (client.poll(atClient, burst) == 0 && ++spins > 50_000_000L) {
                return false;
            }
        }
        return true;
    }

    /**
     * The host-side many-peer path: two dialers interleaving into one listener. Every change of
     * sender makes the JDK decode a fresh InetSocketAddress in receive(); the link's own lookup and
     * send allocate nothing. Measured and bounded here (an address object, under 256 B, per switch),
     * so a regression to per-frame garbage in the link itself would show.
     */
    @Test
    void aListenerWithInterleavedPeersAllocatesAtMostTheJdkAddressPerSenderSwitch() throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig(), SystemClock.INSTANCE);
        UdpLink a = UdpLink.dial(2, server.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE);
        UdpLink b = UdpLink.dial(3, server.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE);
        try {
            Sink atServer = new Sink();
            Sink atA = new Sink();
            Sink atB = new Sink();
            byte[] frame = Frames.value(0, 16);
            long c = 0;
            for (int i = 0; i < 20_000; i++) {
                assertEquals(true, roundTrip(a, server, atServer, atA, frame, ++c));
                assertEquals(true, roundTrip(b, server, atServer, atB, frame, ++c));
            }
            long tid = Thread.currentThread().getId();
            int pairs = 50_000;
            long before = TMX.getThreadAllocatedBytes(tid);
            for (int i = 0; i < pairs; i++) {
                roundTrip(a, server, atServer, atA, frame, ++c);
                roundTrip(b, server, atServer, atB, frame, ++c);
            }
            long allocated = TMX.getThreadAllocatedBytes(tid) - before;
            long switches = 2L * pairs;
            System.out.printf("udp two interleaved peers: %d frames received by the listener, %d sender switches,"
                    + " allocated %d bytes (%.1f per switch)%n", switches, switches, allocated, (double) allocated / switches);
            assertTrue(allocated <= switches * 256, "more than an address object per sender switch: " + allocated);
            if (server.batchedIo()) {
                // recvmmsg hands the sender over as a primitive key: no address object at all
                assertEquals(0, allocated, "the batched listener allocated per sender switch");
            }
            assertEquals(2, server.peerTable().inUse());
        } finally {
            a.close();
            b.close();
            server.close();
        }
    }
}
