package io.spectrum.link;

/** Plain counters kept by a link; read by operators and tests. Single-writer (the link). */
public final class LinkStats {
    public volatile long framesIn;
    public volatile long framesOut;
    public volatile long bytesIn;
    public volatile long bytesOut;
    /** Frames that failed the link's own check (serial CRC, COBS decode). */
    public volatile long droppedCorrupt;
    /** Frames larger than the link's limit. */
    public volatile long droppedOversize;
    /** Frames the node refused (bad libtracer bytes, bad FWD contents). */
    public volatile long droppedInvalid;
    /** Sends refused because the peer or port was down. */
    public volatile long sendRefused;
    /** Times the link reopened its port or re-learned its peer. */
    public volatile long reconnects;
    /** New senders the link refused: its peer table was full, or their host had its share of it. */
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

    public void reset() {
        framesIn = 0;
        framesOut = 0;
        bytesIn = 0;
        bytesOut = 0;
        droppedCorrupt = 0;
        droppedOversize = 0;
        droppedInvalid = 0;
        sendRefused = 0;
        reconnects = 0;
        peersRefused = 0;
        peersEvicted = 0;
        shareRefusals = 0;
        deliveriesDropped = 0;
        droppedByOs = 0;
    }
}
