package io.spectrum.client.bus;

import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;

/**
 * How a bus client's node client ({@link BusClient#node()}) idles while it waits (a request's
 * reply, a delivery, {@code pumpFor}): an empty round parks its thread until the client's I/O
 * thread hands it a frame from the node or sends one of its frames ({@link BusIo#wakeNode}), and at
 * most {@link #MAX_PARK_NANOS}, so the wait's deadline is read again at least that often. A round
 * that did work returns at once. Without the wake each waiting node client polled on a fixed
 * 100 µs park, which many waiting at once turned into most of a machine's wake-ups
 * (docs/benchmarks.md, section 16).
 */
final class NodeWait implements IdleStrategy {
    /** The longest park of one empty round (1 ms): a missed wake costs at most this. */
    static final long MAX_PARK_NANOS = 1_000_000L;

    private final BusIo io;

    NodeWait(BusIo io) {
        this.io = io;
    }

    @Override
    public void idle(int workCount) {
        if (workCount <= 0) {
            idle();
        }
    }

    /**
     * Parks until woken or {@link #MAX_PARK_NANOS}: the thread is named as the waiter before the
     * queue is looked at, so a frame queued after the look unparks it (or leaves the permit that
     * makes the park return at once).
     */
    @Override
    public void idle() {
        io.nodeWaiter(Thread.currentThread());
        try {
            if (!io.hasNodeFrames()) {
                LockSupport.parkNanos(this, MAX_PARK_NANOS);
            }
        } finally {
            io.nodeWaiter(null);
        }
    }

    @Override
    public void reset() {
    }

    @Override
    public String alias() {
        return "park-until-node-frame";
    }
}
