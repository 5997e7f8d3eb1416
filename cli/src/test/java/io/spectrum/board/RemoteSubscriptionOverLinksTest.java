package io.spectrum.board;

import io.spectrum.runtime.CapsProbe;
import io.spectrum.link.serial.InMemorySerialPort;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Node A (host) subscribes to a vertex on node B (board) over each real link: deliveries, suspend /
 * resume / clear through {@code :subscribers[N]}, list reads, and what happens when the link goes
 * away and comes back (eviction, staleness, automatic re-subscription, the $node/caps ping).
 */
class RemoteSubscriptionOverLinksTest {
    static final NodePath TEMP = NodePath.of("/temp");
    static final NodePath LED = NodePath.of("/led");
    static final NodePath MIRROR = NodePath.of("/boards/0/temp");
    static final int DURABLE = 1 << 5;

    private static LinkedNodes overUdp() throws Exception {
        LinkedNodes n = new LinkedNodes();
        UdpLinkConfig cfg = new UdpLinkConfig().pingIntervalMillis(300).peerTimeoutMillis(1000);
        UdpLink b = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), cfg, n.clock);
        n.relay = new UdpRelay(b.localAddress());
        UdpLink h = UdpLink.dial(2, n.relay.address(), cfg, n.clock);
        n.join(b, h);
        return n;
    }

    private static InMemorySerialPort[] line;

    private static LinkedNodes overSerial() {
        LinkedNodes n = new LinkedNodes();
        line = InMemorySerialPort.pair("rs", 1 << 16);
        SerialLinkConfig cfg = new SerialLinkConfig().pingIntervalMillis(300).peerTimeoutMillis(1000)
                .reopenBackoffMillis(100, 400);
        n.join(new SerialLink(1, line[0], cfg, n.clock), new SerialLink(2, line[1], cfg, n.clock));
        return n;
    }

    @Test
    void udpEndToEnd() throws Exception {
        try (LinkedNodes n = overUdp()) {
            endToEnd(n, () -> n.relay.cut = true, () -> n.relay.cut = false);
        }
    }

    @Test
    void serialEndToEnd() throws Exception {
        try (LinkedNodes n = overSerial()) {
            endToEnd(n, () -> line[1].unplug(), () -> line[1].plug());
        }
    }

    /** Partition over UDP: the host's probes while the board is down are what bring it back. */
    @Test
    void udpHostProbeBringsTheBoardBackAfterAPartition() throws Exception {
        try (LinkedNodes n = overUdp()) {
            RemoteClient rc = n.host.remote();
            n.boardWrite(TEMP, 1);
            int h = n.host.subscribeRemote(n.hostLink, 0, TEMP, MIRROR, DURABLE);
            assertTrue(n.pumpUntilAdvancing(() -> rc.state(h) == RemoteClient.ACKED));
            n.relay.cut = true;
            n.advance(1500, 50);
            assertEquals(RemoteClient.DOWN, rc.state(h));
            assertEquals(0, n.board.listenerCount(TEMP));
            long hostProbes = n.hostProbe.sent();
            long boardProbes = n.boardProbe.sent();
            n.advance(1000, 50);
            assertTrue(n.hostProbe.sent() > hostProbes, "the dialer keeps pinging a down board");
            assertEquals(boardProbes, n.boardProbe.sent(), "a listener does not ping a peer it lost");
            n.relay.cut = false;
            assertTrue(n.pumpUntilAdvancing(() -> rc.state(h) == RemoteClient.ACKED && n.board.listenerCount(TEMP) == 1));
            n.boardWrite(TEMP, 7);
            assertTrue(n.pumpUntil(() -> n.hostValue(MIRROR) == 7));
        }
    }

    /**
     * A board that restarts faster than the host's peer timeout: the link never reports it down,
     * but the next ping's caps answer carries a new spectrum.boot, so the host re-subscribes.
     */
    @Test
    void aBoardRestartFasterThanTheTimeoutIsCaughtByItsChangedCaps() throws Exception {
        io.spectrum.time.ManualClock clock = new io.spectrum.time.ManualClock(0);
        // a host mirrors the board's value under its own undeclared path (deliveries are remote writes)
        io.spectrum.node.NarrowNode host = new io.spectrum.node.NarrowNode(io.spectrum.node.api.NodeConfig.builder().clock(clock)
                .remoteWritesToUndeclared(true).build());
        CapsProbe.stampBoot(host);
        CapsProbe hostProbe = new CapsProbe(host, 1, 1);
        UdpLinkConfig cfg = new UdpLinkConfig().pingIntervalMillis(300).peerTimeoutMillis(1000);
        io.spectrum.node.NarrowNode board1 = new io.spectrum.node.NarrowNode(io.spectrum.node.api.NodeConfig.builder().clock(clock).build());
        CapsProbe.stampBoot(board1);
        UdpLink b1 = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), cfg, clock);
        board1.attach(b1);
        UdpLink h = UdpLink.dial(2, b1.localAddress(), cfg, clock);
        host.attach(h);
        hostProbe.install(h);
        UdpLink b2 = null;
        try {
            byte[] v1 = {0x01, 0x00, 0x02, 0x00, 0x01, 0x00};
            board1.write(TEMP, v1, 0, v1.length);
            RemoteClient rc = host.remote();
            int handle = host.subscribeRemote(h, 0, TEMP, MIRROR, DURABLE);
            io.spectrum.node.NarrowNode[] board = {board1};
            Runnable pump = () -> {
                board[0].poll();
                host.poll();
                hostProbe.sweep();
            };
            for (int i = 0; i < 200 && (rc.state(handle) != RemoteClient.ACKED || hostProbe.answered() == 0); i++) {
                clock.advanceMillis(10);
                pump.run();
                Thread.sleep(1);
            }
            assertEquals(RemoteClient.ACKED, rc.state(handle));
            assertEquals(1, hostProbe.answered(), "a peer that comes up is pinged once for a baseline");

            // Restart: the old board is gone, a new one binds the same port within 100 ms.
            InetSocketAddress boardAddress = b1.localAddress();
            b1.close();
            io.spectrum.node.NarrowNode board2 = new io.spectrum.node.NarrowNode(io.spectrum.node.api.NodeConfig.builder().clock(clock).build());
            CapsProbe.stampBoot(board2);
            b2 = UdpLink.listen(1, boardAddress, cfg, clock);
            board2.attach(b2);
            byte[] v2 = {0x01, 0x00, 0x02, 0x00, 0x02, 0x00};
            board2.write(TEMP, v2, 0, v2.length);
            board[0] = board2;
            byte[] out = new byte[16];
            for (int i = 0; i < 200 && !(rc.state(handle) == RemoteClient.ACKED && host.read(MIRROR, out, 0, 16) == 6
                    && out[4] == 2); i++) {
                clock.advanceMillis(20);
                pump.run();
                Thread.sleep(1);
            }
            assertEquals(1, hostProbe.restarts(), "the changed caps answer revealed the restart");
            assertEquals(0, h.stats().reconnects(), "the link itself never saw the board go");
            assertEquals(1, board2.listenerCount(TEMP), "re-subscribed on the new board");
            assertEquals(2, out[4], "the new board's value arrived");
        } finally {
            h.close();
            b1.close();
            if (b2 != null) {
                b2.close();
            }
        }
    }

    /** The host process freezes longer than the board's timeout: the board evicts it; on waking it re-subscribes. */
    @Test
    void aFrozenHostReSubscribesWhenItWakes() throws Exception {
        try (LinkedNodes n = overUdp()) {
            RemoteClient rc = n.host.remote();
            n.boardWrite(TEMP, 1);
            int h = n.host.subscribeRemote(n.hostLink, 0, TEMP, MIRROR, DURABLE);
            assertTrue(n.pumpUntilAdvancing(() -> rc.state(h) == RemoteClient.ACKED));
            n.hostFrozen = true;
            n.advance(1500, 50);
            assertEquals(0, n.board.listenerCount(TEMP), "the board timed the frozen host out");
            n.hostFrozen = false;
            assertTrue(n.pumpUntilAdvancing(() -> rc.state(h) == RemoteClient.ACKED && n.board.listenerCount(TEMP) == 1),
                    "the woken host noticed the gap and re-subscribed");
            n.boardWrite(TEMP, 9);
            assertTrue(n.pumpUntil(() -> n.hostValue(MIRROR) == 9));
        }
    }

    private static void endToEnd(LinkedNodes n, Runnable cut, Runnable restore) throws Exception {
        RemoteClient rc = n.host.remote();
        n.boardWrite(TEMP, 2150);
        n.boardWrite(LED, 0);
        // The host speaks first (a dialer / a fresh serial line): its append reaches the board.
        int h = n.host.subscribeRemote(n.hostLink, 0, TEMP, MIRROR, DURABLE);
        assertTrue(h >= 0, "subscribeRemote refused: " + h);
        // (A serial port opens at the link's first poll, so there the append goes out again when the
        // probe has brought the board up: the client re-sends unacknowledged appends on peer up.)
        assertTrue(n.pumpUntilAdvancing(() -> rc.state(h) == RemoteClient.ACKED), "append acknowledged");
        assertTrue(n.pumpUntil(() -> n.hostValue(MIRROR) == 2150), "durable latch delivered the current value");

        n.boardWrite(TEMP, 2160);
        assertTrue(n.pumpUntil(() -> n.hostValue(MIRROR) == 2160), "a board write arrives at the host");
        assertEquals(1, n.board.listenerCount(TEMP));

        // The host writes the board's LED remotely: the board records the host as LED's last publisher.
        byte[] one = {0x01, 0x00, 0x02, 0x00, 0x01, 0x00};
        int wr = rc.write(n.hostLink, 0, LED, one, 0, one.length);
        assertTrue(n.pumpUntil(() -> rc.requestState(wr) == RemoteClient.DONE));
        assertEquals(WireError.OK, rc.requestError(wr));
        rc.release(wr);

        // List read through :subscribers[]: one SUBSCRIBER at position 0.
        int list = rc.readList(n.hostLink, 0, TEMP);
        assertTrue(n.pumpUntil(() -> rc.requestState(list) == RemoteClient.DONE));
        byte[] out = new byte[512];
        int len = rc.requestResult(list, out, 0);
        rc.release(list);
        TlvIndex idx = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(out, 0, len, idx));
        assertEquals(TlvType.POINT, idx.type(0));
        assertEquals(1, idx.childCount(0));
        assertEquals(TlvType.SUBSCRIBER, idx.type(idx.child(0, 0)));

        // Suspend: the edge stays but receives nothing and does not count; resume replays nothing.
        int s = rc.setSuspended(h, true);
        assertTrue(s >= 0);
        assertTrue(n.pumpUntil(() -> rc.requestState(s) == RemoteClient.DONE));
        assertEquals(WireError.OK, rc.requestError(s));
        rc.release(s);
        assertEquals(0, n.board.listenerCount(TEMP));
        n.boardWrite(TEMP, 2170);
        n.pump(50);
        assertEquals(2160, n.hostValue(MIRROR), "a suspended edge gets nothing");
        int r = rc.setSuspended(h, false);
        assertTrue(n.pumpUntil(() -> rc.requestState(r) == RemoteClient.DONE));
        assertEquals(WireError.OK, rc.requestError(r));
        rc.release(r);
        n.pump(50);
        assertEquals(2160, n.hostValue(MIRROR), "resume replays nothing");
        n.boardWrite(TEMP, 2180);
        assertTrue(n.pumpUntil(() -> n.hostValue(MIRROR) == 2180));

        // The link goes away. The board reports the host down after its timeout: the host's edge is
        // evicted and LED (last published by the host) turns stale. The host sees the board down.
        long probesBefore = n.hostProbe.sent() + n.boardProbe.sent();
        cut.run();
        n.advance(1500, 50);
        assertEquals(0, n.board.listenerCount(TEMP), "the edge admitted over the lost link was evicted");
        assertTrue(n.board.isStale(LED), "a vertex whose last publisher was on the lost link is stale");
        assertFalse(n.board.isStale(TEMP), "the board's own vertex is not stale");
        assertEquals(RemoteClient.DOWN, rc.state(h), "the host noticed the board go");

        // The link returns: the host's probe ($node/caps READ) reaches the board, the answer brings
        // the peer up, and the host re-sends its append by itself.
        restore.run();
        assertTrue(n.pumpUntilAdvancing(() -> rc.state(h) == RemoteClient.ACKED), "re-subscribed by itself");
        assertTrue(n.hostProbe.sent() + n.boardProbe.sent() > probesBefore, "liveness pings ($node/caps READs) went out while the link was away");
        assertTrue(rc.sends(h) >= 2, "the append was sent again");
        assertEquals(1, n.board.listenerCount(TEMP));
        n.boardWrite(TEMP, 2190);
        assertTrue(n.pumpUntil(() -> n.hostValue(MIRROR) == 2190), "deliveries flow again");
        assertTrue(n.board.isStale(LED), "still stale until its publisher publishes");
        int wr2 = rc.write(n.hostLink, 0, LED, one, 0, one.length);
        assertTrue(n.pumpUntil(() -> rc.requestState(wr2) == RemoteClient.DONE));
        rc.release(wr2);
        assertFalse(n.board.isStale(LED), "staleness clears on the next publish");

        // Clear through :subscribers[N]: the edge goes.
        assertTrue(rc.unsubscribe(h) >= 0);
        assertTrue(n.pumpUntil(() -> n.board.listenerCount(TEMP) == 0));
        n.boardWrite(TEMP, 2200);
        n.pump(50);
        assertEquals(2190, n.hostValue(MIRROR));
    }
}
