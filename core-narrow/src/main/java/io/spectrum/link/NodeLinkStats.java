package io.spectrum.link;

/**
 * The read-only view of what a node counts about one of its links ({@code Node.linkStats(link)}):
 * the node is these counters' one writer, on its own thread; the link's own counters are
 * {@link LinkStats}. Readable from any thread (the figures are volatile). The names shown in
 * {@code /$node/stats}, the dashboard and {@code /metrics} are {@link io.spectrum.stats.CounterNames}'.
 */
public interface NodeLinkStats {
    /**
     * Frames the link handed to the node (counted in {@link LinkStats#framesIn}) that the node
     * dropped: bytes its decoder refused, or a request without a trustworthy envelope. A subset of
     * {@link LinkStats#framesIn}.
     */
    long framesRejected();

    /** Requests the node refused because the peer was over its share (slots, awaits, share table). */
    long shareRefused();

    /** Delivery frames the node did not send because the peer was over its outbound rate. */
    long deliveriesDropped();
}
