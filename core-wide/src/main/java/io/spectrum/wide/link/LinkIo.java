package io.spectrum.wide.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.LivenessProbe;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.time.Clock;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.WireError;
import org.agrona.concurrent.Agent;
import org.jctools.queues.SpscArrayQueue;
import org.jctools.queues.SpscUnboundedArrayQueue;

/**
 * The I/O side of a {@link QueuedLink}: the one thread that drives the inner link ({@code poll} and
 * {@code send}), as an agrona {@link Agent}. Each duty cycle it
 * <ol>
 *   <li>moves frames the node thread queued into their peers' bounded queues ({@link PeerQueue}); a full
 *       queue first tries to send, then pushes its oldest delivery out (its oldest frame when it holds no
 *       delivery: replies and probes are shed last), counted; a peer whose drops pass the threshold within
 *       the window is disconnected;</li>
 *   <li>sends from every peer queue with frames, round robin, at most a burst per peer; a peer whose
 *       inner send answers FLOW_BACKPRESSURE keeps its frames and is retried later;</li>
 *   <li>polls the inner link: each frame is copied into a pooled buffer and queued for the node thread
 *       (none free: the newest is dropped and counted); peer events the inner link reports on this thread
 *       (up, down, probe) are queued in the same order with the frames, never called on the node's
 *       listener from here.</li>
 * </ol>
 * Allocation-free in steady state: frames come from pools, queues are jctools SPSC rings, the peer table
 * is an array of handles sized once; only a new peer's queue, a frame larger than its buffer ever was, or
 * a burst of peer events past the event pool allocate.
 */
final class LinkIo implements Agent, FrameHandler, io.spectrum.link.FrameSink, PeerListener, LivenessProbe {
    private static final int DRAIN_LIMIT = 4096;

    private final Link inner;
    /** The inner link when it receives straight into {@link #frameBuffer}'s pooled frames, else null. */
    private final io.spectrum.link.ReceivesInto receivesInto;
    /**
     * The pooled frame the next received frame goes into ({@link #frameBuffer}), or null. A frame the
     * inner link wrote and then discarded leaves it here for the next one: only the node thread gives
     * frames back to the pool (its queue has one producer), so this thread never does.
     */
    private Frame pendingIn;
    /** Where a frame goes when the inbound pool is empty (then dropped, counted). */
    private byte[] scratchIn = new byte[0];
    private final QueuedLinkStats stats;
    private final ResourceCounter peerTable;
    private final Clock clock;
    private final int peerQueueFrames;
    private final int disconnectDrops;
    private final long disconnectWindow;
    private final long rejoinAfter;
    private final int pollBatch;
    private final int sendBurst;

    /** node thread -> I/O thread: frames to send (each from {@link #outPool}). */
    final SpscArrayQueue<Frame> outQueue;
    final FramePool outPool;
    /** I/O thread -> node thread: received frames (from {@link #inPool}) and peer events (from {@link #eventPool}). */
    final SpscUnboundedArrayQueue<Frame> inQueue;
    final FramePool inPool;
    final FramePool eventPool;

    /** Indexed by peer handle; entries created by this thread, read by operators (a peer's queue is final once set). */
    private final PeerQueue[] peers;
    private final int[] activePeers;
    private int activeCount;
    private int blockedCount;
    private int roundStart;

    private IoWait wait;
    private volatile io.spectrum.link.Readiness nodeReadiness;
    private boolean produced;
    private long now;
    volatile boolean refreshRequested;

