package io.spectrum.node.api;

/**
 * Receives deliveries for a local subscription. Called on the node's polling thread, inside
 * {@link Node#write} or {@link Node#poll}; must not block. {@code seq} and {@code stale} are stamped
 * by the node (topic semantics), never by the publisher. Besides every value, a listener is called
 * the moment the node marks the vertex stale (the retained value again, the same {@code seq},
 * {@code stale} true) and when it purges it after the grace ({@link VertexValue#deleted()}, a fresh
 * {@code seq}); a one_shot subscription is not (docs/extensions.md, "Stale and purge notices").
 */
@FunctionalInterface
public interface ValueListener {
    /**
     * One delivery: {@code value} (valid only during the call) of {@code subscription}'s vertex,
     * with the vertex's publish sequence {@code seq} and whether the value is {@code stale} (not
     * current).
     */
    void onValue(Subscription subscription, VertexValue value, long seq, boolean stale);
}
