package io.spectrum.wide.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.LivenessProbe;
import io.spectrum.link.PeerListener;
import io.spectrum.link.Readiness;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.stats.BoundedResource;
import io.spectrum.testing.Frames;
import io.spectrum.testing.MemoryLink;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A frame written into the buffer a {@link QueuedLink} lends ({@link Link#claim}) is the buffer its inner
 * link sends from: no copy between the node's encode and the I/O thread. A claim the send would refuse
 * lends nothing, and a claim given back leaves the outbound pool as it was.
 */
class QueuedLinkClaimTest {

    @Test
    void theInnerLinkSendsFromTheBufferTheClaimLent() {
        Recording inner = new Recording(2);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.defaults());
        NodeSide node = new NodeSide(2);
        try {
            for (int seq = 0; seq < 50; seq++) {
                byte[] b = link.claim(1);
                assertNotNull(b, "a free buffer lent");
                ScriptedLink.writeSeq(b, 1, seq);
                assertEquals(WireError.OK, link.commitClaim(ScriptedLink.FRAME));
                int want = seq + 1;
                node.pumpUntil(link, () -> inner.delivered.get(1) == want, "frame " + seq);
                assertSame(b, inner.lastBuffer, "sent from the very array the frame was written in");
            }
            assertEquals(0, inner.outOfOrder.get(1));
            byte[] own = new byte[ScriptedLink.FRAME];
            ScriptedLink.writeSeq(own, 1, 50);
            assertEquals(WireError.OK, link.send(1, own, 0, own.length));
            node.pumpUntil(link, () -> inner.delivered.get(1) == 51, "the sent frame");
            assertTrue(inner.lastBuffer != own, "send copies the caller's frame into a pooled one, as before");
            node.pumpUntil(link, () -> link.outboundFrames().inUse() == 0, "every frame back in the pool");
        } finally {
            link.close();
        }
    }

    @Test
    void anAbortedClaimLeavesThePoolAsItWasAndSendsNothing() {
        ScriptedLink inner = new ScriptedLink(2, false);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.builder().outboundFrames(4).build());
        try {
            BoundedResource pool = link.outboundFrames();
            assertEquals(0, pool.inUse());
            byte[] b = link.claim(0);
            assertNotNull(b);
            assertEquals(1, pool.inUse(), "the claimed frame is out of the pool");
            assertNull(link.claim(1), "one claim at a time");
            link.abortClaim();
            assertEquals(0, pool.inUse(), "given back");
            assertEquals(4, io(link).free());
            assertEquals(0, pool.refused());
            assertEquals(WireError.TRANSPORT_DOWN, link.commitClaim(ScriptedLink.FRAME), "no claim open");
            link.abortClaim(); // none open: nothing happens
            assertEquals(0, pool.inUse());
            assertSame(b, link.claim(0), "the frame given back is the next one lent");
            link.abortClaim();
            for (int i = 0; i < 4; i++) { // each lent, given back, lent again: the pool never runs short
                assertNotNull(link.claim(i % 2));
                link.abortClaim();
            }
            assertEquals(0, pool.inUse());
            assertEquals(0, link.queuedFrames());
            assertEquals(0, link.queueStats().framesOut());
            assertEquals(0L, inner.sendCalls, "nothing reached the inner link");
        } finally {
            link.close();
        }
    }

    @Test
    void aClaimTheSendWouldRefuseLendsNothingAndTheSendRefusesAndCountsAsBefore() {
        ScriptedLink inner = new ScriptedLink(2, false);
        inner.slow.set(0, 1);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.builder().outboundFrames(8).peerQueueFrames(64)
                .disconnectDrops(0).build());
        try {
            BoundedResource pool = link.outboundFrames();
            byte[] f = new byte[ScriptedLink.FRAME];
            assertNull(link.claim(2), "outside the peer table");
            assertNull(link.claim(-1));
            assertEquals(0, pool.inUse());
            assertEquals(WireError.TRANSPORT_DOWN, link.send(2, f, 0, f.length), "the send refuses as always");
            byte[] b = link.claim(0);
            assertEquals(WireError.FRAME_INVALID, link.commitClaim(b.length + 1), "past the claim's room");
            assertEquals(0, pool.inUse(), "the oversize frame went back to the pool");
            for (int i = 0; i < 8; i++) {
                byte[] c = link.claim(0);
                assertNotNull(c, "frame " + i);
                ScriptedLink.writeSeq(c, 0, i);
                assertEquals(WireError.OK, link.commitClaim(ScriptedLink.FRAME));
            }
            assertNull(link.claim(0), "every outbound buffer in use (peer 0 answers FLOW_BACKPRESSURE)");
            assertNull(link.claim(1));
            assertEquals(0, pool.refused(), "a claim refused counts nothing");
            assertEquals(0, link.queueStats().refusedNoBuffer());
            assertEquals(WireError.FLOW_BACKPRESSURE, link.send(0, f, 0, f.length));
            QueuedLinkStats st = link.queueStats();
            assertEquals(1, st.refusedNoBuffer(), "the send counted its refusal once");
            assertEquals(1, pool.refused());
            assertEquals(1, st.refusedPeer());
            assertEquals(1, st.refusedOversize());
            assertEquals(8, pool.peak());
            NodeSide node = new NodeSide(2);
            node.pumpUntil(link, () -> link.queuedFrames() == 8, "the 8 claimed frames in peer 0's queue");
            link.close();
            assertNull(link.claim(1), "closed");
            assertEquals(WireError.TRANSPORT_DOWN, link.send(1, f, 0, f.length));
        } finally {
            link.close();
        }
    }

    /**
     * A node's deliveries through a QueuedLink: every FWD WRITE the board's node sends is written into a
     * buffer the link lent, and the inner link sends it from that very buffer (none reaches the link
     * through {@link Link#send}, which copies).
     */
    @Test
    void aNodesDeliveriesAreWrittenIntoThePooledFramesTheInnerLinkSendsFrom() {
        NarrowNode board = new NarrowNode(NodeConfig.builder().remoteWritesToUndeclared(true).build());
        NarrowNode host = new NarrowNode(NodeConfig.builder().remoteWritesToUndeclared(true).build());
        MemoryLink[] pair = MemoryLink.pair(1, 2, 4096);
        Spy inner = new Spy(pair[0]);
        QueuedLink queued = QueuedLink.wrap(inner, QueuedLinkConfig.defaults());
        Spy boardLink = new Spy(queued);
        try {
            assertTrue(board.attach(boardLink) >= 0);
            assertTrue(host.attach(pair[1]) >= 0);
            NodePath temp = NodePath.of("/sensor/temp");
            NodePath mirror = NodePath.of("/boards/b1/temp");
            byte[] first = Frames.value(100, 8);
            assertEquals(0, board.write(temp, first, 0, first.length));
            List<Long> got = new ArrayList<>();
            host.subscribe(mirror, 0, (s, v, seq, stale) -> got.add(Frames.counter(v.copy(), 0)));
            assertTrue(host.subscribeRemote(pair[1], 0, temp, mirror, 0x0020) >= 0);
            pump(board, host, () -> !got.isEmpty() && got.get(got.size() - 1) == 100L, "the retained value");
            for (int i = 101; i <= 200; i++) {
                byte[] v = Frames.value(i, 8);
                assertEquals(0, board.write(temp, v, 0, v.length));
                int n = i;
                pump(board, host, () -> got.get(got.size() - 1) == n, "value " + n);
            }
            assertEquals(200L, got.get(got.size() - 1));
            assertEquals(0, boardLink.writesSent, "no delivery went through send (and its copy)");
            assertTrue(boardLink.committed.size() >= 101, "every delivery written into a lent buffer: "
                    + boardLink.committed.size());
            for (byte[] b : boardLink.committed) {
                assertTrue(inner.sentFrom.contains(b), "the inner link sent from the lent buffer");
            }
            assertEquals(0, queued.queueStats().droppedTotal(), queued.queueStats().toString());
        } finally {
            queued.close();
        }
    }

    private static void pump(NarrowNode board, NarrowNode host, BooleanSupplier done, String what) {
        long guard = System.nanoTime() + NodeSide.GUARD_NANOS;
        while (!done.getAsBoolean()) {
            if (board.poll() + host.poll() == 0) {
                Thread.onSpinWait();
            }
            if (System.nanoTime() - guard > 0) {
                fail("never happened: " + what);
            }
        }
    }

    private static FramePool io(QueuedLink link) {
        return (FramePool) link.outboundFrames();
    }

    /** A scripted inner link that remembers the array it last sent from (written by the I/O thread). */
    private static final class Recording extends ScriptedLink {
        volatile byte[] lastBuffer;

        Recording(int peers) {
            super(peers, false);
        }

        @Override
        public int send(int peer, byte[] buf, int off, int len) {
            lastBuffer = buf;
            return super.send(peer, buf, off, len);
        }
    }

    /**
     * A link that forwards everything to another and records, by identity, the arrays FWD WRITEs were
     * sent from ({@link #sentFrom}) and the arrays of the claims committed ({@link #committed}), and counts
     * the FWD WRITEs that came through {@link #send}. Recorded from any thread.
     */
    private static final class Spy implements Link {
        private final Link to;
        final Set<byte[]> sentFrom = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        final Set<byte[]> committed = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        volatile int writesSent;
        private byte[] open;

        Spy(Link to) {
            this.to = to;
        }

        @Override
        public int id() {
            return to.id();
        }

        @Override
        public String name() {
            return to.name();
        }

        @Override
        public int send(int peer, byte[] buf, int off, int len) {
            if (FwdView.peekOpcode(buf, off, len) == FwdView.OP_WRITE) {
                writesSent++;
                sentFrom.add(buf);
            }
            return to.send(peer, buf, off, len);
        }

        @Override
        public byte[] claim(int peer) {
            open = to.claim(peer);
            return open;
        }

        @Override
        public int commitClaim(int len) {
            int rc = to.commitClaim(len);
            if (rc == WireError.OK) {
                committed.add(open);
            }
            open = null;
            return rc;
        }

        @Override
        public void abortClaim() {
            open = null;
            to.abortClaim();
        }

        @Override
        public void flush() {
            to.flush();
        }

        @Override
        public int poll(FrameHandler handler, int maxFrames) {
            return to.poll((l, p, b, o, n) -> handler.onFrame(this, p, b, o, n), maxFrames);
        }

        @Override
        public int maxFrame() {
            return to.maxFrame();
        }

        @Override
        public void setPeerListener(PeerListener listener) {
            to.setPeerListener(listener == null ? null : new PeerListener() {
                @Override
                public void onPeerUp(Link link, int peer) {
                    listener.onPeerUp(Spy.this, peer);
                }

                @Override
                public void onPeerDown(Link link, int peer) {
                    listener.onPeerDown(Spy.this, peer);
                }
            });
        }

        @Override
        public void setLivenessProbe(LivenessProbe probe) {
            to.setLivenessProbe(probe == null ? null : (l, p) -> probe.probe(this, p));
        }

        @Override
        public boolean isPeerUp(int peer) {
            return to.isPeerUp(peer);
        }

        @Override
        public boolean isPeerGone(int peer) {
            return to.isPeerGone(peer);
        }

        @Override
        public long peerGeneration(int peer) {
            return to.peerGeneration(peer);
        }

        @Override
        public boolean setReadiness(Readiness readiness) {
            return to.setReadiness(readiness);
        }

        @Override
        public LinkStats stats() {
            return to.stats();
        }

        @Override
        public BoundedResource peers() {
            return to.peers();
        }

        @Override
        public void close() {
            to.close();
        }
    }
}
