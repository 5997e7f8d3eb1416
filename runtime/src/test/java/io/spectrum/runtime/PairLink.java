package io.spectrum.runtime;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.WireError;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * One end of an in-process link pair for tests: what one end sends, the other polls as peer 0;
 * {@link #inject} queues a frame as if it came from any peer handle (a forged source address is
 * peer 0's handle: on UDP the source ip:port is the peer's identity). Peer 0 is always up.
 */
final class PairLink implements Link {
    private final int id;
    private final ArrayDeque<byte[]> inbox = new ArrayDeque<>();
    private final ArrayDeque<Integer> inboxPeer = new ArrayDeque<>();
    private final LinkStats stats = new LinkStats();
    private PairLink other;
    /** Frames this end sent (a test reads them to learn what a peer was told). */
    final java.util.List<byte[]> sent = new java.util.ArrayList<>();

    private PairLink(int id) {
        this.id = id;
    }

    static PairLink[] pair() {
        PairLink a = new PairLink(1);
        PairLink b = new PairLink(2);
        a.other = b;
        b.other = a;
        return new PairLink[] {a, b};
    }

    /** Queues a frame as if {@code peer} had sent it to this end. */
    void inject(int peer, byte[] frame) {
        inbox.add(frame.clone());
        inboxPeer.add(peer);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return "pair " + id;
    }

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
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
        return peer == 0;
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
    }
}
