package io.spectrum.wide;

import io.spectrum.node.api.VertexValue;

/**
 * Hears every value a {@link WideNode} assigns to one of its vertices (a local or remote write, a
 * delivery from an upstream) and every stale mark it makes, without being a subscriber: it adds no
 * listener to the vertex, so it never makes a host subscribe upstream, and it is not told of values
 * nobody sends to the node. The host's history store is one ({@code docs/host.md}, "History").
 * Called on the node thread; must not block.
 */
@FunctionalInterface
public interface ValueTap {
    /**
     * @param value the vertex's value and path (a flyweight, valid only during the call)
     * @param seq the vertex's sequence for it (this node's)
     * @param sourceSeq the sequence its upstream stamped on it (a delivery of this node's remote
     *     subscription, or its gap fetch: the board's own sequence), 0 when it came from no upstream
     * @param originMillis the value's origin time, ms since the Unix epoch (docs/extensions.md "Origin
     *     time"), 0 when it has none
     * @param stale true for a stale mark (the retained value again, the same seq)
     * @param reason the stale reason, UTF-8, or null (not to be written into)
     */
    void onValue(VertexValue value, long seq, long sourceSeq, long originMillis, boolean stale, byte[] reason);
}
