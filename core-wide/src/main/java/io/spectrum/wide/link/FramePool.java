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
        Frame f = free.relaxedPoll();
        if (f == null) {
            refusals = refusals + 1;
            return null;
        }
        int used = capacity - free.size();
        if (used > peak) {
            peak = used;
        }
        return f;
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
        return n;
    }

    /** Frames in the pool now. */
    int free() {
        return free.size();
    }

    /** Empties the pool (close): its buffers become garbage once no queue holds them either. */
    void release() {
        released = true;
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
        return released ? 0 : Math.max(0, capacity - free.size());
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
