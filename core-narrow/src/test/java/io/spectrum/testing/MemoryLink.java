package io.spectrum.testing;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.WireError;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One end of an in-process link pair for tests: what one end sends to peer 0, the other end polls
 * as coming from peer 0. {@link #inject} queues a frame as if any peer handle had sent it (a forged
 * source address is the victim's handle: on UDP a peer's identity is its source ip:port). Peer 0 is
 * always up; a closed end refuses sends with TRANSPORT_DOWN. Every frame sent is kept in
 * {@link #sent()} for a test to read.
 */
public final class MemoryLink implements Link {
    private final int id;
    private final ArrayDeque<byte[]> inbox = new ArrayDeque<>();
    private final ArrayDeque<Integer> inboxPeer = new ArrayDeque<>();
    private final LinkStats stats = new LinkStats();
    private final List<byte[]> sent = new ArrayList<>();
    private MemoryLink other;
    private boolean closed;

    private MemoryLink(int id) {
        this.id = id;
    }

    /** Two connected ends (ids 1 and 2). */
    public static MemoryLink[] pair() {
        MemoryLink a = new MemoryLink(1);
        MemoryLink b = new MemoryLink(2);
        a.other = b;
        b.other = a;
        return new MemoryLink[] {a, b};
    }

    /** Queues a frame as if the other end (peer 0) had sent it. */
    public void inject(byte[] frame) {
        inject(0, frame);
    }

    /** Queues a frame as if {@code peer} had sent it to this end. */
    public void inject(int peer, byte[] frame) {
        inbox.add(frame.clone());
        inboxPeer.add(peer);
    }

    /** Every frame this end sent, in order. */
    public List<byte[]> sent() {
        return sent;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return "memory " + id;
    }

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        if (closed || other.closed) {
            return WireError.TRANSPORT_DOWN;
        }
        byte[] f = Arrays.copyOfRange(buf, off, off + len);
        sent.add(f);
        if (peer == 0) {
            other.inject(0, f);
        }
        return WireError.OK;
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        int n = 0;
        while (n < maxFrames && !inbox.isEmpty()) {
            byte[] f = inbox.poll();
            handler.onFrame(this, inboxPeer.poll(), f, 0, f.length);
            n++;
        }
        return n;
    }

    @Override
    public boolean isPeerUp(int peer) {
        return peer == 0 && !closed;
    }

    @Override
    public int maxFrame() {
        return 64 * 1024;
    }

    @Override
    public void setPeerListener(PeerListener listener) {
    }

    @Override
    public LinkStats stats() {
        return stats;
    }

    @Override
    public void close() {
        closed = true;
    }
}
