package io.spectrum.link;

/**
 * The read-only view of a link's own counters ({@link Link#stats()}); operators and tests read it,
 * from any thread. The link is their one writer, through its {@link LinkCounters}; what the node
 * counts about a link (frames it rejected, share refusals, deliveries it dropped) is the node's own
 * {@link NodeLinkStats}. The names shown in {@code /$node/stats}, the dashboard and {@code /metrics}
 * are {@link io.spectrum.stats.CounterNames}'.
 *
 * <p>Every frame the link received is counted exactly once in one of {@link #framesIn},
 * {@link #droppedCorrupt}, {@link #droppedOversize}, {@link #droppedInvalid} and (links that learn
 * senders) {@link #peersRefused}: these are disjoint. {@link #droppedByOs} counts what never reached
 * the link. docs/links.md, "Counters", says which link adds which.
 */
public interface LinkStats {
    /** Frames the link handed to the node (the node may still reject them: {@link NodeLinkStats#framesRejected}). */
    long framesIn();

    /** Frames the link sent (accepted by its transport or queue). */
    long framesOut();

    /** Bytes of the frames counted in {@link #framesIn}. */
    long bytesIn();

    /** Bytes of the frames counted in {@link #framesOut}. */
    long bytesOut();

    /** Frames that failed the link's own check (serial CRC, COBS decode). */
    long droppedCorrupt();

    /** Frames larger than the link's limit (received, or refused to send). */
    long droppedOversize();

    /** Frames the link dropped as not exactly one libtracer frame; never handed to the node. */
    long droppedInvalid();

    /**
     * Frames a queued link accepted for sending and then dropped unsent (pushed out of a full peer
     * queue, its peer disconnected as a slow consumer, queued for an earlier session); 0 for a link
     * without send queues.
     */
    long droppedQueued();

    /**
     * Frames the operating system dropped before the link could read them (a full UDP receive
     * buffer), where the OS reports it; refreshed by {@link Link#refreshCounters()}.
     */
    long droppedByOs();

    /** Sends refused because the peer or port was down, or the link had no room. */
    long sendRefused();

    /** Times the link reopened its port or re-learned its peer. */
    long reconnects();

    /**
     * Frames from new senders the link refused (one per refused frame): its peer table was full, or
     * their host had its share of it.
     */
    long peersRefused();

    /** Known (silent, down) peers whose entry the link gave to a new sender. */
    long peersEvicted();
}
