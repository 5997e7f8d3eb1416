package io.spectrum.wide.link;

import io.spectrum.link.Readiness;
import io.spectrum.time.Clock;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Opt;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link QueuedLink} over an in-memory inner link ({@link ScriptedLink}): the test thread plays the node
 * thread. Outcomes only: what arrived, in which order, on which thread, and what was counted.
 */
class QueuedLinkTest {

    /** A clock the test moves; read by the I/O thread. */
    static final class TestClock implements Clock {
        private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

        void advanceMillis(long ms) {
            nanos.addAndGet(ms * 1_000_000L);
        }

        @Override
        public long nanoTime() {
            return nanos.get();
        }

        @Override
        public long epochNanos() {
            return nanos.get();
        }
    }

    static void allUp(ScriptedLink inner, QueuedLink link, NodeSide node, int peers) {
        for (int p = 0; p < peers; p++) {
            inner.reportUp(p);
        }
        node.pumpUntil(link, () -> {
            for (int p = 0; p < peers; p++) {
                if (!link.isPeerUp(p)) {
                    return false;
                }
            }
            return true;
        }, "every peer up");
    }

    static long total(long[] counts) {
        long t = 0;
        for (long c : counts) {
            t += c;
        }
        return t;
    }

    @Test
    void framesPassBothWaysInOrderPerPeer() {
        int peers = 10;
        int perPeer = 2_000;
        ScriptedLink inner = new ScriptedLink(peers, false);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.builder().outboundFrames(256).inboundFrames(128)
                .build());
        NodeSide node = new NodeSide(peers);
        link.setPeerListener(node);
        try {
            assertTrue(link.ioWaitMode().startsWith("poll("), link.ioWaitMode());
            // the inner link produces a round of 10 frames whenever the node has taken the last one (a
            // generator without flow control would only measure inbound drop-newest; another test does)
            for (int s = 0; s < perPeer; s++) {
                long round = (long) (s + 1) * peers;
                inner.generate(peers);
                for (int p = 0; p < peers; p++) {
                    assertEquals(WireError.OK, node.send(link, p, s));
                }
                node.pumpUntil(link, () -> total(node.received) == round, "inbound round");
            }
            node.pumpUntil(link, () -> {
                for (int p = 0; p < peers; p++) {
                    if (inner.delivered.get(p) < perPeer || node.received[p] < perPeer) {
                        return false;
                    }
                }
                return true;
            }, "every frame both ways");
            for (int p = 0; p < peers; p++) {
                assertEquals(perPeer, inner.delivered.get(p), "peer " + p + " got every frame");
                assertEquals(0, inner.outOfOrder.get(p), "peer " + p + " got them in order");
                assertEquals(perPeer, node.received[p], "the node got every frame from peer " + p);
                assertEquals(0, node.outOfOrder[p], "the node got peer " + p + "'s frames in order");
            }
            assertNotEquals(Thread.currentThread(), inner.driver(), "the inner link is driven by the I/O thread");
            assertEquals(link.ioThread(), inner.driver());
            QueuedLinkStats st = link.queueStats();
            assertEquals((long) peers * perPeer, st.framesOut());
            assertEquals((long) peers * perPeer, st.framesIn());
            assertEquals(0, st.droppedTotal(), st.toString());
            assertTrue(link.outboundFrames().peak() <= 256);
            assertEquals(peers, link.peers().inUse());
        } finally {
            link.close();
        }
    }

    @Test
    void aSlowPeerLosesItsOldestFramesIsDisconnectedAndTheOther99GetEveryFrame() {
        int peers = 100;
        int slow = 42;
        int perPeer = 500;
        int queue = 16;
        int threshold = 50;
        ScriptedLink inner = new ScriptedLink(peers, true);
        inner.slow.set(slow, 1);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.builder().peerQueueFrames(queue)
                .disconnectDrops(threshold).disconnectWindowMillis(3_600_000).outboundFrames(4096)
                .clock(new TestClock()).build());
        NodeSide node = new NodeSide(peers);
        link.setPeerListener(node);
        try {
            assertEquals("park", link.ioWaitMode());
            allUp(inner, link, node, peers);
            long refused = 0;
            for (int s = 0; s < perPeer; s++) {
                for (int p = 0; p < peers; p++) {
                    int r = node.send(link, p, s);
                    if (p == slow && r == WireError.TRANSPORT_DOWN) {
                        refused++;
                    } else {
                        assertEquals(WireError.OK, r, "send to peer " + p);
                    }
                }
                link.poll(node, 64);
            }
            node.pumpUntil(link, () -> {
                for (int p = 0; p < peers; p++) {
                    if (p != slow && inner.delivered.get(p) < perPeer) {
                        return false;
                    }
                }
                return node.downs[slow] == 1;
            }, "99 peers served and the slow one disconnected");
            for (int p = 0; p < peers; p++) {
                if (p == slow) {
                    continue;
                }
                assertEquals(perPeer, inner.delivered.get(p), "peer " + p + " got every frame");
                assertEquals(0, inner.outOfOrder.get(p), "peer " + p + " in order");
                assertEquals(0, node.downs[p], "peer " + p + " stayed up");
                assertEquals(0, link.peerQueue(p).dropped());
            }
            assertEquals(0, inner.delivered.get(slow));
            assertEquals(1, node.downs[slow], "the node was told once, on its own thread");
            assertFalse(link.isPeerUp(slow));
            PeerQueueStats q = link.peerQueue(slow);
            assertTrue(q.disconnected());
            assertEquals(1, q.disconnects());
            assertEquals(0, q.depth());
            assertEquals(queue, q.peak());
            QueuedLinkStats st = link.queueStats();
            assertEquals(threshold + 1, st.droppedOldest(), "the drop past the threshold disconnects: " + st);
            assertEquals(1, st.disconnects());
            // every frame for the slow peer is accounted for: pushed out, thrown away at the disconnect or
            // after it, or refused once the node knew
            assertEquals(perPeer, st.droppedOldest() + st.droppedDisconnected() + refused, st.toString());
            assertEquals(refused, st.refusedDisconnected());
            assertEquals(q.dropped(), st.droppedOldest() + st.droppedDisconnected());
            assertEquals(peers - 1, link.peers().inUse(), "the disconnected peer gave back its queue");
            assertEquals(WireError.TRANSPORT_DOWN, node.send(link, slow, perPeer), "it gets no more frames");
        } finally {
            link.close();
        }
    }

    @Test
    void aDisconnectedPeerReturnsCleanAfterTheRejoinDelayOrWhenTheInnerLinkReportsItUp() {
        int peers = 4;
        TestClock clock = new TestClock();
        ScriptedLink inner = new ScriptedLink(peers, false);
        inner.slow.set(1, 1);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.builder().peerQueueFrames(4).disconnectDrops(3)
                .rejoinAfterMillis(1_000).clock(clock).build());
        NodeSide node = new NodeSide(peers);
        link.setPeerListener(node);
        try {
            allUp(inner, link, node, peers);
            int s = 0;
            while (node.downs[1] == 0) {
                node.send(link, 1, s++);
                link.poll(node, 16);
                assertTrue(s < 100_000, "never disconnected");
            }
            assertTrue(link.peerQueue(1).disconnected());

            // within the delay its frames are ignored
            inner.slow.set(1, 0);
            inner.generate(peers); // one frame from each peer, peer 1's among them
            node.pumpUntil(link, () -> node.received[0] == 1 && node.received[2] == 1 && node.received[3] == 1
                    && link.queueStats().droppedQuarantine() == 1, "peer 1's frame ignored");
            assertEquals(0, node.received[1]);
            assertFalse(link.isPeerUp(1));

            // after it, its next frame brings it back with an empty queue
            clock.advanceMillis(1_001);
            // the I/O thread reads the clock once a loop: a frame it takes in a loop begun before the
            // advance is still inside the delay and is ignored too; the peer's next one brings it back
            for (int tries = 0; node.received[1] == 0; tries++) {
                assertTrue(tries < 5, "peer 1's frames after the delay are still ignored: " + link.queueStats());
                long ignored = link.queueStats().droppedQuarantine();
                inner.generate(peers);
                node.pumpUntil(link, () -> node.received[1] == 1 || link.queueStats().droppedQuarantine() > ignored,
                        "peer 1's frame after the delay");
            }
            assertTrue(link.isPeerUp(1));
            assertEquals(2, node.ups[1]);
            PeerQueueStats back = link.peerQueue(1);
            assertFalse(back.disconnected());
            assertEquals(0, back.depth());
            inner.restartSequence(1);
            for (int k = 0; k < 100; k++) {
                assertEquals(WireError.OK, node.send(link, 1, k));
            }
            node.pumpUntil(link, () -> inner.delivered.get(1) == 100, "peer 1 served again");
            assertEquals(0, inner.outOfOrder.get(1), "the new session gets only its own frames, in order");
            assertEquals(1, link.queueStats().rejoins());

            // disconnected again; this time the inner link reports it down and up (a returning peer)
            inner.slow.set(1, 1);
            while (node.downs[1] == 1) {
                node.send(link, 1, s++);
                link.poll(node, 16);
            }
            inner.reportDown(1);
            inner.reportUp(1);
            node.pumpUntil(link, () -> link.isPeerUp(1), "peer 1 up again");
            assertEquals(3, node.ups[1]);
            assertEquals(2, node.downs[1], "the inner link's down after the disconnect is not told twice");
            assertEquals(2, link.peerQueue(1).disconnects());
            assertEquals(2, link.queueStats().rejoins());
        } finally {
            link.close();
        }
    }

    @Test
    void closeWithFramesQueuedStopsTheThreadAndCountsWhatWasNotSent() {
        int peers = 3;
        ScriptedLink inner = new ScriptedLink(peers, false);
        inner.slow.set(0, 1);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.builder().peerQueueFrames(16).disconnectDrops(0)
                .build());
        NodeSide node = new NodeSide(peers);
        try {
            for (int s = 0; s < 100; s++) {
                assertEquals(WireError.OK, node.send(link, 0, s));
                assertEquals(WireError.OK, node.send(link, 1, s));
            }
            node.pumpUntil(link, () -> inner.delivered.get(1) == 100 && link.peerQueue(0) != null
                    && link.peerQueue(0).depth() == 16 && link.queueStats().droppedOldest() == 84,
                    "the slow peer's queue full");
        } finally {
            link.close();
        }
        Thread io = link.ioThread();
        assertTrue(io == null || !io.isAlive(), "the I/O thread stopped");
        assertTrue(link.isClosed());
        assertTrue(inner.isClosed(), "the inner link was closed");
        QueuedLinkStats st = link.queueStats();
        assertEquals(16, st.droppedOnClose(), st.toString());
        assertEquals(200, st.framesOut() + st.droppedOldest() + st.droppedOnClose(), st.toString());
        assertEquals(0, link.queuedFrames());
        assertEquals(0, link.outboundFrames().inUse(), "buffers released");
        assertEquals(0, link.inboundFrames().inUse());
        assertEquals(WireError.TRANSPORT_DOWN, node.send(link, 1, 0));
        assertEquals(0, link.poll(node, 10));
        link.close(); // twice is harmless
    }

    @Test
    void probesAndPeerEventsReachTheNodeOnItsThreadAndTheReadinessIsWoken() {
        int peers = 2;
        ScriptedLink inner = new ScriptedLink(peers, true);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.defaults());
        NodeSide node = new NodeSide(peers);
        AtomicInteger wakes = new AtomicInteger();
        link.setPeerListener(node);
        link.setLivenessProbe(node);
        assertTrue(link.setReadiness(new Readiness() {
            @Override
            public boolean watch(Object selectableChannel) {
                return false;
            }

            @Override
            public void wake() {
                wakes.incrementAndGet();
            }
        }));
        try {
            inner.reportUp(1);
            node.pumpUntil(link, () -> link.isPeerUp(1), "peer 1 up");
            assertFalse(link.isPeerUp(0));
            inner.requestProbe(1);
            node.pumpUntil(link, () -> node.probes[1] == 1, "probe of peer 1");
            inner.reportDown(1);
            node.pumpUntil(link, () -> node.downs[1] == 1, "peer 1 down");
            assertFalse(link.isPeerUp(1));
            assertTrue(wakes.get() > 0, "the I/O thread woke the node's loop");
            assertEquals(0, node.wrongThread);
        } finally {
            link.close();
        }
    }

    @Test
    void aFullInboundQueueDropsTheNewestFramesAndCountsThem() {
        ScriptedLink inner = new ScriptedLink(1, false);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.builder().inboundFrames(16).build());
        NodeSide node = new NodeSide(1);
        try {
            inner.generate(100);
            long guard = System.nanoTime() + NodeSide.GUARD_NANOS;
            while (inner.generated() < 100 || link.queueStats().inboundDropped() < 84) { // the node does not poll
                Thread.onSpinWait();
                assertTrue(System.nanoTime() - guard < 0, "the inner link never produced its frames");
            }
            node.pumpUntil(link, () -> node.received[0] == 16, "the 16 frames kept");
            assertEquals(0, link.poll(node, 100));
            assertEquals(0, node.outOfOrder[0], "the oldest 16 were kept, in order");
            assertEquals(16, node.expectedSeq[0]);
            assertEquals(84, link.queueStats().inboundDropped());
            assertEquals(16, link.inboundFrames().peak());
            assertEquals(84, link.inboundFrames().refused());
        } finally {
            link.close();
        }
    }

    /**
     * The queued link's {@link io.spectrum.link.LinkStats} is a read-only view over its own counters and
     * the inner link's: the inner link's invalid frames show through it, exactly once, however much
     * traffic passes; the view has no writer (what the node rejects it counts in its own record).
     */
    @Test
    void theInnerLinksInvalidFramesShowThroughTheReadOnlyView() {
        ScriptedLink inner = new ScriptedLink(1, false);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.defaults());
        NodeSide node = new NodeSide(1);
        try {
            assertFalse(link.stats() instanceof io.spectrum.link.LinkCounters, "a view, not a writer");
            inner.counters().countInvalid(); // the inner link's own
            inner.counters().countInvalid();
            inner.generate(10);
            node.pumpUntil(link, () -> node.received[0] == 10, "the 10 frames");
            assertEquals(2, link.stats().droppedInvalid());
            inner.generate(10);
            node.pumpUntil(link, () -> node.received[0] == 20, "10 more frames");
            assertEquals(2, link.stats().droppedInvalid(), "nothing added twice");
            assertEquals(20, link.stats().framesIn());
        } finally {
            link.close();
        }
    }

    @Test
    void refusalsAreTypedAndCounted() {
        ScriptedLink inner = new ScriptedLink(2, false);
        inner.slow.set(0, 1);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.builder().outboundFrames(8).peerQueueFrames(64)
                .disconnectDrops(0).build());
        try {
            byte[] f = new byte[ScriptedLink.FRAME];
            assertEquals(WireError.TRANSPORT_DOWN, link.send(2, f, 0, f.length), "outside the peer table");
            assertEquals(WireError.FRAME_INVALID, link.send(0, new byte[2048], 0, 2048), "past the frame limit");
            int ok = 0;
            int full = 0;
            for (int i = 0; i < 20; i++) {
                int r = link.send(0, f, 0, f.length);
                if (r == WireError.OK) {
                    ok++;
                } else {
                    assertEquals(WireError.FLOW_BACKPRESSURE, r);
                    full++;
                }
            }
            assertEquals(8, ok, "the link-wide pool is the bound that applied");
            NodeSide node = new NodeSide(2);
            node.pumpUntil(link, () -> link.queuedFrames() == 8, "the 8 frames in peer 0's queue");
            assertEquals(12, full);
            QueuedLinkStats st = link.queueStats();
            assertEquals(1, st.refusedPeer());
            assertEquals(1, st.refusedOversize());
            assertEquals(12, st.refusedNoBuffer());
            assertEquals(8, link.outboundFrames().capacity());
            assertEquals(12, link.outboundFrames().refused());
            assertEquals(8, link.outboundFrames().peak());
            assertNull(link.peerQueue(1));
            assertNotNull(link.peerQueue(0).toString());
        } finally {
            link.close();
        }
    }

    @Test
    void configurationIsCheckedWhenBuilt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> QueuedLinkConfig.builder().peerQueueFrames(0).build());
        assertEquals("peerQueueFrames must be 1..1048576, was 0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> QueuedLinkConfig.builder().disconnectWindowMillis(0).build());
    }
}
