package io.spectrum.wide.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.LinkStats;
import io.spectrum.link.LivenessProbe;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.link.Readiness;
import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.wire.WireError;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;

/**
 * A {@link Link} that runs another link's I/O on a thread of its own:
 * the node thread never waits on a socket or a slow peer, and no lock is held across I/O.
 *
 * <pre>{@code
 * Link link = QueuedLink.wrap(UdpLink.listen(1, bind, udpConfig, clock), QueuedLinkConfig.defaults());
 * node.attach(link);   // any node, unchanged: the node thread calls send/poll as on any link
 * }</pre>
 *
 * <p><b>Threads.</b> One I/O thread per wrapped link ({@link LinkIo}, an agrona agent) is the only thread
 * that touches the inner link. The node thread (the one that calls {@link #send} and {@link #poll}) and
 * the I/O thread hand pooled frames to each other through jctools single-producer single-consumer queues.
 * Frames received are copied once into a pooled buffer; {@link #poll} hands them to the node's
 * {@link FrameHandler} on the node thread. Peer events the inner link reports on the I/O thread (up,
 * down, liveness probes) travel in the same queue, in order with the frames, and reach the node's
 * {@link PeerListener} and {@link LivenessProbe} on the node thread inside {@link #poll}.
 *
 * <p><b>Outbound.</b> {@link #send} copies the frame into a pooled buffer and queues it for the I/O
 * thread; a node that writes its frame into a pooled buffer this link lends ({@link #claim}, then
 * {@link #commitClaim}, or {@link #abortClaim} to give it back unsent) queues it without that copy (the
 * FWD engine writes its deliveries so). The I/O thread appends it to the peer's own queue of
 * {@link QueuedLinkConfig#peerQueueFrames} frames and sends from every peer's queue round robin. Frames to one peer keep their order. A queue that is full when
 * a frame arrives first tries to send; if the inner link still answers FLOW_BACKPRESSURE the oldest queued
 * delivery (FWD WRITE) is dropped (drop-oldest: a subscriber behind would rather have the newest value; a
 * queue holding no delivery drops its oldest frame), and counted for that peer: replies and liveness
 * answers are shed last, so control does not starve behind data. A peer that loses more than {@link QueuedLinkConfig#disconnectDrops} frames within
 * {@link QueuedLinkConfig#disconnectWindowNanos} is disconnected as a slow consumer: its queue is emptied,
 * it gets no more frames (sends to it answer TRANSPORT_DOWN once the node has been told), and the node's
 * listener hears {@code onPeerDown}. It is served again, with an empty queue and a fresh window, when the
 * inner link reports it up or when it sends a frame after {@link QueuedLinkConfig#rejoinAfterNanos};
 * frames the node queued for it before it was disconnected are not sent to the new session.
 * {@link #send} answers FLOW_BACKPRESSURE only when every outbound buffer of the link is in use
 * ({@link QueuedLinkConfig#outboundFrames}, the link-wide bound).
 *
 * <p><b>Inbound.</b> Received frames wait for the node thread in up to {@link QueuedLinkConfig#inboundFrames}
 * buffers; a frame arriving when all are waiting is dropped (the newest: the queue is single-producer, and
 * dropping at the door keeps the frames already accepted in order) and counted
 * ({@link QueuedLinkStats#inboundDropped}). The I/O thread keeps reading the inner link meanwhile, so its
 * liveness timers run.
 *
 * <p><b>Counters.</b> {@link #stats()} is the Link vocabulary (frames and bytes in/out, sends refused,
 * deliveries dropped, the inner link's own drops); {@link #queueStats()} counts every drop by reason;
 * {@link #peers()} is the peer-queue table (capacity, peers with a queue, peak, refused handles);
 * {@link #outboundFrames()} and {@link #inboundFrames()} are the frame pools; {@link #peerQueue(int)}
 * is one peer's queue depth, peak, drops and disconnects. All readable from any thread.
 *
 * <p><b>Allocation.</b> None per frame on either thread in steady state (shown by QueuedLinkAllocationTest);
 * a new peer's queue, a frame larger than any its buffer carried before, and peer events beyond the
 * event pool allocate.
 *
 * <p>A blocking inner send stalls the I/O thread and so every peer of that link: inner links must answer
 * FLOW_BACKPRESSURE instead of blocking (UDP and serial links do).
 */
