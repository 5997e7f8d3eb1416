package io.spectrum.node.api;

/**
 * Receives deliveries for a local subscription. Called on the node's polling thread, inside
 * {@link Node#write} or {@link Node#poll}; must not block. {@code seq} and {@code stale} are stamped
 * by the node (topic semantics), never by the publisher.
 */
@FunctionalInterface
public interface ValueListener {
    void onValue(Subscription subscription, VertexValue value, long seq, boolean stale);
}
