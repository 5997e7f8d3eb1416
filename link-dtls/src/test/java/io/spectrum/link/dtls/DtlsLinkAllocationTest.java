package io.spectrum.link.dtls;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.testing.Frames;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node's side of a DTLS link (send, poll) allocates nothing per frame: the JDK's record crypto
 * runs on the link's own thread, whose allocation is measured and printed (it is the JDK's, per
 * frame, and documented in docs/links.md). Surefire runs this module with -XX:-DoEscapeAnalysis.
 */
class DtlsLinkAllocationTest {
    private static final com.sun.management.ThreadMXBean TMX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @TempDir
    Path dir;

    static final class Sink implements FrameHandler {
        long lastCounter = -1;
        int lastPeer = -1;

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            lastCounter = Frames.counter(buf, off);
            lastPeer = peer;
        }
    }

    private static void stamp(byte[] frame, long counter) {
        for (int i = 0; i < 8; i++) {
            frame[4 + i] = (byte) (counter >>> (8 * i));
        }
    }

    static boolean roundTrip(DtlsLink client, DtlsLink server, Sink atServer, Sink atClient, byte[] frame, long counter) {
        stamp(frame, counter);
        if (client.send(0, frame, 0, frame.length) != WireError.OK) {
            return false;
        }
        long spins = 0;
        while (atServer.lastCounter != counter) {
            if (server.poll(atServer, 1) == 0 && ++spins > 200_000_000L) {
                return false;
            }
        }
        if (server.send(atServer.lastPeer, frame, 0, frame.length) != WireError.OK) {
            return false;
        }
        spins = 0;
        while (atClient.lastCounter != counter) {
            if (client.poll(atClient, 1) == 0 && ++spins > 200_000_000L) {
                return false;
            }
        }
        return true;
    }

    @Test
    void theNodesSideAllocatesNothingPerFrame() throws Exception {
        Fleet fleet = new Fleet(dir, "fleet");
        DtlsLink server = DtlsLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new UdpLinkConfig(),
                fleet.node("board1"), SystemClock.INSTANCE);
        DtlsLink client = DtlsLink.dial(2, server.localAddress(), new UdpLinkConfig(), fleet.node("host"), SystemClock.INSTANCE);
        try {
            Sink atServer = new Sink();
            Sink atClient = new Sink();
            DtlsLinkTest.pollUntil(() -> client.isPeerUp(0) && server.isPeerUp(0), server, client);
            assertTrue(client.isPeerUp(0));
            byte[] frame = Frames.value(0, 16);
            long counter = 0;
            for (int i = 0; i < 20_000; i++) {
                assertTrue(roundTrip(client, server, atServer, atClient, frame, ++counter));
            }
            long tid = Thread.currentThread().getId();
            int rounds = 20_000;
            long[] allocated = new long[3];
            long linkBefore = server.linkThreadAllocatedBytes() + client.linkThreadAllocatedBytes();
            for (int r = 0; r < allocated.length; r++) {
                long before = TMX.getThreadAllocatedBytes(tid);
                boolean ok = true;
                for (int i = 0; i < rounds && ok; i++) {
                    ok = roundTrip(client, server, atServer, atClient, frame, ++counter);
                }
                allocated[r] = TMX.getThreadAllocatedBytes(tid) - before;
                assertTrue(ok, "a frame went missing on loopback");
            }
            long linkBytes = server.linkThreadAllocatedBytes() + client.linkThreadAllocatedBytes() - linkBefore;
            long frames = 2L * rounds * allocated.length;
            System.out.printf("dtls: node thread 3 x %d frames, allocated bytes=%s; link threads %d bytes = %.0f B per frame"
                    + " (encrypt + decrypt, %d-byte frames)%n", 2 * rounds, java.util.Arrays.toString(allocated), linkBytes,
                    (double) linkBytes / frames, frame.length);
            for (long a : allocated) {
                assertEquals(0, a, "bytes the node's thread allocated over " + (2 * rounds) + " frames");
            }
        } finally {
            client.close();
            server.close();
        }
    }
}
