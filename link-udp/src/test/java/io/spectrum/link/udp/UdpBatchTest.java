package io.spectrum.link.udp;

import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Batched datagram I/O (recvmmsg/sendmmsg) against the channel path over loopback. Tests that need
 * the batched path are skipped where it is unavailable (not Linux) or forced off ({@code
 * spectrum.udp.batch=0}, the module's second test run); on a 64-bit Linux JVM with the default
 * setting the link must be batched.
 */
class UdpBatchTest {
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ManualClock clock = new ManualClock(0);

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private UdpLink listener(InetAddress at, UdpLinkConfig cfg) throws Exception {
        UdpLink l = UdpLink.listen(1, new InetSocketAddress(at, 0), cfg, clock);
        open.add(l::close);
        return l;
    }

    private UdpLink dialer(UdpLink to, UdpLinkConfig cfg) throws Exception {
        UdpLink d = UdpLink.dial(2, to.localAddress(), cfg, clock);
        open.add(d::close);
        return d;
    }

    private static boolean linux64() {
        return System.getProperty("os.name", "").startsWith("Linux")
                && "64".equals(System.getProperty("sun.arch.data.model"));
    }

    @Test
    void onLinuxTheDefaultLinkIsBatchedUnlessForcedOff() throws Exception {
        UdpLink l = listener(InetAddress.getLoopbackAddress(), new UdpLinkConfig());
        boolean expected = linux64() && UdpLinkConfig.DEFAULT_BATCH > 0;
        assertEquals(expected, l.batchedIo(), "batched I/O unavailable: " + UdpLink.batchUnavailableReason());
    }

    @Test
    void aBatchOfZeroKeepsTheChannelPath() throws Exception {
        UdpLink server = listener(InetAddress.getLoopbackAddress(), new UdpLinkConfig().batch(0));
        UdpLink client = dialer(server, new UdpLinkConfig().batch(0));
        assertFalse(server.batchedIo());
        assertFalse(client.batchedIo());
        client.flush(); // a no-op there: the send still leaves at once
        byte[] f = Frames.value(1, 16);
        assertEquals(WireError.OK, client.send(0, f, 0, f.length));
        Collector at = new Collector();
        Collector.pollUntil(server, at, 1);
        assertArrayEquals(f, at.frames.get(0));
        assertEquals(0, server.batchCalls());
    }

    /** 100 datagrams queued and flushed, received in order, with far fewer calls than datagrams. */
    @Test
    void aBurstOfOneHundredArrivesWholeAndInOrderWithFewerCallsThanDatagrams() throws Exception {
        UdpLink server = listener(InetAddress.getLoopbackAddress(), new UdpLinkConfig());
        UdpLink client = dialer(server, new UdpLinkConfig());
        assumeTrue(server.batchedIo() && client.batchedIo(), "batched I/O off here");
        client.flush(); // the driver flushes: from now on sends wait for the next flush
        int n = 100;
        for (int i = 0; i < n; i++) {
            byte[] f = Frames.value(i, 32);
            assertEquals(WireError.OK, client.send(0, f, 0, f.length));
        }
        client.flush();
        assertEquals(n, client.stats().framesOut());
        assertEquals(0, client.stats().sendRefused());
        long sendCalls = client.batchCalls();
        assertTrue(sendCalls <= (n + 15) / 16 + 1, "sendmmsg calls: " + sendCalls);

        Collector at = new Collector();
        Collector.pollUntil(server, at, n);
        assertEquals(n, at.frames.size());
        for (int i = 0; i < n; i++) {
            assertEquals(i, Frames.counter(at.frames.get(i), 0), "frame " + i + " out of order");
            assertArrayEquals(Frames.value(i, 32), at.frames.get(i));
        }
        long receiveCalls = server.batchCalls();
        assertTrue(receiveCalls < n / 4, "recvmmsg calls for " + n + " datagrams: " + receiveCalls);
        assertEquals(n, server.stats().framesIn());
        assertEquals(1, server.peerTable().inUse());
    }

    /** A poll that takes one frame at a time is served from the batch without another call. */
    @Test
    void framesOfOneBatchAreHandedOutOnLaterPollsWithoutAnotherCall() throws Exception {
        UdpLink server = listener(InetAddress.getLoopbackAddress(), new UdpLinkConfig());
        UdpLink client = dialer(server, new UdpLinkConfig());
        assumeTrue(server.batchedIo(), "batched I/O off here");
        for (int i = 0; i < 10; i++) {
            byte[] f = Frames.value(i, 16);
            assertEquals(WireError.OK, client.send(0, f, 0, f.length)); // never flushed: sent at once
        }
        assertEquals(10, client.stats().framesOut());
        Collector at = new Collector();
        // loopback delivers before send returns: the first call finds all ten
        for (int i = 0; i < 10; i++) {
            assertEquals(1, server.poll(at, 1));
        }
        assertEquals(1, server.batchCalls());
        for (int i = 0; i < 10; i++) {
            assertEquals(i, Frames.counter(at.frames.get(i), 0));
        }
    }

    /** A listener answers two dialers from one sendmmsg: each gets its own frames, addressed by key. */
    @Test
    void aListenerFlushAddressesEachPeer() throws Exception {
        UdpLink server = listener(InetAddress.getLoopbackAddress(), new UdpLinkConfig());
        UdpLink a = dialer(server, new UdpLinkConfig());
        UdpLink b = dialer(server, new UdpLinkConfig());
        assumeTrue(server.batchedIo(), "batched I/O off here");
        Collector atServer = new Collector();
        byte[] fa = Frames.value(1, 16);
        byte[] fb = Frames.value(2, 16);
        a.send(0, fa, 0, fa.length);
        b.send(0, fb, 0, fb.length);
        Collector.pollUntil(server, atServer, 2);
        int pa = atServer.peers.get(0);
        int pb = atServer.peers.get(1);
        assertEquals(a.localAddress(), server.peerAddress(pa));
        assertEquals(b.localAddress(), server.peerAddress(pb));

        server.flush();
        for (int i = 0; i < 5; i++) {
            byte[] x = Frames.value(100 + i, 16);
            byte[] y = Frames.value(200 + i, 16);
            assertEquals(WireError.OK, server.send(pa, x, 0, x.length));
            assertEquals(WireError.OK, server.send(pb, y, 0, y.length));
        }
        long before = server.batchCalls();
        server.flush();
        assertEquals(1, server.batchCalls() - before);
        Collector atA = new Collector();
        Collector atB = new Collector();
        Collector.pollUntil(a, atA, 5);
        Collector.pollUntil(b, atB, 5);
        for (int i = 0; i < 5; i++) {
            assertEquals(100 + i, Frames.counter(atA.frames.get(i), 0));
            assertEquals(200 + i, Frames.counter(atB.frames.get(i), 0));
        }
        assertEquals(12, server.stats().framesOut() + server.stats().framesIn());
    }

    /** IPv6 loopback: the sender key comes from a sockaddr_in6 and the answer goes back to it. */
    @Test
    void ipv6PeersAreLearnedAndAnswered() throws Exception {
        InetAddress v6 = InetAddress.getByName("::1");
        UdpLink server;
        try {
            server = listener(v6, new UdpLinkConfig());
        } catch (java.io.IOException e) {
            assumeTrue(false, "no IPv6 loopback here: " + e);
            return;
        }
        UdpLink client = dialer(server, new UdpLinkConfig());
        assumeTrue(server.batchedIo(), "batched I/O off here");
        Collector atServer = new Collector();
        Collector atClient = new Collector();
        byte[] f = Frames.value(7, 16);
        client.send(0, f, 0, f.length);
        Collector.pollUntil(server, atServer, 1);
        int peer = atServer.peers.get(0);
        assertEquals(client.localAddress(), server.peerAddress(peer));
        server.flush();
        server.send(peer, f, 0, f.length);
        server.flush();
        Collector.pollUntil(client, atClient, 1);
        assertArrayEquals(f, atClient.frames.get(0));
    }

    /** Garbage and oversize datagrams in a batch are counted as on the channel path, and skipped. */
    @Test
    void badDatagramsInABatchAreCountedAndSkipped() throws Exception {
        UdpLink server = listener(InetAddress.getLoopbackAddress(), new UdpLinkConfig().maxFrame(64));
        try (java.nio.channels.DatagramChannel raw = java.nio.channels.DatagramChannel.open()) {
            raw.connect(server.localAddress());
            raw.write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3}));
            raw.write(java.nio.ByteBuffer.wrap(new byte[100]));
            byte[] ok = Frames.value(3, 16);
            raw.write(java.nio.ByteBuffer.wrap(ok));
            Collector at = new Collector();
            Collector.pollUntil(server, at, 1);
            assertArrayEquals(ok, at.frames.get(0));
            assertEquals(1, server.stats().droppedInvalid());
            assertEquals(1, server.stats().droppedOversize());
            assertEquals(1, server.stats().framesIn());
        }
    }
}
