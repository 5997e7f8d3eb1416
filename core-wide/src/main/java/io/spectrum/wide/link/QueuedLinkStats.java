package io.spectrum.wide.link;

/**
 * The counters of a {@link QueuedLink}, readable from any thread. Frames dropped are counted by reason.
 * The I/O thread writes the transfer and drop counters; the node thread writes the send refusals.
 */
public final class QueuedLinkStats {
    // written by the I/O thread
    volatile long framesIn;
    volatile long bytesIn;
    volatile long framesOut;
    volatile long bytesOut;
    volatile long inboundDropped;
    volatile long droppedOldest;
    volatile long droppedDisconnected;
    volatile long droppedStale;
    volatile long droppedDown;
    volatile long droppedInvalid;
    volatile long droppedOnClose;
    volatile long droppedQuarantine;
    volatile long disconnects;
    volatile long rejoins;
    volatile long eventsAllocated;
    volatile long ioErrors;
    // written by the node thread
    volatile long refusedNoBuffer;
    volatile long refusedDisconnected;
    volatile long refusedPeer;
    volatile long refusedOversize;
    volatile long refusedClosed;

    /** Frames read from the inner link and handed to the node thread. */
    public long framesIn() {
        return framesIn;
    }

    /** Bytes of the frames counted by {@link #framesIn()}. */
    public long bytesIn() {
        return bytesIn;
    }

    /** Frames the inner link took from the per-peer queues. */
    public long framesOut() {
        return framesOut;
    }

    /** Bytes of the frames counted by {@link #framesOut()}. */
    public long bytesOut() {
        return bytesOut;
    }

    /** Received frames dropped (the newest) because every inbound buffer was waiting for the node thread. */
    public long inboundDropped() {
        return inboundDropped;
    }

    /** Queued frames pushed out of a full peer queue by a newer one (drop-oldest: the oldest delivery first). */
    public long droppedOldest() {
        return droppedOldest;
    }

    /** Frames thrown away because their peer was disconnected as a slow consumer (queued or arriving). */
    public long droppedDisconnected() {
        return droppedDisconnected;
    }

    /** Frames the node queued for a peer's earlier session (before a disconnect), not sent to the new one. */
    public long droppedStale() {
        return droppedStale;
    }

    /** Frames the inner link refused with TRANSPORT_DOWN (peer or port gone). */
    public long droppedDown() {
        return droppedDown;
    }

    /** Frames the inner link refused with FRAME_INVALID or another error. */
    public long droppedInvalid() {
        return droppedInvalid;
    }

    /** Frames still queued when the link closed. */
    public long droppedOnClose() {
        return droppedOnClose;
    }

    /** Received frames from a disconnected peer before its rejoin delay passed. */
    public long droppedQuarantine() {
        return droppedQuarantine;
    }

    /** Slow-consumer disconnects. */
    public long disconnects() {
        return disconnects;
    }

    /** Disconnected peers served again. */
    public long rejoins() {
        return rejoins;
    }

    /** Peer events beyond the event pool (allocated; only a burst of peer changes gets here). */
    public long eventsAllocated() {
        return eventsAllocated;
    }

    /** Exceptions the inner link threw on the I/O thread (caught, counted; the thread goes on). */
    public long ioErrors() {
        return ioErrors;
    }

    /** Sends refused with FLOW_BACKPRESSURE: every outbound buffer was in use (the link-wide bound). */
    public long refusedNoBuffer() {
        return refusedNoBuffer;
    }

    /** Sends refused with TRANSPORT_DOWN to a peer the node was told is disconnected. */
    public long refusedDisconnected() {
        return refusedDisconnected;
    }

    /** Sends refused with TRANSPORT_DOWN to a peer handle outside the link's peer table. */
    public long refusedPeer() {
        return refusedPeer;
    }

    /** Sends refused with FRAME_INVALID: larger than the inner link's frame limit. */
    public long refusedOversize() {
        return refusedOversize;
    }

    /** Sends refused with TRANSPORT_DOWN after close. */
    public long refusedClosed() {
        return refusedClosed;
    }

    /** Frames the link dropped after accepting them (inbound or outbound), all reasons together. */
    public long droppedTotal() {
        return inboundDropped + droppedOldest + droppedDisconnected + droppedStale + droppedDown + droppedInvalid
                + droppedOnClose + droppedQuarantine;
    }

    @Override
    public String toString() {
        return "in " + framesIn + " out " + framesOut + " dropped: inbound-full " + inboundDropped + " oldest "
                + droppedOldest + " disconnected " + droppedDisconnected + " stale " + droppedStale + " down "
                + droppedDown + " invalid " + droppedInvalid + " on-close " + droppedOnClose + " quarantine "
                + droppedQuarantine + "; disconnects " + disconnects + " rejoins " + rejoins + "; refused: no-buffer "
                + refusedNoBuffer + " disconnected " + refusedDisconnected + " peer " + refusedPeer + " oversize "
                + refusedOversize + " closed " + refusedClosed + "; io errors " + ioErrors + ", events allocated " + eventsAllocated;
    }
}