    LinkIo(Link inner, QueuedLinkConfig config, int maxPeers, QueuedLinkStats stats, ResourceCounter peerTable) {
        this.inner = inner;
        this.receivesInto = inner instanceof io.spectrum.link.ReceivesInto r ? r : null;
        this.stats = stats;
        this.peerTable = peerTable;
        this.clock = config.clock();
        this.peerQueueFrames = config.peerQueueFrames();
        this.disconnectDrops = config.disconnectDrops();
        this.disconnectWindow = config.disconnectWindowNanos();
        this.rejoinAfter = config.rejoinAfterNanos();
        this.pollBatch = config.pollBatch();
        this.sendBurst = config.sendBurst();
        String name = inner.name();
        this.outPool = new FramePool(name + " outbound frames", config.outboundFrames(), config.frameBytes());
        this.outQueue = new SpscArrayQueue<>(Math.max(2, config.outboundFrames()));
        this.inPool = new FramePool(name + " inbound frames", config.inboundFrames(), config.frameBytes());
        this.eventPool = new FramePool(name + " peer events", config.eventFrames(), 0);
        this.inQueue = new SpscUnboundedArrayQueue<>(Math.max(16, config.inboundFrames() + config.eventFrames()));
        this.peers = new PeerQueue[maxPeers];
        this.activePeers = new int[maxPeers];
    }

    void waitStrategy(IoWait w) {
        this.wait = w;
    }

    void nodeReadiness(io.spectrum.link.Readiness r) {
        this.nodeReadiness = r;
    }

    /** Work the node thread left for this thread (checked before it sleeps). */
    boolean hasInput() {
        return !outQueue.isEmpty() || refreshRequested;
    }

    boolean hasBlockedPeers() {
        return blockedCount > 0;
    }

    /** The queue of a peer, or null before the link saw it; any thread (operators). */
    PeerQueue peer(int peer) {
        return peer >= 0 && peer < peers.length ? peers[peer] : null;
    }

    int maxPeers() {
        return peers.length;
    }

    @Override
    public String roleName() {
        return "spectrum-io " + inner.name();
    }

    @Override
    public int doWork() {
        now = clock.nanoTime();
        int work = drainOutbound();
        work += flushPeers();
        flushInner();
        try {
            work += receivesInto != null ? receivesInto.pollInto(this, pollBatch) : inner.poll(this, pollBatch);
        } catch (RuntimeException e) {
            stats.ioErrors++;
        }

        if (refreshRequested) {
            refreshRequested = false;
            inner.refreshCounters();
            work++;
        }
        if (produced) {
            produced = false;
            io.spectrum.link.Readiness r = nodeReadiness;
            if (r != null) {
                r.wake();
            }
        }
        return work;
    }

    // ---- outbound ----

    private int drainOutbound() {
        int n = 0;
        while (n < DRAIN_LIMIT) {
            Frame f = outQueue.relaxedPoll();
            if (f == null) {
                break;
            }
            n++;
            place(f);
        }
        return n;
    }

    /** Puts a frame the node queued into its peer's queue: a full queue sends first, then drops its oldest. */
    private void place(Frame f) {
        PeerQueue q = queueOf(f.peer);
        if (q == null) {
            stats.droppedDown++;
            outPool.give(f);
            return;
        }
        if (q.state == PeerQueue.DISCONNECTED) {
            stats.droppedDisconnected++;
            q.dropped++;
            outPool.give(f);
            return;
        }
        if (f.gen != q.gen) {
            stats.droppedStale++; // queued before a disconnect, arriving after the rejoin: not for this session
            outPool.give(f);
            return;
        }
        f.data = FwdView.peekOpcode(f.buf, 0, f.len) == FwdView.OP_WRITE;
        if (q.isFull()) {
            send(q);
            if (q.isFull()) {
                outPool.give(q.dropOldestData());
                stats.droppedOldest++;
                q.dropped++;
                if (overThreshold(q)) {
                    disconnect(q);
                    stats.droppedDisconnected++;
                    q.dropped++;
                    outPool.give(f);
                    return;
                }
            }
        }
        q.push(f);
        if (!q.active) {
            q.active = true;
            activePeers[activeCount++] = q.peer;
        }
    }

    /** Counts one drop in the peer's window; true when the drops in the window pass the threshold. */
    private boolean overThreshold(PeerQueue q) {
        if (disconnectDrops <= 0) {
            return false;
        }
        if (now - q.windowStart > disconnectWindow) {
            q.windowStart = now;
            q.windowDrops = 0;
        }
        return ++q.windowDrops > disconnectDrops;
    }

