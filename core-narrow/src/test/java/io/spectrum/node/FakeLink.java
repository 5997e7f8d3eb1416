package io.spectrum.node;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.WireError;

/** A link for tests: frames queued by the test are polled in; sent frames are recorded. */
final class FakeLink implements Link {
    final int id;
    final LinkStats stats = new LinkStats();
    PeerListener listener;
    // inbound queue (fixed, reused: the allocation test drives it too)
    private final byte[][] inBuf = new byte[64][4096];
    private final int[] inLen = new int[64];
    private final int[] inPeer = new int[64];
    private int inHead;
    private int inTail;
    // recorded sends
    final byte[][] sent = new byte[256][4096];
    final int[] sentLen = new int[256];
    final int[] sentPeer = new int[256];
    int sentCount;
    boolean record = true;
    long sendCalls;
    /** What send answers; anything but OK is a frame the link did not take (not recorded). */
    int sendResult = WireError.OK;
    /** A peer whose channel is gone without the link telling anyone: sends answer TRANSPORT_DOWN, isPeerGone true. */
    int gonePeer = -1;

    private final int maxFrame;

    FakeLink(int id) {
        this(id, 4096);
    }

    /** A link carrying frames of at most {@code maxFrame} bytes (a serial line set to a small frame). */
    FakeLink(int id, int maxFrame) {
        this.id = id;
        this.maxFrame = maxFrame;
    }

    void inject(int peer, byte[] b, int off, int len) {
        int i = inTail++ & 63;
        System.arraycopy(b, off, inBuf[i], 0, len);
        inLen[i] = len;
        inPeer[i] = peer;
    }

    void inject(int peer, byte[] frame) {
        inject(peer, frame, 0, frame.length);
    }

    void clearSent() {
        sentCount = 0;
    }

    byte[] lastSent() {
        if (sentCount == 0) {
            return null;
        }
        int i = (sentCount - 1) % sent.length;
        byte[] r = new byte[sentLen[i]];
        System.arraycopy(sent[i], 0, r, 0, r.length);
        return r;
    }

    byte[] sentAt(int k) {
        byte[] r = new byte[sentLen[k]];
        System.arraycopy(sent[k], 0, r, 0, r.length);
        return r;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return "fake " + id;
    }

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        sendCalls++;
        if (sendResult != WireError.OK) {
            return sendResult;
        }
        if (peer == gonePeer) {
            return WireError.TRANSPORT_DOWN;
        }
        if (record) {
            int i = sentCount % sent.length;
            System.arraycopy(buf, off, sent[i], 0, len);
            sentLen[i] = len;
            sentPeer[i] = peer;
            sentCount++;
        }
        return WireError.OK;
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        int n = 0;
        while (inHead != inTail && n < maxFrames) {
            int i = inHead++ & 63;
            handler.onFrame(this, inPeer[i], inBuf[i], 0, inLen[i]);
            n++;
        }
        return n;
    }

    @Override
    public boolean isPeerGone(int peer) {
        return peer == gonePeer;
    }

    @Override
    public int maxFrame() {
        return maxFrame;
    }

    @Override
    public void setPeerListener(PeerListener l) {
        listener = l;
    }

    @Override
    public LinkStats stats() {
        return stats;
    }

    @Override
    public void close() {
    }
}
