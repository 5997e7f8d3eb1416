package io.spectrum.node;

import io.spectrum.testing.MemoryLink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two nodes joined by fake links: the remote-subscription client and the request helpers. */
class RemoteClientTest {
    final ManualClock clock = new ManualClock(0);
    final ServingNode board = NodeHarness.core.apply(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true).build());
    // the host mirrors the board's values under its own undeclared paths
    final ServingNode host = NodeHarness.core.apply(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true).build());
    final MemoryLink boardSide = new MemoryLink(1); // attached to the board; its peer 0 is the host
    final MemoryLink hostSide = new MemoryLink(2); // attached to the host; its peer 0 is the board
    int boardSent;
    int hostSent;
    final NodePath temp = NodePath.of("/sensor/temp");
    final NodePath mirror = NodePath.of("/boards/b1/temp");
    final List<String> got = new ArrayList<>();

    RemoteClientTest() {
        board.attach(boardSide);
        host.attach(hostSide);
    }

    /** Moves frames both ways until nothing more is sent. */
    void pump() {
        for (int round = 0; round < 20; round++) {
            boolean moved = false;
            while (hostSent < hostSide.sentCount()) {
                boardSide.inject(0, hostSide.sentAt(hostSent++));
                moved = true;
            }
            while (boardSent < boardSide.sentCount()) {
                hostSide.inject(0, boardSide.sentAt(boardSent++));
                moved = true;
            }
            board.poll();
            host.poll();
            if (!moved) {
                return;
            }
        }
    }

    int subscribeMirror() {
        host.subscribe(mirror, 0, (s, v, seq, stale) -> got.add(Frames.hex(v.copy()) + (stale ? " stale" : "")));
        int h = host.subscribeRemote(hostSide, 0, temp, mirror, 0x0020);
        assertTrue(h >= 0, "refused " + h);
        pump();
        return h;
    }

    @Test
    void remoteDeliveriesLandAsPlainWritesOnTheLocalTarget() {
        board.write(temp, Frames.value(20, 1), 0, 5);
        int h = subscribeMirror();
        assertEquals(RemoteClient.ACKED, host.remote().state(h));
        assertEquals(0, host.remote().remoteIndex(h));
        assertEquals(List.of("0100010014"), got, "the durability latch came through");
        board.write(temp, Frames.value(21, 1), 0, 5);
        pump();
        assertEquals(List.of("0100010014", "0100010015"), got);
        byte[] out = new byte[8];
        assertEquals(5, host.read(mirror, out, 0, 8));
    }

    @Test
    void theSubscriptionIsResentWhenThePeerComesBack_noApplicationResubscribe() {
        board.write(temp, Frames.value(20, 1), 0, 5);
        int h = subscribeMirror();
        // the board loses the host: its edge is reaped (link departure)
        board.onPeerDown(boardSide, 0);
        host.onPeerDown(hostSide, 0);
        assertEquals(RemoteClient.DOWN, host.remote().state(h));
        assertEquals(List.of("0100010014", "0100010014 stale"), got,
                "the mirror's publisher (the board) went: the host's subscriber is told it is stale at once");
        board.write(temp, Frames.value(22, 1), 0, 5);
        pump();
        assertEquals(2, got.size(), "no edge while down");
        host.onPeerUp(hostSide, 0);
        pump();
        assertEquals(RemoteClient.ACKED, host.remote().state(h));
        // sent twice, each time as the tokenless append the board challenges and the append again
        // with the token it handed back (both sides forgot the token when the peer went down)
        assertEquals(4, host.remote().sends(h));
        board.write(temp, Frames.value(23, 1), 0, 5);
        pump();
        assertEquals("0100010017", got.get(got.size() - 1));
    }

    @Test
    void suspendResumeAndUnsubscribeARemoteSubscription() {
        board.write(temp, Frames.value(20, 1), 0, 5);
        int h = subscribeMirror();
        int k = host.remote().setSuspended(h, true);
        assertTrue(k >= 0);
        pump();
        assertEquals(WireError.OK, host.remote().requestError(k));
        host.remote().release(k);
        board.write(temp, Frames.value(30, 1), 0, 5);
        pump();
        assertEquals(1, got.size(), "suspended at the board");
        assertEquals(0, board.listenerCount(temp));
        k = host.remote().setSuspended(h, false);
        pump();
        host.remote().release(k);
        board.write(temp, Frames.value(31, 1), 0, 5);
        pump();
        assertEquals(2, got.size());
        k = host.remote().unsubscribe(h);
        pump();
        host.remote().release(k);
        board.write(temp, Frames.value(32, 1), 0, 5);
        pump();
        assertEquals(2, got.size());
    }

    @Test
    void livenessReadOfThePeersCapsIsAnsweredWithItsExtensionsMap() {
        // the liveness probe's request (runtime CapsProbe): a remote READ of the peer's $node/caps
        RemoteClient c = host.remote();
        int k = c.read(hostSide, 0, NodePath.of("/$node/caps"));
        assertTrue(k >= 0);
        pump();
        assertEquals(RemoteClient.DONE, c.requestState(k));
        assertEquals(WireError.OK, c.requestError(k));
        byte[] out = new byte[256];
        int n = c.requestResult(k, out, 0);
        assertTrue(n > 0 && Frames.hex(java.util.Arrays.copyOf(out, n)).startsWith("0b40"), "the caps map");
        c.release(k);
        assertEquals(-WireError.TRANSPORT_DOWN, c.read(new MemoryLink(9), 0, NodePath.of("/$node/caps")));
    }

    @Test
    void remoteReadWriteAndListRequestsAreCorrelatedByTheirOwnReplyEndpoint() {
        board.write(temp, Frames.value(20, 1), 0, 5);
        subscribeMirror();
        RemoteClient c = host.remote();
        int r1 = c.read(hostSide, 0, temp);
        int r2 = c.read(hostSide, 0, NodePath.of("/absent"));
        int r3 = c.readList(hostSide, 0, temp);
        int r4 = c.write(hostSide, 0, temp, Frames.value(40, 1), 0, 5);
        assertEquals(RemoteClient.PENDING, c.requestState(r1));
        pump();
        byte[] out = new byte[512];
        assertEquals(RemoteClient.DONE, c.requestState(r1));
        assertEquals(5, c.requestResult(r1, out, 0));
        assertEquals("0100010014", Frames.hex(java.util.Arrays.copyOf(out, 5)));
        assertEquals(WireError.PATH_NOT_FOUND, c.requestError(r2));
        int n = c.requestResult(r3, out, 0);
        assertTrue(Frames.hex(java.util.Arrays.copyOf(out, n)).startsWith("0740"), "a POINT list");
        assertEquals(WireError.OK, c.requestError(r4));
        assertEquals("0100010028", got.get(got.size() - 1), "the remote write was delivered back to our mirror");
        // the slot read gives the record; the toggle helper renders it and writes it back
        int r5 = c.readSlot(hostSide, 0, temp, 0);
        pump();
        n = c.requestResult(r5, out, 0);
        int r6 = c.setSlotSuspended(hostSide, 0, temp, 0, -1, out, 0, n, true);
        pump();
        assertEquals(WireError.OK, c.requestError(r6));
        assertEquals(0, board.listenerCount(temp));
        for (int k : new int[] {r1, r2, r3, r4, r5, r6}) {
            c.release(k);
        }
        assertEquals(0, PoolsTest.byName(host).get("node.remoteRequests").inUse());
    }

    @Test
    void outstandingRequestsAreBounded() {
        RemoteClient c = host.remote();
        int n = 0;
        while (c.read(hostSide, 0, temp) >= 0) {
            n++;
        }
        assertEquals(16, n);
        assertEquals(-WireError.FLOW_BACKPRESSURE, c.read(hostSide, 0, temp));
        assertEquals(2, PoolsTest.byName(host).get("node.remoteRequests").refused());
    }
}