    /** Sends from every queue with frames, a burst each, starting one further each round (fairness). */
    private int flushPeers() {
        int sent = 0;
        int blocked = 0;
        int count = activeCount;
        if (count == 0) {
            blockedCount = 0;
            return 0;
        }
        int start = roundStart < count ? roundStart : 0;
        for (int k = 0; k < count; k++) {
            int i = start + k;
            if (i >= count) {
                i -= count;
            }
            PeerQueue q = peers[activePeers[i]];
            sent += send(q);
            if (q.blocked) {
                blocked++;
            }
        }
        roundStart = start + 1;
        // drop the queues that emptied from the active list (swap-remove, order does not matter)
        for (int i = 0; i < activeCount; ) {
            PeerQueue q = peers[activePeers[i]];
            if (q.isEmpty()) {
                q.active = false;
                activePeers[i] = activePeers[--activeCount];
            } else {
                i++;
            }
        }
        blockedCount = blocked;
        return sent;
    }

    /**
     * Lets the link send what this round handed it in one go: a batching link (UDP's {@code sendmmsg},
     * a stream link's gathered write) queues its sends from the first flush on, so every peer's burst
     * of this round leaves with as few system calls as the link can make.
     */
    private void flushInner() {
        try {
            inner.flush();
        } catch (RuntimeException e) {
            stats.ioErrors++;
        }
    }

    /** Sends up to a burst of the peer's queued frames; stops at FLOW_BACKPRESSURE. Returns frames taken. */
    private int send(PeerQueue q) {
        q.blocked = false;
        int n = 0;
        while (n < sendBurst && !q.isEmpty()) {
            Frame f = q.head();
            int r;
            try {
                r = inner.send(q.peer, f.buf, 0, f.len);
            } catch (RuntimeException e) {
                stats.ioErrors++;
                r = WireError.TRANSPORT_DOWN;
            }
            if (r == WireError.FLOW_BACKPRESSURE) {
                q.blocked = true;
                break;
            }
            q.pop();
            n++;
            if (r == WireError.OK) {
                q.sent++;
                stats.framesOut++;
                stats.bytesOut += f.len;
            } else if (r == WireError.TRANSPORT_DOWN) {
                stats.droppedDown++;
            } else {
                stats.droppedInvalid++;
            }
            outPool.give(f);
        }
        return n;
    }

    /** Slow consumer: empties its queue, refuses its frames until it rejoins, tells the node (in order). */
    private void disconnect(PeerQueue q) {
        for (Frame f = q.pop(); f != null; f = q.pop()) {
            stats.droppedDisconnected++;
            q.dropped++;
            outPool.give(f);
        }
        q.state = PeerQueue.DISCONNECTED;
        q.gen++;
        q.disconnectedAt = now;
        q.disconnects++;
        stats.disconnects++;
        peerTable.returned();
        emit(Frame.DISCONNECTED, q.peer, q.gen);
    }

    /** A disconnected peer is served again with an empty queue and a fresh drop window. */
    private void rejoin(PeerQueue q) {
        q.state = PeerQueue.UP;
        q.windowStart = now;
        q.windowDrops = 0;
        stats.rejoins++;
        peerTable.taken();
        emit(Frame.UP, q.peer, q.gen);
    }

    /** The queue of a peer handle, created at first sight; null past the table (counted refused). */
    private PeerQueue queueOf(int peer) {
        if (peer < 0 || peer >= peers.length) {
            peerTable.countRefused();
            return null;
        }
        PeerQueue q = peers[peer];
        if (q == null) {
            q = new PeerQueue(peer, peerQueueFrames);
            q.windowStart = now;
            peers[peer] = q;
            peerTable.taken();
        }
        return q;
    }

    // ---- inbound (called by the inner link on this thread) ----

