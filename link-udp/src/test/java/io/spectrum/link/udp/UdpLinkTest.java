package io.spectrum.link.udp;

import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two or more UdpLinks over real loopback sockets. */
class UdpLinkTest {
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ManualClock clock = new ManualClock(0);

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private UdpLink listener(UdpLinkConfig cfg) throws Exception {
        UdpLink l = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), cfg, clock);
        open.add(l::close);
        return l;
    }

    private UdpLink dialer(UdpLink to, UdpLinkConfig cfg) throws Exception {
        UdpLink d = UdpLink.dial(2, to.localAddress(), cfg, clock);
        open.add(d::close);
        return d;
    }

    @Test
    void dialerAndListenerExchangeFramesAndTheListenerLearnsThePeer() throws Exception {
        UdpLink server = listener(new UdpLinkConfig());
        UdpLink client = dialer(server, new UdpLinkConfig());
        Collector atServer = new Collector();
        Collector atClient = new Collector();
        server.setPeerListener(atServer);
        client.setPeerListener(atClient);

        byte[] hello = Frames.value(7, 16);
        assertEquals(WireError.OK, client.send(0, hello, 0, hello.length));
        Collector.pollUntil(server, atServer, 1);
        assertEquals(1, atServer.frames.size());
        assertArrayEquals(hello, atServer.frames.get(0));
        int peer = atServer.peers.get(0);
        assertEquals(List.of("up " + peer), atServer.events);
        assertEquals(client.localAddress(), server.peerAddress(peer));
        assertEquals(1, server.peerTable().inUse());

        byte[] answer = Frames.value(8, 16);
        assertEquals(WireError.OK, server.send(peer, answer, 0, answer.length));
        Collector.pollUntil(client, atClient, 1);
        assertArrayEquals(answer, atClient.frames.get(0));
        assertEquals(List.of("up 0"), atClient.events);
        assertEquals(1, server.stats().framesIn());
        assertEquals(1, server.stats().framesOut());
        assertEquals(hello.length, server.stats().bytesIn());
    }

    @Test
    void aListenerCannotSendToAPeerItHasNotHeard() throws Exception {
        UdpLink server = listener(new UdpLinkConfig());
        byte[] f = Frames.value(1, 16);
        assertEquals(WireError.TRANSPORT_DOWN, server.send(0, f, 0, f.length));
        assertEquals(WireError.TRANSPORT_DOWN, server.send(99, f, 0, f.length));
        assertEquals(WireError.TRANSPORT_DOWN, server.send(-1, f, 0, f.length));
        assertEquals(3, server.stats().sendRefused());
        assertEquals(0, server.stats().framesOut());
    }

    @Test
    void manyPeersShareOneSocketAndAFullTableRefusesTheNextSender() throws Exception {
        UdpLink server = listener(new UdpLinkConfig().peerCapacity(4).peersPerHost(4));
        Collector atServer = new Collector();
        server.setPeerListener(atServer);
        List<UdpLink> clients = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            clients.add(dialer(server, new UdpLinkConfig()));
        }
        for (int i = 0; i < 4; i++) {
            byte[] f = Frames.value(100 + i, 16);
            assertEquals(WireError.OK, clients.get(i).send(0, f, 0, f.length));
            Collector.pollUntil(server, atServer, i + 1);
        }
        assertEquals(4, atServer.frames.size());
        Set<Integer> handles = new HashSet<>(atServer.peers);
        assertEquals(4, handles.size(), "each sender gets its own handle");
        assertEquals(4, server.peerTable().inUse());
        assertEquals(4, server.peerTable().peak());

        // The fifth sender does not fit: refused and counted, nothing delivered.
        byte[] fifth = Frames.value(104, 16);
        clients.get(4).send(0, fifth, 0, fifth.length);
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (server.peerTable().refused() == 0 && System.nanoTime() < deadline) {
            server.poll(atServer, 16);
            Thread.sleep(1);
        }
        assertEquals(1, server.peerTable().refused());
        assertEquals(4, atServer.frames.size());

        // Replies reach the right client: answer each handle with its own counter.
        for (int i = 0; i < 4; i++) {
            int handle = atServer.peers.get(i);
            long counter = Frames.counter(atServer.frames.get(i), 0);
            byte[] reply = Frames.value(counter + 1000, 16);
            assertEquals(WireError.OK, server.send(handle, reply, 0, reply.length));
        }
        for (int i = 0; i < 4; i++) {
            Collector c = new Collector();
            Collector.pollUntil(clients.get(i), c, 1);
            assertEquals(1, c.frames.size());
            assertEquals(100 + i + 1000, Frames.counter(c.frames.get(0), 0));
        }
    }

    @Test
    void aSilentPeerIsProbedThenReportedDownAndComesBackOnItsOldHandle() throws Exception {
        UdpLink server = listener(new UdpLinkConfig().peerTimeoutMillis(1000).pingIntervalMillis(300));
        UdpLink client = dialer(server, new UdpLinkConfig());
        Collector atServer = new Collector();
        server.setPeerListener(atServer);
        List<Integer> probed = new ArrayList<>();
        server.setLivenessProbe((link, peer) -> probed.add(peer));

        byte[] f = Frames.value(1, 16);
        client.send(0, f, 0, f.length);
        Collector.pollUntil(server, atServer, 1);
        int peer = atServer.peers.get(0);
        assertTrue(server.isPeerUp(peer));

        clock.advanceMillis(200);
        server.poll(atServer, 16);
        assertEquals(List.of(), probed, "not silent long enough for a probe");
        clock.advanceMillis(150);
        server.poll(atServer, 16);
        assertEquals(List.of(peer), probed, "silent 350 ms > ping interval 300 ms");
        clock.advanceMillis(500);
        server.poll(atServer, 16);
        assertEquals(List.of("up " + peer), atServer.events, "850 ms < timeout");

        clock.advanceMillis(300);
        server.poll(atServer, 16);
        assertEquals(List.of("up " + peer, "down " + peer), atServer.events);
        assertFalse(server.isPeerUp(peer));
        assertEquals(WireError.OK, server.send(peer, f, 0, f.length), "a down peer keeps its address");

        client.send(0, f, 0, f.length);
        Collector.pollUntil(server, atServer, 2);
        assertEquals(List.of("up " + peer, "down " + peer, "up " + peer), atServer.events);
        assertEquals(peer, atServer.peers.get(1), "the returning peer gets its old handle");
        assertEquals(1, server.stats().reconnects());
    }

    @Test
    void aLinkThatWasNotPolledForLongerThanTheTimeoutReportsItsPeersDownThenUpAgain() throws Exception {
        UdpLink server = listener(new UdpLinkConfig().peerTimeoutMillis(1000));
        UdpLink client = dialer(server, new UdpLinkConfig().peerTimeoutMillis(1000));
        Collector atClient = new Collector();
        client.setPeerListener(atClient);
        Collector atServer = new Collector();
        byte[] f = Frames.value(1, 16);
        client.send(0, f, 0, f.length);
        Collector.pollUntil(server, atServer, 1);
        server.send(atServer.peers.get(0), f, 0, f.length);
        Collector.pollUntil(client, atClient, 1);
        assertEquals(List.of("up 0"), atClient.events);
        // The client's process freezes for 3 s; the server keeps talking (its frames queue up).
        server.send(atServer.peers.get(0), f, 0, f.length);
        clock.advanceMillis(3000);
        Collector.pollUntil(client, atClient, 2);
        assertEquals(List.of("up 0", "down 0", "up 0"), atClient.events,
                "a frozen node assumes its peers dropped it, so its subscriptions get re-sent");
    }

    @Test
    void aDialerKeepsProbingItsPeerWhileItIsDown() throws Exception {
        UdpLink server = listener(new UdpLinkConfig());
        UdpLink client = dialer(server, new UdpLinkConfig().peerTimeoutMillis(1000).pingIntervalMillis(300));
        List<Integer> probed = new ArrayList<>();
        client.setLivenessProbe((link, peer) -> probed.add(peer));
        Collector atClient = new Collector();
        client.poll(atClient, 1);
        clock.advanceMillis(299);
        client.poll(atClient, 1);
        assertEquals(List.of(), probed);
        clock.advanceMillis(80);   // timers are checked every quarter of the shorter one (75 ms)
        client.poll(atClient, 1);
        assertEquals(List.of(0), probed, "never heard: probed at the ping interval so the listener learns us");
        clock.advanceMillis(300);
        client.poll(atClient, 1);
        assertEquals(List.of(0, 0), probed);
    }

    @Test
    void aDownPeerSlotIsReusedForANewSenderWhenTheTableIsFull() throws Exception {
        UdpLink server = listener(new UdpLinkConfig().peerCapacity(1).peerTimeoutMillis(1000));
        UdpLink a = dialer(server, new UdpLinkConfig());
        UdpLink b = dialer(server, new UdpLinkConfig());
        Collector atServer = new Collector();
        server.setPeerListener(atServer);
        byte[] f = Frames.value(1, 16);
        a.send(0, f, 0, f.length);
        Collector.pollUntil(server, atServer, 1);
        clock.advanceMillis(1500);
        server.poll(atServer, 1);
        b.send(0, f, 0, f.length);
        Collector.pollUntil(server, atServer, 2);
        assertEquals(2, atServer.frames.size());
        assertEquals(b.localAddress(), server.peerAddress(0));
        assertEquals(0, server.peerTable().refused());
        assertEquals(List.of("up 0", "down 0", "up 0"), atServer.events);
    }

    @Test
    void garbageAndOversizeDatagramsAreDroppedCountedAndTheNextGoodFrameArrives() throws Exception {
        UdpLink server = listener(new UdpLinkConfig().maxFrame(1024));
        Collector atServer = new Collector();
        try (DatagramChannel raw = DatagramChannel.open()) {
            raw.connect(server.localAddress());
            raw.write(ByteBuffer.wrap(new byte[] {0, 0, 0, 0}));             // type 0
            raw.write(ByteBuffer.wrap(new byte[] {1, 0, 9, 0, 1, 2}));       // length says 9, has 2
            raw.write(ByteBuffer.wrap(new byte[] {1, (byte) 0x80, 0, 0}));   // reserved opt bit
            raw.write(ByteBuffer.wrap(new byte[] {1, 0}));                    // shorter than a header
            raw.write(ByteBuffer.wrap(Frames.value(5, 2000)));               // valid frame, too big
            byte[] good = Frames.value(6, 16);
            raw.write(ByteBuffer.wrap(good));
            Collector.pollUntil(server, atServer, 1);
            assertEquals(1, atServer.frames.size());
            assertArrayEquals(good, atServer.frames.get(0));
            assertEquals(4, server.stats().droppedInvalid());
            assertEquals(1, server.stats().droppedOversize());
            assertEquals(1, server.stats().framesIn());
        }
        assertEquals(1, server.peerTable().inUse(), "only the good frame taught the listener its peer");
        byte[] big = Frames.value(7, 2000);
        assertEquals(WireError.FRAME_INVALID, server.send(0, big, 0, big.length));
        assertEquals(2, server.stats().droppedOversize());
    }

    @Test
    void aSendLargerThanMaxFrameIsRefusedAndTheLinkKeepsWorking() throws Exception {
        UdpLink server = listener(new UdpLinkConfig());
        UdpLink client = dialer(server, new UdpLinkConfig().maxFrame(512));
        byte[] big = Frames.value(1, 600);
        assertEquals(WireError.FRAME_INVALID, client.send(0, big, 0, big.length));
        assertEquals(1, client.stats().droppedOversize());
        byte[] ok = Frames.value(2, 16);
        assertEquals(WireError.OK, client.send(0, ok, 0, ok.length));
        Collector atServer = new Collector();
        Collector.pollUntil(server, atServer, 1);
        assertArrayEquals(ok, atServer.frames.get(0));
    }

    @Test
    void theDatagramLimitIsTheHardFrameLimit() throws Exception {
        UdpLink server = listener(new UdpLinkConfig());
        assertEquals(UdpLinkConfig.MAX_DATAGRAM, server.maxFrame());
        UdpLink client = dialer(server, new UdpLinkConfig().socketBufferBytes(1 << 20));
        byte[] max = Frames.value(3, UdpLinkConfig.MAX_DATAGRAM - 4);
        assertEquals(UdpLinkConfig.MAX_DATAGRAM, max.length);
        assertEquals(WireError.OK, client.send(0, max, 0, max.length));
        Collector atServer = new Collector();
        Collector.pollUntil(server, atServer, 1);
        assertArrayEquals(max, atServer.frames.get(0));
    }

    @Test
    void parsesHostPort() {
        assertEquals(new InetSocketAddress("127.0.0.1", 7000), UdpLink.parseHostPort("127.0.0.1:7000"));
        // issue 11: a bare :PORT now means loopback (it used to be refused); see UdpExposureTest
        assertEquals(new InetSocketAddress("127.0.0.1", 7000), UdpLink.parseHostPort(":7000"));
        for (String bad : new String[] {"nohost", "h:", "h:x", "h:70000", ":70000", ""}) {
            try {
                UdpLink.parseHostPort(bad);
                throw new AssertionError("accepted " + bad);
            } catch (IllegalArgumentException expected) {
                // refused with a clear message
            }
        }
    }
}
