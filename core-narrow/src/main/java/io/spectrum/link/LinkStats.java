package io.spectrum.link;

/**
 * Plain counters kept by a link; read by operators and tests. Each field has one writer: the link,
 * except {@link #framesRejected}, which the node writes.
 *
 * <p>Every frame the link received is counted exactly once in one of {@link #framesIn},
 * {@link #droppedCorrupt}, {@link #droppedOversize}, {@link #droppedInvalid} and (links that learn
 * senders) {@link #peersRefused}: these are disjoint. {@link #framesRejected} is a subset of
 * {@link #framesIn}; {@link #droppedByOs} counts what never reached the link. docs/links.md,
 * "Counters", says which link adds which.
 */
public final class LinkStats {
    /** Frames the link handed to the node (the node may still reject them: {@link #framesRejected}). */
    public volatile long framesIn;
    /** Frames the link sent (accepted by its transport or queue). */
    public volatile long framesOut;
    /** Bytes of the frames counted in {@link #framesIn}. */
    public volatile long bytesIn;
    /** Bytes of the frames counted in {@link #framesOut}. */
    public volatile long bytesOut;
    /** Frames that failed the link's own check (serial CRC, COBS decode). */
    public volatile long droppedCorrupt;
    /** Frames larger than the link's limit. */
    public volatile long droppedOversize;
    /** Frames the link dropped as not exactly one libtracer frame; never handed to the node. */
    public volatile long droppedInvalid;
    /**
     * Frames the link handed to the node (counted in {@link #framesIn}) that the node dropped: bytes
     * its decoder refused, or a request without a trustworthy envelope. Written by the node.
     */
    public volatile long framesRejected;
    /** Sends refused because the peer or port was down. */
    public volatile long sendRefused;
    /** Times the link reopened its port or re-learned its peer. */
    public volatile long reconnects;
    /**
     * Frames from new senders the link refused (one per refused frame): its peer table was full, or
     * their host had its share of it.
     */
    public volatile long peersRefused;
    /** Known (silent, down) peers whose entry the link gave to a new sender. */
    public volatile long peersEvicted;
    /** Requests the node refused because the peer was over its share (slots, awaits, share table). */
    public volatile long shareRefusals;
    /** Delivery frames the node did not send because the peer was over its outbound rate. */
    public volatile long deliveriesDropped;
    /**
     * Frames the operating system dropped before the link could read them (a full UDP receive
     * buffer), where the OS reports it; refreshed by {@link Link#refreshCounters()}.
     */
    public volatile long droppedByOs;

    /** Sets every counter to 0 (for tests and operator resets; not atomic across counters). */
    public void reset() {
        framesIn = 0;
        framesOut = 0;
        bytesIn = 0;
        bytesOut = 0;
        droppedCorrupt = 0;
        droppedOversize = 0;
        droppedInvalid = 0;
        framesRejected = 0;
        sendRefused = 0;
        reconnects = 0;
        peersRefused = 0;
        peersEvicted = 0;
        shareRefusals = 0;
        deliveriesDropped = 0;
        droppedByOs = 0;
    }
}
