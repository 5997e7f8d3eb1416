package io.spectrum.wide.link;

import io.spectrum.link.Readiness;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * How a {@link QueuedLink}'s I/O thread waits, and the {@link Readiness} it hands to the inner link.
 * Three ways, chosen by what the inner link supports:
 * <ul>
 *   <li><b>select</b>: the inner link gave a channel to {@link #watch}; the thread blocks in its own
 *       selector until the channel is readable, the node thread queues a frame, or
 *       {@code maxBlockNanos} pass (the inner link's liveness timers run in its poll);</li>
 *   <li><b>park</b>: the inner link signals arrivals through {@link #wake} (a serial driver's event
 *       thread); the thread parks for at most {@code maxBlockNanos};</li>
 *   <li><b>poll</b>: the inner link does neither; the configured agrona idle strategy (back off) runs.</li>
 * </ul>
 * While a peer's inner send answers FLOW_BACKPRESSURE a selecting or parking thread waits at most
 * {@code retryNanos} (a polling one at most its idle strategy's longest park). A
 * wake costs a syscall only when the thread is asleep (the {@code sleeping} flag), so a busy node thread
 * queueing frames does not pay for one per frame. Allocation-free after setup.
 */
final class IoWait implements IdleStrategy, Readiness {
    private static final int SPINS = 100;
    private static final int YIELDS = 20;

    private final long maxBlockNanos;
    private final long maxBlockMillis;
    private final long retryNanos;
    private final IdleStrategy pollIdle;
    private final Consumer<SelectionKey> onKey = k -> { };
    private Selector selector;
    private boolean innerWakes;
    private Thread thread;
    private LinkIo io;
    private volatile boolean sleeping;
    /** Set by every wake, cleared by the I/O thread before it sleeps: a wake just before sleeping is not lost. */
    private volatile boolean signalled;
    private int idleCount;

    IoWait(long maxBlockNanos, long retryNanos, IdleStrategy pollIdle) {
        this.maxBlockNanos = maxBlockNanos;
        this.maxBlockMillis = Math.max(1, maxBlockNanos / 1_000_000);
        this.retryNanos = retryNanos;
        this.pollIdle = pollIdle;
    }

    /** Set before the thread starts. */
    void bind(LinkIo io, boolean innerSignals) {
        this.io = io;
        this.innerWakes = innerSignals;
    }

    void thread(Thread t) {
        this.thread = t;
    }

    /** The inner link's channel, watched by the I/O thread's own selector (called before the thread starts). */
    @Override
    public boolean watch(Object selectableChannel) {
        if (!(selectableChannel instanceof SelectableChannel ch) || ch.isBlocking()) {
            return false;
        }
        try {
            if (selector == null) {
                selector = Selector.open();
            }
            ch.register(selector, SelectionKey.OP_READ);
            return true;
        } catch (ClosedChannelException | RuntimeException e) {
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** Wakes the I/O thread if it sleeps (callable from any thread; a syscall only when it sleeps). */
    @Override
    public void wake() {
        signalled = true;
        if (sleeping) {
            Selector s = selector;
            if (s != null) {
                s.wakeup();
            }
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** The node thread queued a frame: a full fence so the flag read cannot pass the queue write. */
    void wakeAfterOffer() {
        java.lang.invoke.VarHandle.fullFence();
        wake();
    }

    String mode() {
        return selector != null ? "select" : innerWakes ? "park" : "poll(" + pollIdle.alias() + ")";
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        if (selector == null && !innerWakes) {
            pollIdle.idle(); // its back-off also paces the retries of a backpressured peer
            return;
        }
        boolean blocked = io.hasBlockedPeers();
        if (idleCount < SPINS) {
            idleCount++;
            Thread.onSpinWait();
            return;
        }
        if (idleCount < SPINS + YIELDS) {
            idleCount++;
            Thread.yield();
            return;
        }
        sleeping = true;
        java.lang.invoke.VarHandle.fullFence();
        if (signalled || io.hasInput()) {
            signalled = false;
            sleeping = false;
            return;
        }
        if (blocked) {
            LockSupport.parkNanos(retryNanos);
        } else if (selector != null) {
            try {
                selector.select(onKey, maxBlockMillis);
            } catch (IOException | RuntimeException e) {
                LockSupport.parkNanos(maxBlockNanos);
            }
        } else {
            LockSupport.parkNanos(maxBlockNanos);
        }
        sleeping = false;
        signalled = false;
    }

    @Override
    public void reset() {
        idleCount = 0;
        pollIdle.reset();
    }

    @Override
    public String alias() {
        return "spectrum-io";
    }

    void close() {
        Selector s = selector;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // nothing left to release
            }
        }
    }
}
