package io.spectrum.wide;

import io.spectrum.wire.DeliveryMode;
import java.util.ArrayDeque;

/**
 * The delivery-mode rule of one subscription, the one implementation both doors use
 * (docs/extensions.md "Delivery modes", docs/bus.md "Delivery modes"): the node's FWD edges
 * ({@link DeliveryModes}) and the host bus's topic subscriptions queue their values here.
 *
 * <ul>
 *   <li><b>latest</b>: at most one undelivered value; a newer one replaces it and is counted
 *       ({@link #replaced()}, reported with the next delivery, then reset).</li>
 *   <li><b>bounded</b>: up to {@code maxQueued} undelivered values in order; a subscription with no
 *       room makes the whole publish be refused ({@link #full()}), decided by the caller before
 *       anything changes.</li>
 *   <li><b>credits</b>: at most {@code maxInFlight} deliveries out and not consumed. In flight is
 *       delivered − consumed. Credits come back either cumulatively ({@link #consumeUpTo}, the
 *       node's consumed message) or one delivery at a time ({@link #consumeOne}, the bus's
 *       per-delivery consume).</li>
 * </ul>
 *
 * Not thread-safe: each user keeps its queues on its one thread. The entries are the user's own
 * (the node's copy of a value and its stamp; the bus's message with its artifact roots); a value
 * that leaves the queue without being delivered is handed back ({@link #offer}, {@link #poll}) so
 * its owner can release what it holds.
 *
 * @param <E> what one queued value is
 */
public final class ModeQueue<E> {
    private final boolean latest;
    private final int maxQueued;
    private final int maxInFlight;
    private final ArrayDeque<E> queue = new ArrayDeque<>();
    /** The number of the last delivery sent (the first is 1). */
    private long delivered;
    /** Deliveries consumed: every one up to this number when consumed cumulatively. */
    private long consumed;
    /** Values a latest queue replaced since its previous delivery. */
    private long replaced;

    /**
     * A queue in the latest ({@code latest} true; {@code maxQueued} must then be 1) or the bounded mode.
     *
     * @throws IllegalArgumentException a cap below 1, or a latest queue with room for more than one
     */
    public ModeQueue(boolean latest, int maxQueued, int maxInFlight) {
        if (maxQueued < 1 || maxInFlight < 1 || latest && maxQueued != 1) {
            throw new IllegalArgumentException("a delivery mode needs maxQueued >= 1 (latest: 1) and maxInFlight >= 1");
        }
        this.latest = latest;
        this.maxQueued = maxQueued;
        this.maxInFlight = maxInFlight;
    }

    /** The queue a packed {@link DeliveryMode} asks for (a latest record's queue is 1 whatever it says). */
    static <E> ModeQueue<E> of(long packed) {
        final boolean latest = DeliveryMode.kind(packed) == DeliveryMode.LATEST;
        return new ModeQueue<>(latest, latest ? 1 : DeliveryMode.maxQueued(packed), DeliveryMode.maxInFlight(packed));
    }

    /** True for the latest mode. */
    public boolean latest() {
        return latest;
    }

    /** True for the bounded mode. */
    public boolean bounded() {
        return !latest;
    }

    /** The most undelivered values this queue holds. */
    public int maxQueued() {
        return maxQueued;
    }

    /** The most deliveries out and not consumed. */
    public int maxInFlight() {
        return maxInFlight;
    }

    /** Undelivered values. */
    public int size() {
        return queue.size();
    }

    /** A copy of the waiting values, the next first (for operators' views and checks; it allocates). */
    public java.util.List<E> waiting() {
        return java.util.List.copyOf(queue);
    }

    /** True when nothing waits. */
    public boolean isEmpty() {
        return queue.isEmpty();
    }

    /** Deliveries sent and not consumed. */
    public long inFlight() {
        return delivered - consumed;
    }

    /** A credit is free: one more delivery may go out. */
    public boolean canSend() {
        return delivered - consumed < maxInFlight;
    }

    /** Something waits and a credit is free. */
    public boolean ready() {
        return !queue.isEmpty() && canSend();
    }

    /** A bounded queue with no room for one more value: the publish must be refused whole. */
    public boolean full() {
        return !latest && queue.size() >= maxQueued;
    }

    /**
     * Queues a value behind what waits; a latest queue replaces its undelivered value (counted).
     * The caller has checked {@link #full()} first.
     *
     * @return the value replaced (its owner releases it), or null when the queue grew by one
     */
    public E offer(E e) {
        E old = null;
        if (latest && !queue.isEmpty()) {
            old = queue.pollFirst();
            replaced++;
        }
        queue.addLast(e);
        return old;
    }

    /** Takes the first waiting value off the queue (null: none); {@link #sent()} counts it out. */
    public E poll() {
        return queue.pollFirst();
    }

    /** Puts back a value {@link #poll()} took and could not send: it stays first. */
    public void putBack(E e) {
        queue.addFirst(e);
    }

    /** The number the next delivery gets. */
    public long nextDelivery() {
        return delivered + 1;
    }

    /** The number of the last delivery sent (0: none yet). */
    public long delivered() {
        return delivered;
    }

    /** Values a latest queue replaced since its previous delivery. */
    public long replaced() {
        return replaced;
    }

    /**
     * Counts one delivery out: it takes a credit, and the replaced count it reported starts again.
     *
     * @return the replaced count that delivery reports
     */
    public long sent() {
        delivered++;
        final long r = replaced;
        replaced = 0;
        return r;
    }

    /**
     * Cumulative, idempotent consumed: every delivery numbered up to {@code upTo} gives its credit
     * back. False (nothing changed) when {@code upTo} is above the last delivered number.
     */
    public boolean consumeUpTo(long upTo) {
        if (upTo > delivered) {
            return false;
        }
        if (upTo > consumed) {
            consumed = upTo;
        }
        return true;
    }

    /** One delivery, whichever it was, gives its credit back (a consume per delivery); false when none is out. */
    public boolean consumeOne() {
        if (consumed >= delivered) {
            return false;
        }
        consumed++;
        return true;
    }

    /** Drops every waiting value and the replaced count (values that hold nothing; else {@link #poll()} each). */
    public void clear() {
        queue.clear();
        replaced = 0;
    }
}