public final class QueuedLink implements Link {
    private final Link inner;
    private final int maxFrame;
    private final int maxPeers;
    private final LinkIo io;
    private final IoWait wait;
    private final AgentRunner runner;
    private final QueuedLinkStats stats = new QueuedLinkStats();
    private final LinkStats linkStats = new Counters();
    private final ResourceCounter peerTable;

    // node-thread view of the peers, changed only by the events poll() delivers
    private final boolean[] up;
    private final boolean[] disconnected;
    private final int[] gen;
    /** The outbound frame an open {@link #claim} lent, or null. Node thread. */
    private Frame claimed;

    private volatile PeerListener listener;
    private volatile LivenessProbe probe;
    private volatile boolean closed;
    private volatile Thread ioThread;

    private QueuedLink(Link inner, QueuedLinkConfig config) {
        this.inner = inner;
        this.maxFrame = inner.maxFrame();
        BoundedResource innerPeers = inner.peers();
        int peers = config.maxPeers() > 0 ? config.maxPeers() : innerPeers != null ? (int) Math.min(Integer.MAX_VALUE, innerPeers.capacity()) : 1;
        this.maxPeers = peers;
        this.peerTable = new ResourceCounter(inner.name() + " peer queues", peers);
        this.up = new boolean[peers];
        this.disconnected = new boolean[peers];
        this.gen = new int[peers];
        this.io = new LinkIo(inner, config, peers, stats, peerTable);
        this.wait = new IoWait(config.maxBlockNanos(), config.retryNanos(), config.newPollIdleStrategy());
        io.waitStrategy(wait);
        inner.setPeerListener(io);
        inner.setLivenessProbe(io);
        boolean signals = inner.setReadiness(wait);
        wait.bind(io, signals);
        ErrorHandler onError = e -> stats.ioErrors++;
        this.runner = new AgentRunner(wait, onError, null, io);
    }

    /** Wraps {@code inner} and starts its I/O thread; from now on only that thread touches {@code inner}. */
    public static QueuedLink wrap(Link inner, QueuedLinkConfig config) {
        QueuedLink link = new QueuedLink(inner, config);
        Thread t = AgentRunner.startOnThread(link.runner, r -> {
            Thread th = new Thread(r, "spectrum-io " + inner.name());
            th.setDaemon(true);
            return th;
        });
        link.wait.thread(t);
        link.ioThread = t;
        return link;
    }

    /** The wrapped link (its counters may be read; it must not be driven from another thread). */
    public Link inner() {
        return inner;
    }

    @Override
    public int id() {
        return inner.id();
    }

    @Override
    public String name() {
        return inner.name();
    }

    /**
     * The inner link's name for {@code peer} (a DTLS certificate name, a local link's hello): set by
     * the inner link before it reports the peer up, which reaches the node thread through this
     * link's queue, so the node reads it after the UP event as the inner link requires.
     */
    @Override
    public String peerName(int peer) {
        return inner.peerName(peer);
    }

