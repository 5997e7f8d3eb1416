package io.spectrum.link;

/**
 * The one writer of a link's {@link LinkStats}: a link keeps one, private, and hands out only the
 * read-only view from {@link Link#stats()}.
 *
 * <p>Single writer: the link's own thread (the thread that polls and sends on it) is the only
 * caller of the {@code count}/{@code set} methods; an increment is a read then a write, not
 * atomic. The fields are volatile so any other thread reads current figures. Allocation-free.
 */
public final class LinkCounters implements LinkStats {
    private volatile long framesIn;
    private volatile long framesOut;
    private volatile long bytesIn;
    private volatile long bytesOut;
    private volatile long droppedCorrupt;
    private volatile long droppedOversize;
    private volatile long droppedInvalid;
    private volatile long droppedQueued;
    private volatile long droppedByOs;
    private volatile long sendRefused;
    private volatile long reconnects;
    private volatile long peersRefused;
    private volatile long peersEvicted;

    /** One frame of {@code bytes} handed to the node. */
    public void countIn(long bytes) {
        framesIn = framesIn + 1;
        bytesIn = bytesIn + bytes;
    }

    /** One frame of {@code bytes} sent. */
    public void countOut(long bytes) {
        countOut(1, bytes);
    }

    /** {@code frames} frames of {@code bytes} bytes together sent (a batch flush). */
    public void countOut(long frames, long bytes) {
        framesOut = framesOut + frames;
        bytesOut = bytesOut + bytes;
    }

    /** One frame that failed the link's own check. */
    public void countCorrupt() {
        droppedCorrupt = droppedCorrupt + 1;
    }

    /** One frame over the link's limit. */
    public void countOversize() {
        droppedOversize = droppedOversize + 1;
    }

    /** One frame that is not one libtracer frame. */
    public void countInvalid() {
        droppedInvalid = droppedInvalid + 1;
    }

    /** {@code frames} accepted frames dropped unsent. */
    public void countDroppedQueued(long frames) {
        droppedQueued = droppedQueued + frames;
    }

    /** One send refused. */
    public void countSendRefused() {
        countSendRefused(1);
    }

    /** {@code sends} sends refused (a batch flush that failed). */
    public void countSendRefused(long sends) {
        sendRefused = sendRefused + sends;
    }

    /** One reopen of the port or re-learned peer. */
    public void countReconnect() {
        reconnects = reconnects + 1;
    }

    /** One frame from a new sender refused. */
    public void countPeerRefused() {
        peersRefused = peersRefused + 1;
    }

    /** One known peer's entry given to a new sender. */
    public void countPeerEvicted() {
        peersEvicted = peersEvicted + 1;
    }

    /** The corrupt-frame total, where the link's deframer keeps the count itself. */
    public void setCorrupt(long total) {
        droppedCorrupt = total;
    }

    /** The oversize-frame total, where the link's deframer keeps the count itself. */
    public void setOversize(long total) {
        droppedOversize = total;
    }

    /** The OS's own drop total ({@link Link#refreshCounters()}). */
    public void setDroppedByOs(long total) {
        droppedByOs = total;
    }

    /** Sets every counter to 0 (an operator reset; not atomic across counters). */
    public void reset() {
        framesIn = 0;
        framesOut = 0;
        bytesIn = 0;
        bytesOut = 0;
        droppedCorrupt = 0;
        droppedOversize = 0;
        droppedInvalid = 0;
        droppedQueued = 0;
        droppedByOs = 0;
        sendRefused = 0;
        reconnects = 0;
        peersRefused = 0;
        peersEvicted = 0;
    }

    @Override
    public long framesIn() {
        return framesIn;
    }

    @Override
    public long framesOut() {
        return framesOut;
    }

    @Override
    public long bytesIn() {
        return bytesIn;
    }

    @Override
    public long bytesOut() {
        return bytesOut;
    }

    @Override
    public long droppedCorrupt() {
        return droppedCorrupt;
    }

    @Override
    public long droppedOversize() {
        return droppedOversize;
    }

    @Override
    public long droppedInvalid() {
        return droppedInvalid;
    }

    @Override
    public long droppedQueued() {
        return droppedQueued;
    }

    @Override
    public long droppedByOs() {
        return droppedByOs;
    }

    @Override
    public long sendRefused() {
        return sendRefused;
    }

    @Override
    public long reconnects() {
        return reconnects;
    }

    @Override
    public long peersRefused() {
        return peersRefused;
    }

    @Override
    public long peersEvicted() {
        return peersEvicted;
    }
}
