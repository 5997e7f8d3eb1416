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
    private volatile int peak;
    private volatile long refusals;
    private volatile boolean released;

    FramePool(String name, int frames, int frameBytes) {
        this.name = name;
        this.capacity = frames;
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

    /** Gives a frame back. Giver thread only. */
    void give(Frame f) {
        free.offer(f);
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
    public int capacity() {
        return capacity;
    }

    @Override
    public int inUse() {
        return released ? 0 : Math.max(0, capacity - free.size());
    }

    @Override
    public int peak() {
        return peak;
    }

    @Override
    public long refusals() {
        return refusals;
    }
}
