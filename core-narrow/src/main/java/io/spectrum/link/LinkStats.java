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
    }
}
