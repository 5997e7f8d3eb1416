package io.spectrum.wide.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.LivenessProbe;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.WireError;

import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The node thread of a {@link QueuedLink} test: the frame handler, peer listener and liveness probe a
 * node would register, recording per peer what arrived, in which order and on which thread. Not
 * thread-safe on purpose: everything here must run on the node (test) thread, and {@link #wrongThread}
 * counts calls that did not.
 */
final class NodeSide implements FrameHandler, PeerListener, LivenessProbe {
    /** Guard against a hung test; not a timing assertion. */
    static final long GUARD_NANOS = 60_000_000_000L;

    final Thread nodeThread = Thread.currentThread();
    final long[] received;
    final int[] expectedSeq;
    final long[] outOfOrder;
    final int[] ups;
    final int[] downs;
    final int[] probes;
    int wrongThread;
    private final byte[] tx = new byte[ScriptedLink.FRAME];

    NodeSide(int peers) {
        received = new long[peers];
        expectedSeq = new int[peers];
        outOfOrder = new long[peers];
        ups = new int[peers];
        downs = new int[peers];
        probes = new int[peers];
    }

    private void checkThread() {
        if (Thread.currentThread() != nodeThread) {
            wrongThread++;
        }
    }

    @Override
    public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
        checkThread();
        int s = ScriptedLink.seq(buf, off);
        if (s != expectedSeq[peer] || ScriptedLink.peerOf(buf, off) != peer) {
            outOfOrder[peer]++;
        }
        expectedSeq[peer] = s + 1;
        received[peer]++;
    }

    @Override
    public void onPeerUp(Link link, int peer) {
        checkThread();
        ups[peer]++;
    }

    @Override
    public void onPeerDown(Link link, int peer) {
        checkThread();
        downs[peer]++;
    }

    @Override
    public void probe(Link link, int peer) {
        checkThread();
        probes[peer]++;
    }

    /** Sends frame {@code seq} to {@code peer}; while the link answers FLOW_BACKPRESSURE, polls and retries. */
    int send(QueuedLink link, int peer, int seq) {
        ScriptedLink.writeSeq(tx, peer, seq);
        long guard = System.nanoTime() + GUARD_NANOS;
        while (true) {
            int r = link.send(peer, tx, 0, tx.length);
            if (r != WireError.FLOW_BACKPRESSURE) {
                return r;
            }
            link.poll(this, 256);
            Thread.onSpinWait();
            if (System.nanoTime() - guard > 0) {
                fail("the link stayed full: " + link.queueStats());
            }
        }
    }

    /**
     * Writes frame {@code seq} to {@code peer} into a buffer the link lends ({@link QueuedLink#claim}) and
     * commits it, as the FWD engine writes its deliveries; while it lends none, sends as {@link #send}
     * does (which polls and retries while the link is full).
     */
    int sendClaimed(QueuedLink link, int peer, int seq) {
        byte[] b = link.claim(peer);
        if (b == null) {
            return send(link, peer, seq);
        }
        ScriptedLink.writeSeq(b, peer, seq);
        return link.commitClaim(ScriptedLink.FRAME);
    }

    /** Polls the link until {@code done} holds (fails after the guard with {@code what}). */
    void pumpUntil(QueuedLink link, BooleanSupplier done, String what) {
        long guard = System.nanoTime() + GUARD_NANOS;
        while (!done.getAsBoolean()) {
            if (link.poll(this, 256) == 0) {
                Thread.onSpinWait();
            }
            if (System.nanoTime() - guard > 0) {
                fail("never happened: " + what + "; " + link.queueStats());
            }
        }
        assertEquals(0, wrongThread, "a frame or peer event reached the node off its thread");
    }
}
