package io.spectrum.wide;

import io.spectrum.wire.DeliveryMode;
import java.util.ArrayDeque;

/**
 * The delivery-mode state of one FWD edge of a {@link WideNode} (docs/extensions.md "Delivery
 * modes"): the undelivered values in order, the numbers of the last delivery sent ({@code dlv}) and
 * of the last one consumed, and the count of values a latest edge coalesced since its previous
 * delivery. In flight = delivered − consumed; credits come back only through {@link #consume}.
 * Package-private state for the node's single thread; {@link DeliveryModes} does the sending.
 */
final class ModeQueue {
    /** One undelivered value: a copy (the vertex's array is reused by later writes) and its stamp. */
    static final class Entry {
        final Vertex written;
        final byte[] value;
        final long seq;
        final boolean stale;
        /** The value's origin time (ms since the Unix epoch, 0: none) as it was when queued. */
        final long origin;
        /** The stale value's reason as it was when queued (the vertex's array, never written into), or null. */
        final byte[] reason;
        final boolean deleted;

        Entry(Vertex written, byte[] value, long seq, boolean stale, long origin, byte[] reason, boolean deleted) {
            this.written = written;
            this.value = value;
            this.seq = seq;
            this.stale = stale;
            this.origin = origin;
            this.reason = reason;
            this.deleted = deleted;
        }
    }

    final int kind;
    final int maxQueued;
    final int maxInFlight;
    final ArrayDeque<Entry> queue = new ArrayDeque<>();
    /** The number of the last delivery sent (the stamp's {@code dlv}; the first is 1). */
    long delivered;
    /** Every delivery up to this number has been consumed. */
    long consumed;
    /** Values a latest edge replaced since its previous delivery (reported on the next, then reset). */
    long replaced;

    ModeQueue(long packed) {
        kind = DeliveryMode.kind(packed);
        maxQueued = DeliveryMode.maxQueued(packed);
        maxInFlight = DeliveryMode.maxInFlight(packed);
    }

    boolean bounded() {
        return kind == DeliveryMode.BOUNDED;
    }

    long inFlight() {
        return delivered - consumed;
    }

    boolean canSend() {
        return delivered - consumed < maxInFlight;
    }

    /** A bounded edge with no room for one more value: the publish must be refused whole. */
    boolean full() {
        return bounded() && queue.size() >= maxQueued;
    }

    /**
     * Queues a value: a latest edge replaces its one undelivered value (counted), a bounded one
     * appends. True when the queue grew by one (false: a latest value was replaced).
     */
    boolean offer(Entry e) {
        final boolean replacing = kind == DeliveryMode.LATEST && !queue.isEmpty();
        if (replacing) {
            queue.pollFirst();
            replaced++;
        }
        queue.addLast(e);
        return !replacing;
    }

    /**
     * Cumulative, idempotent consumed: every delivery numbered up to {@code upTo} gives its credit
     * back. False (nothing changed) when {@code upTo} is above the last delivered number.
     */
    boolean consume(long upTo) {
        if (upTo > delivered) {
            return false;
        }
        if (upTo > consumed) {
            consumed = upTo;
        }
        return true;
    }
}
