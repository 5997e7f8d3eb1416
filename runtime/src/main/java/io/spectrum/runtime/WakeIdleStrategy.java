package io.spectrum.runtime;

import org.agrona.concurrent.IdleStrategy;

/**
 * Idles the node agent: right after work it spins, then yields, for a short window (the next
 * request of a busy peer usually arrives within it, so it is served without a wake-up); then it
 * blocks in the agent's selector until a link has input, a task is submitted, or the agent's next
 * timer deadline. A wake-up that finds no work goes straight back to blocking, so an idle node
 * costs one wake per deadline and no spinning.
 */
public final class WakeIdleStrategy implements IdleStrategy {
    private static final int SPINS = 200;

    private final Runnable block;
    private final long spinNanos;
    private boolean spinning;
    private long spinUntil;
    private int spins;

    /**
     * @param agent     whose selector and deadlines it blocks on
     * @param spinNanos how long after the last work it spins and yields before blocking (0: never)
     */
    WakeIdleStrategy(NodeAgent agent, long spinNanos) {
        this(agent::awaitWork, spinNanos);
    }

    /**
     * An idle strategy that spins and yields for {@code spinNanos} after work, then runs
     * {@code block}: a sleep in a selector until input or a wake (a bus client's I/O thread,
     * {@link SelectorReadiness#await}), bounded by its own deadline.
     */
    public WakeIdleStrategy(Runnable block, long spinNanos) {
        this.block = block;
        this.spinNanos = spinNanos;
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
            return;
        }
        idle();
    }

    @Override
    public void idle() {
        if (spinning) {
            if (System.nanoTime() - spinUntil < 0) {
                if (spins++ < SPINS) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
                return;
            }
            spinning = false;
        }
        block.run();
    }

    @Override
    public void reset() {
        spins = 0;
        spinning = spinNanos > 0;
        spinUntil = System.nanoTime() + spinNanos;
    }

    @Override
    public String alias() {
        return "spin-then-select";
    }
}
