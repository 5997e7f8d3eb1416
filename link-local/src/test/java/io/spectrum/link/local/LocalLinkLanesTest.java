package io.spectrum.link.local;

import io.spectrum.link.Lane;

import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.spectrum.link.local.LocalLinkTest.onlyPeer;
import static io.spectrum.link.local.LocalLinkTest.poll;
import static io.spectrum.link.local.LocalLinkTest.pump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The outbound lanes: frames are queued while the client does not read (the socket is full), then
 * the order the client receives them is the scheduler's.
 */
class LocalLinkLanesTest {
    private static final int FILLER = 1000;

    @TempDir
    Path tmp;
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ManualClock clock = new ManualClock(0);
    private LocalLink server;
    private LocalLink client;
    private final Collector atServer = new Collector();
    private final Collector atClient = new Collector();
    private int peer;
    private int fillers;

    @AfterEach
    void closeAll() {
        for (int i = open.size() - 1; i >= 0; i--) {
            try {
                open.get(i).close();
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    private void connect(LocalLinkConfig cfg) throws Exception {
        server = LocalLink.listen(1, UnixDomainSocketAddress.of(tmp.resolve("lanes.sock")), cfg, clock);
        open.add(server::close);
        client = LocalLink.connect(2, server.localAddress(), "slow", new LocalLinkConfig(), clock);
        open.add(client::close);
        server.setPeerListener(atServer);
        client.setPeerListener(atClient);
        pump(() -> server.openPeers().length == 1, poll(server, atServer));
        peer = onlyPeer(server);
    }

    /** Sends TOPIC fillers until one has to wait in the lane: the socket takes no more. */
    private void fillSocket() {
        for (int i = 0; i < 10_000 && server.laneDepth(peer, Lane.TOPIC) == 0; i++) {
            byte[] f = Frames.value(FILLER + fillers++, 60_000);
            assertEquals(WireError.OK, server.send(peer, f, 0, f.length, Lane.TOPIC));
        }
        assertEquals(1, server.laneDepth(peer, Lane.TOPIC), "the socket is full: the last filler waits");
    }

    private void queue(Lane lane, int first, int n) {
        for (int i = 0; i < n; i++) {
            byte[] f = Frames.value(first + i, 16);
            assertEquals(WireError.OK, server.send(peer, f, 0, f.length, lane));
        }
    }

    /** Drains the client until {@code n} frames arrived; returns their counters, fillers but the queued one dropped. */
    private List<Long> receive(int n) throws InterruptedException {
        pump(() -> atClient.frames.size() >= n, poll(client, atClient), poll(server, atServer));
        List<Long> order = new ArrayList<>();
        long queuedFiller = FILLER + fillers - 1;
        for (int i = 0; i < atClient.frames.size(); i++) {
            long c = Frames.counter(atClient.frames.get(i), 0);
            if (c < FILLER || c == queuedFiller) {
                order.add(c);
            } else {
                assertTrue(order.isEmpty(), "fillers written through come before every queued frame");
            }
        }
        return order;
    }

    private static List<Long> seq(long... v) {
        List<Long> l = new ArrayList<>();
        for (long x : v) {
            l.add(x);
        }
        return l;
    }

    private static void range(List<Long> l, long first, int n) {
        for (int i = 0; i < n; i++) {
            l.add(first + i);
        }
    }

    @Test
    void controlGoesFirstThenRpcThenTopic() throws Exception {
        connect(new LocalLinkConfig());
        fillSocket();
        long f = FILLER + fillers - 1;
        queue(Lane.TOPIC, 300, 2);
        queue(Lane.RPC, 200, 3);
        queue(Lane.CONTROL, 100, 3);
        assertEquals(3, server.laneDepth(peer, Lane.CONTROL));
        assertEquals(3, server.laneDepth(peer, Lane.RPC));
        assertEquals(3, server.laneDepth(peer, Lane.TOPIC));
        assertEquals(3, server.lane(peer, Lane.CONTROL).inUse());

        List<Long> got = receive(fillers + 8);
        assertEquals(seq(100, 101, 102, 200, 201, 202, f, 300, 301), got);
        assertEquals(0, server.laneDepth(peer, Lane.CONTROL));
        assertEquals(3, server.lane(peer, Lane.CONTROL).peak());
    }

    @Test
    void aWaitingTopicFrameGoesAfterSixteenHigherPriorityFrames() throws Exception {
        connect(new LocalLinkConfig());
        fillSocket();
        long f = FILLER + fillers - 1;
        queue(Lane.RPC, 200, 40);
        queue(Lane.TOPIC, 300, 2);

        List<Long> got = receive(fillers + 42);
        List<Long> want = new ArrayList<>();
        range(want, 200, 16);
        want.add(f);
        range(want, 216, 16);
        want.add(300L);
        range(want, 232, 8);
        want.add(301L);
        assertEquals(want, got);
    }

    @Test
    void aFullRpcOrTopicLaneAnswersBackpressure() throws Exception {
        connect(new LocalLinkConfig().rpcLane(2, 1 << 20).topicLane(2, 1 << 20));
        fillSocket();
        queue(Lane.RPC, 200, 2);
        byte[] f = Frames.value(9, 16);
        assertEquals(WireError.FLOW_BACKPRESSURE, server.send(peer, f, 0, f.length, Lane.RPC));
        queue(Lane.TOPIC, 300, 1);
        assertEquals(WireError.FLOW_BACKPRESSURE, server.send(peer, f, 0, f.length, Lane.TOPIC));
        assertEquals(1, server.localStats().rpcRefused());
        assertEquals(1, server.localStats().topicRefused());
        assertEquals(1, server.lane(peer, Lane.RPC).refused());
        assertTrue(server.isPeerUp(peer), "backpressure does not close the connection");
    }

    @Test
    void controlLaneOverflowSendsTheClosingNoticeThenClosesAndReportsThePeerDown() throws Exception {
        connect(new LocalLinkConfig());
        fillSocket();
        queue(Lane.CONTROL, 100, 128);
        assertEquals(128, server.laneDepth(peer, Lane.CONTROL));
        byte[] f = Frames.value(99, 16);
        assertEquals(WireError.TRANSPORT_DOWN, server.send(peer, f, 0, f.length));
        assertEquals(1, server.localStats().controlOverflows());
        assertFalse(server.isPeerUp(peer));
        assertEquals(WireError.TRANSPORT_DOWN, server.send(peer, f, 0, f.length, Lane.TOPIC));
        server.poll(atServer, 64);
        assertEquals(List.of("up " + peer, "down " + peer), atServer.events);

        pump(() -> atClient.events.contains("down 0"), poll(client, atClient), poll(server, atServer));
        assertEquals(List.of("up 0", "down 0"), atClient.events, "the client sees EOF after the notice");
        byte[] last = atClient.frames.get(atClient.frames.size() - 1);
        assertEquals(WireError.FLOW_BACKPRESSURE, new ClosingNotice().reason(last, 0, last.length));
        for (int i = 0; i < atClient.frames.size() - 1; i++) {
            assertTrue(Frames.counter(atClient.frames.get(i), 0) >= FILLER, "queued frames are dropped, not sent");
        }
        assertEquals(0, server.peers().inUse());
        assertEquals(0, server.localStats().closingCut());
        assertEquals(129, server.localStats().queuedDropped(), "the filler and 128 control frames were waiting");
    }

    @Test
    void theControlLaneIsBoundedInBytesToo() throws Exception {
        connect(new LocalLinkConfig().controlLane(128, 4096));
        fillSocket();
        byte[] f = Frames.value(1, 2000);
        assertEquals(WireError.OK, server.send(peer, f, 0, f.length));
        assertEquals(WireError.OK, server.send(peer, f, 0, f.length));
        assertEquals(WireError.TRANSPORT_DOWN, server.send(peer, f, 0, f.length));
        assertEquals(1, server.localStats().controlOverflows());
    }

    @Test
    void aClosingConnectionWhosePeerNeverReadsIsCutAfterTheGrace() throws Exception {
        connect(new LocalLinkConfig().closingGraceMillis(1000));
        fillSocket();
        queue(Lane.CONTROL, 100, 128);
        byte[] f = Frames.value(99, 16);
        assertEquals(WireError.TRANSPORT_DOWN, server.send(peer, f, 0, f.length));
        server.poll(atServer, 64);
        assertEquals(1, server.peers().inUse(), "still flushing its notice");
        clock.advanceMillis(1000);
        server.poll(atServer, 64);
        assertEquals(0, server.peers().inUse());
        assertEquals(1, server.localStats().closingCut());
    }
}
