package io.spectrum.link.local;

import io.spectrum.link.Lane;

/**
 * Why a {@link LocalLink} closed connections or refused frames, beyond the common
 * {@link io.spectrum.link.LinkStats} (frames and bytes in/out, {@code droppedOversize} for a bad
 * length prefix, {@code droppedInvalid} for a frame that is not one libtracer frame,
 * {@code peersRefused} for connections over capacity). One writer (the link's thread); readable
 * from any thread.
 */
public final class LocalLinkStats {
    private volatile long accepted;
    private volatile long helloTimeouts;
    private volatile long helloRefused;
    private volatile long badLength;
    private volatile long controlOverflows;
    private volatile long closingCut;
    private volatile long closedByPeer;
    private volatile long ioErrors;
    private volatile long rpcRefused;
    private volatile long topicRefused;
    private volatile long staleSocketsReplaced;
    private volatile long queuedDropped;
    private volatile long announced;
    private volatile long writes;

    void onAccepted() {
        accepted++;
    }

    void onHelloTimeout() {
        helloTimeouts++;
    }

    void onHelloRefused() {
        helloRefused++;
    }

    void onAnnounced() {
        announced++;
    }

    void onBadLength() {
        badLength++;
    }

    void onControlOverflow() {
        controlOverflows++;
    }

    void onClosingCut() {
        closingCut++;
    }

    void onClosedByPeer() {
        closedByPeer++;
    }

    void onIoError() {
        ioErrors++;
    }

    void onLaneRefused(Lane lane) {
        if (lane == Lane.RPC) {
            rpcRefused++;
        } else {
            topicRefused++;
        }
    }

    void onQueuedDropped(int frames) {
        queuedDropped += frames;
    }

    void onWrite() {
        writes++;
    }

    void onStaleSocketReplaced() {
        staleSocketsReplaced++;
    }

    /**
     * Socket writes made (system calls that wrote bytes): with gathering on, one per connection per
     * flush however many frames the step sent it, so {@code framesOut / writes} is the gather factor.
     */
    public long writes() {
        return writes;
    }

    /** Connections accepted (server), including those later refused a hello. */
    public long accepted() {
        return accepted;
    }

    /** Connections closed because no hello came within the hello timeout. */
    public long helloTimeouts() {
        return helloTimeouts;
    }

    /** Connections closed because their first frame was not a hello. */
    public long helloRefused() {
        return helloRefused;
    }

    /** Connections closed for a length prefix below 4 or above the frame limit. */
    public long badLength() {
        return badLength;
    }

    /** Connections closed because their CONTROL lane overflowed (after the closing notice). */
    public long controlOverflows() {
        return controlOverflows;
    }

    /** Closing connections cut before their closing notice was written (the peer did not read). */
    public long closingCut() {
        return closingCut;
    }

    /** Connections the peer closed (EOF). */
    public long closedByPeer() {
        return closedByPeer;
    }

    /** Connections lost to a read or write error (reset, broken pipe). */
    public long ioErrors() {
        return ioErrors;
    }

    /** RPC frames refused with FLOW_BACKPRESSURE (lane full). */
    public long rpcRefused() {
        return rpcRefused;
    }

    /** TOPIC frames refused with FLOW_BACKPRESSURE (lane full). */
    public long topicRefused() {
        return topicRefused;
    }

    /** Frames that were waiting in a lane when their connection closed, and so were never sent. */
    public long queuedDropped() {
        return queuedDropped;
    }

    /**
     * Connections whose first frame was Spectrum's hello where it is optional (libtracer's TCP
     * transport): those get the closing notice; the hellos are delivered and counted in framesIn too.
     */
    public long announced() {
        return announced;
    }

    /** Stale socket files (no process listening) replaced when listening. */
    public long staleSocketsReplaced() {
        return staleSocketsReplaced;
    }
}