    /**
     * Queues one frame for {@code peer} (copied before returning; {@link #claim} writes it in place instead).
     *
     * @return OK when queued; TRANSPORT_DOWN after close, for a handle outside the peer table, or for a
     *     peer the node was told is disconnected; FRAME_INVALID past the inner link's frame limit;
     *     FLOW_BACKPRESSURE when every outbound buffer of the link is in use
     */
    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        if (closed) {
            stats.refusedClosed++;
            return WireError.TRANSPORT_DOWN;
        }
        if (peer < 0 || peer >= maxPeers) {
            stats.refusedPeer++;
            return WireError.TRANSPORT_DOWN;
        }
        if (len > maxFrame || len < 0) {
            stats.refusedOversize++;
            return WireError.FRAME_INVALID;
        }
        if (disconnected[peer]) {
            stats.refusedDisconnected++;
            return WireError.TRANSPORT_DOWN;
        }
        Frame f = io.outPool.take();
        if (f == null) {
            stats.refusedNoBuffer++;
            return WireError.FLOW_BACKPRESSURE;
        }
        f.copyIn(buf, off, len);
        return queue(f, peer);
    }

    /**
     * Lends a pooled outbound frame's buffer for the next frame to {@code peer}: the node writes the frame
     * there and {@link #commitClaim} queues that same buffer for the I/O thread, so the frame is not copied
     * as {@link #send} copies it. Its room is {@code min(buffer.length, maxFrame())} (at least
     * {@link QueuedLinkConfig#frameBytes}: more for a buffer that grew for a larger frame sent before).
     *
     * @return the buffer, or null whenever {@link #send} to {@code peer} would refuse now (closed, a handle
     *     outside the peer table, a disconnected peer, every outbound buffer in use) or a claim is open
     *     already: nothing is taken or counted, and the send that follows refuses and counts
     */
    @Override
    public byte[] claim(int peer) {
        if (claimed != null || closed || peer < 0 || peer >= maxPeers || disconnected[peer]) {
            return null;
        }
        Frame f = io.outPool.takeIfFree();
        if (f == null) {
            return null;
        }
        f.peer = peer;
        claimed = f;
        return f.buf;
    }

    /**
     * Queues the claimed frame, its first {@code len} bytes, for the claim's peer.
     *
     * @return OK when queued; FRAME_INVALID past the claim's room (the frame goes back to the pool, counted
     *     as an oversize send); TRANSPORT_DOWN when no claim is open
     */
    @Override
    public int commitClaim(int len) {
        Frame f = claimed;
        if (f == null) {
            return WireError.TRANSPORT_DOWN;
        }
        claimed = null;
        if (len < 0 || len > f.buf.length || len > maxFrame) {
            io.outPool.putBack(f);
            stats.refusedOversize++;
            return WireError.FRAME_INVALID;
        }
        f.len = len;
        return queue(f, f.peer);
    }

    /** Gives the claimed frame back to the outbound pool unsent: the pool counts as before the claim. */
    @Override
    public void abortClaim() {
        Frame f = claimed;
        if (f != null) {
            claimed = null;
            io.outPool.putBack(f);
        }
    }

    /** Hands a filled outbound frame to the I/O thread for {@code peer}. Node thread. */
    private int queue(Frame f, int peer) {
        f.peer = peer;
        f.gen = gen[peer];
        f.kind = Frame.DATA;
        io.outQueue.offer(f); // never full: it holds as many as the pool
        wait.wakeAfterOffer();
        return WireError.OK;
    }

    /**
     * Hands up to {@code maxFrames} received frames to {@code handler}, and delivers the peer events queued
     * with them (to the peer listener and liveness probe), on the calling (node) thread.
     *
     * @return frames and events delivered
     */
    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        if (closed) {
            return 0;
        }
        int n = 0;
        while (n < maxFrames) {
            Frame f = io.inQueue.relaxedPoll();
            if (f == null) {
                break;
            }
            n++;
            int peer = f.peer;
            switch (f.kind) {
                case Frame.DATA -> {
                    try {
                        handler.onFrame(this, peer, f.buf, 0, f.len);
                    } finally {
                        io.inPool.give(f);
                    }
                }
                case Frame.UP -> {
                    disconnected[peer] = false;
                    gen[peer] = f.gen;
                    io.eventPool.give(f);
                    if (!up[peer]) {
                        up[peer] = true;
                        PeerListener l = listener;
                        if (l != null) {
                            l.onPeerUp(this, peer);
                        }
                    }
                }
                case Frame.DOWN, Frame.DISCONNECTED -> {
                    if (f.kind == Frame.DISCONNECTED) {
                        disconnected[peer] = true;
                        gen[peer] = f.gen;
                    }
                    io.eventPool.give(f);
                    if (up[peer]) {
                        up[peer] = false;
                        PeerListener l = listener;
                        if (l != null) {
                            l.onPeerDown(this, peer);
                        }
                    }
                }
                default -> {
                    io.eventPool.give(f);
                    LivenessProbe p = probe;
                    if (p != null) {
                        p.probe(this, peer);
                    }
                }
            }
        }
        return n;
    }

    @Override
    public int maxFrame() {
        return maxFrame;
    }

    @Override
    public void setPeerListener(PeerListener l) {
        listener = l;
    }

    @Override
    public void setLivenessProbe(LivenessProbe p) {
        probe = p;
    }

    /** Up as far as the node thread has been told (by the events {@link #poll} delivered). Node thread. */
    @Override
    public boolean isPeerUp(int peer) {
        return peer >= 0 && peer < maxPeers && up[peer];
    }

    /** The I/O thread wakes the node through {@code readiness} whenever it queues frames or events. */
    @Override
    public boolean setReadiness(Readiness readiness) {
        io.nodeReadiness(readiness);
        return true;
    }

    @Override
    public LinkStats stats() {
        return linkStats;
    }

    /** Every drop and refusal by reason, and the transfer counters. */
    public QueuedLinkStats queueStats() {
        return stats;
    }

    /** The peer-queue table: capacity (peer handles served), peers with a queue (not disconnected), peak, handles refused. */
    @Override
    public BoundedResource peers() {
        return peerTable;
    }

    /** The outbound frame pool: a send finding it empty is refused (FLOW_BACKPRESSURE). */
    public BoundedResource outboundFrames() {
        return io.outPool;
    }

    /** The inbound frame pool: a frame arriving with it empty is dropped. */
    public BoundedResource inboundFrames() {
        return io.inPool;
    }

    /** One peer's queue now, or null for a handle the link has not seen. Any thread; allocates the snapshot. */
    public PeerQueueStats peerQueue(int peer) {
        PeerQueue q = io.peer(peer);
        if (q == null) {
            return null;
        }
        return new PeerQueueStats(peer, q.capacity(), q.depth, q.peak, q.sent, q.dropped, q.disconnects,
                q.state == PeerQueue.DISCONNECTED);
    }

    /** Peer handles this link serves (0..n-1). */
    public int maxPeers() {
        return maxPeers;
    }

    /** Frames queued for peers now, all peers together (any thread). */
    public int queuedFrames() {
        return io.queuedOutbound();
    }

    /** How the I/O thread waits: select, park or poll(&lt;agrona idle strategy&gt;). */
    public String ioWaitMode() {
        return wait.mode();
    }

    /** The link's I/O thread (for tests that read its allocation counter or check that it stopped). */
    Thread ioThread() {
        return ioThread;
    }

    /** Asks the I/O thread to refresh the inner link's OS counters (it runs them on its own thread). */
    @Override
    public void refreshCounters() {
        io.refreshRequested = true;
        wait.wakeAfterOffer();
    }

    /**
     * Stops the I/O thread: frames still queued get one last non-blocking try, the rest are counted
     * {@link QueuedLinkStats#droppedOnClose}; the inner link is closed on that thread and every frame buffer
     * is let go. Further sends answer TRANSPORT_DOWN, polls deliver nothing.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        wait.wake();
        runner.close();
        io.release();
    }

    /** True once {@link #close} returned: the I/O thread has stopped and the buffers are released. */
    public boolean isClosed() {
        return closed && runner.isClosed();
    }

    /**
     * The Link-vocabulary view of this link: read-only, computed on each read from this link's own
     * counters ({@link QueuedLinkStats}) and the inner link's, so it has no writer of its own. Frames
     * the node queued and this link dropped unsent (oldest pushed out, peer disconnected, stale
     * session) are {@code droppedQueued}; its refused sends are {@code sendRefused}; an oversize send
     * it refused is {@code droppedOversize} with the inner link's oversize frames.
     */
    private final class Counters implements LinkStats {
        @Override
        public long framesIn() {
            return stats.framesIn;
        }

        @Override
        public long framesOut() {
            return stats.framesOut;
        }

        @Override
        public long bytesIn() {
            return stats.bytesIn;
        }

        @Override
        public long bytesOut() {
            return stats.bytesOut;
        }

        @Override
        public long droppedCorrupt() {
            return inner.stats().droppedCorrupt();
        }

        @Override
        public long droppedOversize() {
            return inner.stats().droppedOversize() + stats.refusedOversize;
        }

        @Override
        public long droppedInvalid() {
            return inner.stats().droppedInvalid();
        }

        @Override
        public long droppedQueued() {
            return stats.droppedOldest + stats.droppedDisconnected + stats.droppedStale;
        }

        @Override
        public long droppedByOs() {
            return inner.stats().droppedByOs();
        }

        @Override
        public long sendRefused() {
            return stats.droppedDown + stats.refusedNoBuffer + stats.refusedDisconnected + stats.refusedPeer
                    + stats.refusedClosed;
        }

        @Override
        public long reconnects() {
            return inner.stats().reconnects();
        }

        @Override
        public long peersRefused() {
            return inner.stats().peersRefused() + peerTable.refused();
        }

        @Override
        public long peersEvicted() {
            return inner.stats().peersEvicted();
        }
    }
}