    /** A link that polls: copies its frame into a pooled buffer and takes it in as the sink would. */
    @Override
    public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
        System.arraycopy(buf, off, frameBuffer(len), 0, len);
        onFrameIn(link, peer, len);
    }

    /**
     * The pooled frame the next received frame is written into, taken from the inbound pool once and
     * kept until {@link #onFrameIn} queues it (so one inbound frame may stay taken between frames);
     * with the pool empty, a scratch buffer whose frame {@link #onFrameIn} drops.
     */
    @Override
    public byte[] frameBuffer(int len) {
        Frame f = pendingIn;
        if (f == null) {
            f = pendingIn = inPool.take();
            if (f == null) {
                if (scratchIn.length < len) {
                    scratchIn = new byte[len];
                }
                return scratchIn;
            }
        }
        if (f.buf.length < len) {
            f.buf = new byte[len]; // grown once, for a frame larger than any this buffer carried
        }
        return f.buf;
    }

    /** Queues the frame written into {@link #frameBuffer} for the node thread, or drops it (counted). */
    @Override
    public void onFrameIn(Link link, int peer, int len) {
        PeerQueue q = queueOf(peer);
        if (q == null) {
            return;
        }
        if (q.state == PeerQueue.DISCONNECTED) {
            if (now - q.disconnectedAt < rejoinAfter) {
                stats.droppedQuarantine++;
                return;
            }
            rejoin(q);
        }
        Frame f = pendingIn;
        if (f == null) {
            stats.inboundDropped++;
            return;
        }
        pendingIn = null;
        f.len = len;
        f.peer = peer;
        f.kind = Frame.DATA;
        inQueue.offer(f);
        produced = true;
        stats.framesIn++;
        stats.bytesIn += len;
    }

    @Override
    public void onPeerUp(Link link, int peer) {
        PeerQueue q = queueOf(peer);
        if (q == null) {
            return;
        }
        if (q.state == PeerQueue.DISCONNECTED) {
            rejoin(q);
        } else if (q.state != PeerQueue.UP) {
            q.state = PeerQueue.UP;
            emit(Frame.UP, peer, q.gen);
        }
    }

    @Override
    public void onPeerDown(Link link, int peer) {
        PeerQueue q = queueOf(peer);
        if (q == null) {
            return;
        }
        if (q.state == PeerQueue.UP) {
            q.state = PeerQueue.DOWN;
            emit(Frame.DOWN, peer, q.gen);
        }
        // a disconnected peer was reported down already; it stays disconnected until it returns
    }

    @Override
    public void probe(Link link, int peer) {
        if (peer >= 0 && peer < peers.length) {
            emit(Frame.PROBE, peer, 0);
        }
    }

    private void emit(int kind, int peer, int gen) {
        Frame f = eventPool.take();
        if (f == null) {
            f = new Frame(0);
            stats.eventsAllocated++;
        }
        f.kind = kind;
        f.peer = peer;
        f.gen = gen;
        f.len = 0;
        inQueue.offer(f);
        produced = true;
    }

    // ---- close ----

    @Override
    public void onClose() {
        now = clock.nanoTime();
        drainOutbound();
        flushPeers(); // one last non-blocking try
        flushInner();
        for (int i = 0; i < activeCount; i++) {
            PeerQueue q = peers[activePeers[i]];
            for (Frame f = q.pop(); f != null; f = q.pop()) {
                stats.droppedOnClose++;
                q.dropped++;
            }
            q.active = false;
        }
        activeCount = 0;
        blockedCount = 0;
        for (Frame f = outQueue.relaxedPoll(); f != null; f = outQueue.relaxedPoll()) {
            stats.droppedOnClose++;
        }
        try {
            inner.close();
        } catch (RuntimeException e) {
            stats.ioErrors++;
        }
        wait.close();
    }

    /** After the thread stopped (called by the closing thread): lets go of every buffer. */
    void release() {
        outQueue.clear();
        inQueue.clear();
        outPool.release();
        inPool.release();
        eventPool.release();
    }

    /** Frames out of the pools and queued for a peer now (operators; approximate while running). */
    int queuedOutbound() {
        int n = 0;
        for (int i = 0; i < peers.length; i++) {
            PeerQueue q = peers[i];
            if (q != null) {
                n += q.depth;
            }
        }
        return n;
    }
}
