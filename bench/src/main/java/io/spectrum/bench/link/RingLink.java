package io.spectrum.bench.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkCounters;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.WireError;

/**
 * One end of an in-process link pair for benchmarks (the tests' MemoryLink is in core-narrow's
 * test-jar, which benchmark code does not ship, and takes its lock on every call): each end's inbox
 * is a fixed ring of frame slots, so a steady run allocates nothing; a full ring refuses with
 * FLOW_BACKPRESSURE. Single-threaded: both ends
 * are driven from one thread. Peer 0 (the other end) is always up.
 */
public final class RingLink implements Link {
    private final int id;
    private final byte[][] slots;
    private final int[] lengths;
    private final LinkCounters stats = new LinkCounters();
    private RingLink other;
    private int head;
    private int count;
    private boolean closed;

    private RingLink(int id, int frames, int maxFrame) {
        this.id = id;
        this.slots = new byte[frames][maxFrame];
        this.lengths = new int[frames];
    }

    /** Two connected ends with ids {@code idA} and {@code idB}, each with room for {@code frames} frames. */
    public static RingLink[] pair(int idA, int idB, int frames, int maxFrame) {
        RingLink a = new RingLink(idA, frames, maxFrame);
        RingLink b = new RingLink(idB, frames, maxFrame);
        a.other = b;
        b.other = a;
        return new RingLink[] {a, b};
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return "ring " + id;
    }

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        if (closed || other.closed || peer != 0) {
            return WireError.TRANSPORT_DOWN;
        }
        if (len > slots[0].length) {
            return WireError.FRAME_INVALID;
        }
        RingLink o = other;
        if (o.count == o.slots.length) {
            stats.countSendRefused();
            return WireError.FLOW_BACKPRESSURE;
        }
        int at = (o.head + o.count) % o.slots.length;
        System.arraycopy(buf, off, o.slots[at], 0, len);
        o.lengths[at] = len;
        o.count++;
        stats.countOut(0);
        return WireError.OK;
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        int n = 0;
        while (n < maxFrames && count > 0) {
            int at = head;
            head = (head + 1) % slots.length;
            count--;
            stats.countIn(0);
            handler.onFrame(this, 0, slots[at], 0, lengths[at]);
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
        return slots[0].length;
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
