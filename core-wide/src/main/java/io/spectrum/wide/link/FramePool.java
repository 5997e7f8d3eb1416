package io.spectrum.wide.link;

import io.spectrum.stats.BoundedResource;
import org.jctools.queues.SpscArrayQueue;

/**
 * A fixed set of frames circulating between two threads: the taker thread takes a free one, the other
 * thread gives it back after use. In the BoundedResource vocabulary: capacity is the pool size, inUse
 * the frames out of the pool, peak their high-water mark, refusals the takes that found none free
 * (peak and refusals are written by the taker thread only).
 */
final class FramePool implements BoundedResource {
    private final String name;
    private final SpscArrayQueue<Frame> free;
    private final int capacity;
    /** The bytes each frame was made with: what a frame holds again when it comes back. */
    private final int frameBytes;
    private volatile int peak;
    private volatile long refusals;
    private volatile boolean released;
    /**
     * A frame the taker took and gave back unused ({@link #putBack}: an aborted claim), taken first by
     * its next take. The taker's own slot, so giving back needs no second producer on {@link #free}
     * (whose one producer is the giver thread). Written by the taker thread only.
     */
    private volatile Frame back;

    FramePool(String name, int frames, int frameBytes) {
        this.name = name;
        this.capacity = frames;
        this.frameBytes = frameBytes;
        this.free = new SpscArrayQueue<>(Math.max(2, frames));
        for (int i = 0; i < frames; i++) {
            free.offer(new Frame(frameBytes));
        }
    }

    /** A free frame, or null (counted) when all are out. Taker thread only. */
    Frame take() {
        Frame f = takeIfFree();
        if (f == null) {
            refusals = refusals + 1;
        }
        return f;
    }

    /** A free frame, or null when all are out, counting no refusal (a claim: the send that follows counts). Taker thread only. */
    Frame takeIfFree() {
        Frame f = back;
        if (f != null) {
            back = null; // out again, as it was before it came back: inUse and peak as they were
            return f;
        }
        f = free.relaxedPoll();
        if (f == null) {
            return null;
        }
        int used = capacity - free.size();
        if (used > peak) {
            peak = used;
        }
        return f;
    }

    /**
     * Gives back a frame the taker took and did not use (unchanged: it never grew), so the pool counts
     * as it did before the take. At most one at a time: the next take takes it first. Taker thread only.
     */
    void putBack(Frame f) {
        if (back != null) {
            throw new IllegalStateException(name + ": a frame was given back already");
        }
        back = f;
    }

    /**
     * The largest buffer a free frame keeps: a frame that grew up to it (the common frames: values,
     * listings, declarations) keeps its buffer, so steady traffic allocates nothing; one that grew
     * past it (a 64 KiB datagram, once) comes back at the pool's size. So a pool never holds more
     * than frames × this, whatever a peer sent (8,192 inbound frames: 32 MiB, not 512 MiB).
     */
    static final int KEEP_BYTES = 4096;

    /** Gives a frame back (a frame grown past {@link #KEEP_BYTES} back at the pool's size). Giver thread only. */
    void give(Frame f) {
        if (f.buf.length > Math.max(frameBytes, KEEP_BYTES)) {
            f.buf = new byte[frameBytes];
        }
        free.offer(f);
    }

    /** The bytes the free frames hold now. Tests only, with neither thread using the pool. */
    long freeBytes() {
        long n = 0;
        for (int i = free.size(); i > 0; i--) {
            Frame f = free.relaxedPoll();
            if (f == null) {
                break;
            }
            n += f.buf.length;
            free.offer(f);
        }
        Frame b = back;
        return b == null ? n : n + b.buf.length;
    }

    /** Frames in the pool now. */
    int free() {
        return free.size() + (back == null ? 0 : 1);
    }

    /** Empties the pool (close): its buffers become garbage once no queue holds them either. */
    void release() {
        released = true;
        back = null;
        free.clear();
    }

    @Override
    public String resourceName() {
        return name;
    }

    @Override
    public long capacity() {
        return capacity;
    }

    @Override
    public long inUse() {
        return released ? 0 : Math.max(0, capacity - free());
    }

    @Override
    public long peak() {
        return peak;
    }

    @Override
    public long refused() {
        return refusals;
    }

    @Override
    public long dropped() {
        return 0; // a pool refuses when empty; a buffer taken is given back, never dropped
    }
}
