package io.spectrum.wide;

import io.spectrum.node.api.ValueListener;

/**
 * A {@link ValueListener} that queues what it is given under bounds of its own (the host bus's
 * bounded subscriptions of a topic) and so takes part in the node's whole-publish backpressure: a
 * write of the listener's own vertex is refused with {@code tr::flow::backpressure}, and nothing is
 * delivered, retained or numbered, when {@link #hasRoom} answers false, as it is for a full bounded
 * FWD edge (docs/bus.md, "Topics are the node's vertices"). Writes of the vertex's descendants and
 * notices (stale, purge, a clear's delete) never ask it.
 */
public interface ValueRoom extends ValueListener {
    /**
     * Whether one more value of {@code valueBytes} (the value TLV, header and payload) fits now.
     * Called on the node's thread during a write's admission; must not change anything.
     */
    boolean hasRoom(int valueBytes);
}
