package io.spectrum.client;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.WireError;

import java.util.ArrayDeque;
import java.util.Arrays;

/** One end of an in-memory link pair: what one end sends, the other polls (one peer, 0). */
final class MemoryLink implements Link {
    private final int id;
    private final ArrayDeque<byte[]> inbox = new ArrayDeque<>();
    private final LinkStats stats = new LinkStats();
    private MemoryLink other;
    private boolean closed;

    private MemoryLink(int id) {
        this.id = id;
    }

    /** Two connected ends. */
    static MemoryLink[] pair() {
        MemoryLink a = new MemoryLink(1);
        MemoryLink b = new MemoryLink(2);
        a.other = b;
        b.other = a;
        return new MemoryLink[] {a, b};
    }

    /** Queues a frame as if the other end had sent it. */
    void inject(byte[] frame) {
        inbox.add(frame.clone());
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
        other.inbox.add(Arrays.copyOfRange(buf, off, off + len));
        return WireError.OK;
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        int n = 0;
        while (n < maxFrames && !inbox.isEmpty()) {
            byte[] f = inbox.poll();
            handler.onFrame(this, 0, f, 0, f.length);
            n++;
        }
        return n;
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
