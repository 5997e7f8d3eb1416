package io.spectrum.link.local;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Lane;
import io.spectrum.link.Link;
import io.spectrum.link.LinkCounters;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerHandles;
import io.spectrum.link.PeerListener;
import io.spectrum.link.Readiness;
import io.spectrum.wire.WireError;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory link, the local link with no socket: a {@link Link} whose peers are {@link End}s
 * handed out by {@link #connect()} to code in the same JVM (the host bus's in-process clients, and a
 * node's in-process pair). Frames cross in both directions through queues (a
 * copy each way, as a socket would), so a client in-process and one over the Unix socket go
 * through the same frames and the same server code. Peer handles are reused with a higher
 * generation ({@link PeerHandles}), so they never run out, and a frame or a departure of an end that
 * no longer holds its handle never reaches its successor. The link's side ({@link #poll},
 * {@link #send}) runs on the bus's thread; each end on its client's thread.
 *
 * <p>Each {@link End} is itself a {@link Link} whose peer 0 is this side, so the same class also
 * joins a node to a client in its own process ({@code LinkSpec.inProcessPair}, the host's MQTT
 * bridge). Both directions are bounded in bytes by the budget: the frames all ends sent that this
 * side has not polled, and the frames this side sent to one end that it has not polled. A send over
 * the budget is refused with FLOW_BACKPRESSURE (counted in the sender's {@code sendRefused}); nothing
 * is dropped silently. The bus's CONTROL lane alone may fill an end's budget twice over, past which
 * the end is closed ({@link #send(int, byte[], int, int, Lane)}). Every arrival (a frame, a connect,
 * a close) wakes the receiving side's {@link Readiness}, so a node loop blocks until then instead of
 * polling on a period.
 */
public final class InProcessLink implements Link {
    /** Ends connected at once unless a constructor says fewer; one more is handed out closed. */
    public static final int MAX_ENDS = 1 << 16;
    private final int id;
    private final LinkCounters stats = new LinkCounters();
    private final ConcurrentLinkedQueue<Inbound> inbound = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<End> arrivals = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<End> departures = new ConcurrentLinkedQueue<>();
    private final Map<Integer, End> ends = new ConcurrentHashMap<>();
    /** Guarded by itself: ends are made on clients' threads and freed on the bus's. */
    private final PeerHandles handles;
    /** The ends connected (capacity: the most at once; refused: ends handed out closed). Guarded by {@link #handles}. */
    private final io.spectrum.stats.ResourceCounter endsCounter;
    private final int maxFrame;
    /** Bytes sent by ends and not yet polled by the bus, bounded by {@link #budget}. */
    private final AtomicLong inboundBytes = new AtomicLong();
    /** Bytes waiting for this side (over all ends), and for each end from this side, at most. */
    private final long budget;
    private volatile boolean closed;
    private volatile Readiness readiness;
    private PeerListener listener;

    private record Inbound(End from, byte[] frame) {
    }

    /**
     * A link with id {@code id} carrying frames up to {@code maxFrame} bytes, holding at most
     * {@code budgetBytes} of frames waiting for this side (over all ends) and as many waiting for
     * each end; up to {@link #MAX_ENDS} ends connected at once.
     *
     * @throws IllegalArgumentException when {@code maxFrame} or {@code budgetBytes} is below 1
     */
    public InProcessLink(int id, int maxFrame, long budgetBytes) {
        this(id, MAX_ENDS, maxFrame, budgetBytes);
    }

    /**
     * A link with at most {@code maxEnds} ends connected at once, carrying frames up to
     * {@code maxFrame} bytes and holding at most {@code budgetBytes} of frames waiting for this side
     * (over all ends) and as many waiting for each end. The host bus sizes its own by its limits
     * ({@code BusServer.inProcessLink}).
     *
     * @throws IllegalArgumentException when {@code maxEnds}, {@code maxFrame} or {@code budgetBytes} is below 1
     */
    public InProcessLink(int id, int maxEnds, int maxFrame, long budgetBytes) {
        if (maxEnds < 1 || maxFrame < 1 || budgetBytes < 1) {
            throw new IllegalArgumentException("ends, frame size and budget must be at least 1: " + maxEnds + ", "
                    + maxFrame + ", " + budgetBytes);
        }
        this.id = id;
        this.handles = new PeerHandles(maxEnds);
        this.endsCounter = new io.spectrum.stats.ResourceCounter("in-process ends", maxEnds);
        this.maxFrame = maxFrame;
        this.budget = budgetBytes;
    }

    /**
     * The ends as this side's peer table: capacity the most connected at once (a driver that keeps a
     * queue per peer, the host's queued links, sizes itself by it), in use the ends connected now,
     * refused the ends handed out closed because all were taken.
     */
    @Override
    public io.spectrum.stats.BoundedResource peers() {
        return endsCounter;
    }

    /**
     * A new connection's client end, known to the bus as {@code name} (null: anonymous); its peer is
     * announced to the link's listener on the next poll. With {@link #MAX_ENDS} ends connected, the
     * end is closed at once (its sends answer TRANSPORT_DOWN). As a {@link Link} the end has this
     * link's id.
     */
    public End connect(String name) {
        return connect(name, id);
    }

    /** As {@link #connect(String)}, the end (as a {@link Link}) having id {@code endId}. */
    public End connect(String name, int endId) {
        int peer;
        long gen;
        synchronized (handles) {
            peer = handles.take();
            gen = handles.generation(peer);
            if (peer < 0) {
                endsCounter.countRefused();
            } else {
                endsCounter.taken();
            }
        }
        End e = new End(peer, gen, name, endId);
        if (peer < 0) {
            e.open = false;
            return e;
        }
        ends.put(e.peer, e);
        arrivals.add(e);
        wake(readiness);
        return e;
    }

    /** Frees {@code e}'s handle when it still holds it; true when it did. */
    private boolean release(End e) {
        if (e.peer < 0 || !ends.remove(e.peer, e)) {
            return false;
        }
        synchronized (handles) {
            handles.free(e.peer);
            endsCounter.returned();
        }
        return true;
    }

    /** True when {@code e} holds its handle now (not an end that went, whose handle a successor may have). */
    private boolean current(End e) {
        return e.peer >= 0 && ends.get(e.peer) == e;
    }

    private static void wake(Readiness r) {
        if (r != null) {
            r.wake();
        }
    }

    /**
     * The client's end of one in-process connection, and a {@link Link} whose one peer (0) is the
     * link's side: up from the end's first poll while both are open, down (told once) when either
     * closed or the link's side disconnected it.
     */
    public final class End implements Link {
        final int peer;
        final long generation;
        final String name;
        private final int endId;
        final ConcurrentLinkedQueue<byte[]> toClient = new ConcurrentLinkedQueue<>();
        /** Bytes in {@link #toClient}, bounded by the link's budget. */
        private final AtomicLong toClientBytes = new AtomicLong();
        private final LinkCounters endStats = new LinkCounters();
        volatile boolean open = true;
        private volatile Readiness endReadiness;
        private PeerListener endListener;
        /** The listener was told the peer is up (and not yet that it went down). */
        private boolean told;
        /** The listener was told the peer went down; it is not told again. */
        private boolean toldDown;

        End(int peer, long generation, String name, int endId) {
            this.peer = peer;
            this.generation = generation;
            this.name = name;
            this.endId = endId;
        }

        /** This end's peer handle at the bus and the generation it holds it with. */
        public int peer() {
            return peer;
        }

        /**
         * The generation {@link #peer()} is held with: a reused peer handle with another generation is another
         * connection.
         */
        public long generation() {
            return generation;
        }

        /**
         * Sends one frame to the bus (copied); TRANSPORT_DOWN once closed, FRAME_INVALID above the
         * bus's frame limit, FLOW_BACKPRESSURE while the frames waiting for the bus fill its receive
         * budget (nothing is queued: send it again later).
         */
        public int send(byte[] buf, int off, int len) {
            if (!open || closed) {
                endStats.countSendRefused();
                return WireError.TRANSPORT_DOWN;
            }
            if (len > maxFrame) {
                endStats.countSendRefused();
                return WireError.FRAME_INVALID;
            }
            if (inboundBytes.addAndGet(len) > budget) {
                inboundBytes.addAndGet(-len);
                endStats.countSendRefused();
                return WireError.FLOW_BACKPRESSURE;
            }
            byte[] copy = new byte[len];
            System.arraycopy(buf, off, copy, 0, len);
            inbound.add(new Inbound(this, copy));
            endStats.countOut(len);
            wake(readiness);
            return WireError.OK;
        }

        /** The next frame from the bus, or null. */
        public byte[] poll() {
            byte[] f = toClient.poll();
            if (f != null) {
                toClientBytes.addAndGet(-f.length);
                endStats.countIn(f.length);
            }
            return f;
        }

        /** This end's link id ({@link #connect(String, int)}). */
        @Override
        public int id() {
            return endId;
        }

        /** "in-process end" (the link's side is "in-process bus"). */
        @Override
        public String name() {
            return "in-process end";
        }

        /** As {@link #send(byte[], int, int)} for peer 0 (the link's side); TRANSPORT_DOWN for any other. */
        @Override
        public int send(int toPeer, byte[] buf, int off, int len) {
            if (toPeer != 0) {
                endStats.countSendRefused();
                return WireError.TRANSPORT_DOWN;
            }
            return send(buf, off, len);
        }

        /**
         * Tells the listener the peer is up (first poll while open), hands over up to {@code maxFrames}
         * frames from the link's side as peer 0's, then tells the listener the peer is down once this
         * end, the link, or the link's side's disconnect closed it.
         */
        @Override
        public int poll(FrameHandler handler, int maxFrames) {
            if (!told && !toldDown && isOpen()) {
                told = true;
                if (endListener != null) {
                    endListener.onPeerUp(this, 0);
                }
            }
            int n = 0;
            byte[] f;
            while (n < maxFrames && (f = poll()) != null) {
                handler.onFrame(this, 0, f, 0, f.length);
                n++;
            }
            if (told && !isOpen()) {
                told = false;
                toldDown = true;
                if (endListener != null) {
                    endListener.onPeerDown(this, 0);
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
            endListener = l;
        }

        /** True for peer 0 while this end and the link are open. */
        @Override
        public boolean isPeerUp(int p) {
            return p == 0 && isOpen();
        }

        /** True once this end or the link closed (or the link's side disconnected it), and for any peer but 0. */
        @Override
        public boolean isPeerGone(int p) {
            return p != 0 || !isOpen();
        }

        /** Woken on each frame the link's side sends here and when the link closes; always true. */
        @Override
        public boolean setReadiness(Readiness r) {
            endReadiness = r;
            return true;
        }

        @Override
        public LinkStats stats() {
            return endStats;
        }

        /** False once this end or the link was closed. */
        public boolean isOpen() {
            return open && !closed;
        }

        /** Disconnects: the bus sees this peer go down. */
        @Override
        public void close() {
            if (open) {
                open = false;
                departures.add(this);
                wake(readiness);
            }
        }
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return "in-process bus";
    }

    /**
     * Sends one frame (copied) to {@code peer}'s end: TRANSPORT_DOWN when no open end holds the
     * handle, FRAME_INVALID above the frame limit, FLOW_BACKPRESSURE while the frames waiting for that
     * end fill the budget (nothing is queued); each counted in {@code sendRefused}.
     */
    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        return send(peer, buf, off, len, budget, false);
    }

    /**
     * As {@link #send(int, byte[], int, int)} for the RPC and TOPIC lanes. The bus's CONTROL lane
     * (replies, notices) may fill the budget twice over, since its sender cannot wait; a CONTROL frame
     * beyond that closes the end (its peer goes down), as a full CONTROL lane closes a socket
     * connection (docs/bus.md), and answers TRANSPORT_DOWN.
     */
    @Override
    public int send(int peer, byte[] buf, int off, int len, Lane lane) {
        return lane == Lane.CONTROL ? send(peer, buf, off, len, 2 * budget, true) : send(peer, buf, off, len, budget, false);
    }

    private int send(int peer, byte[] buf, int off, int len, long limit, boolean closeOnOverflow) {
        End e = ends.get(peer);
        if (e == null || !e.open || closed) {
            stats.countSendRefused();
            return WireError.TRANSPORT_DOWN;
        }
        if (len > maxFrame) {
            stats.countSendRefused();
            return WireError.FRAME_INVALID;
        }
        if (e.toClientBytes.addAndGet(len) > limit) {
            e.toClientBytes.addAndGet(-len);
            stats.countSendRefused();
            if (!closeOnOverflow) {
                return WireError.FLOW_BACKPRESSURE;
            }
            e.open = false;
            departures.add(e);
            wake(e.endReadiness);
            wake(readiness);
            return WireError.TRANSPORT_DOWN;
        }
        byte[] copy = new byte[len];
        System.arraycopy(buf, off, copy, 0, len);
        e.toClient.add(copy);
        stats.countOut(len);
        wake(e.endReadiness);
        return WireError.OK;
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        End e;
        while ((e = arrivals.poll()) != null) {
            if (listener != null && current(e)) {
                listener.onPeerUp(this, e.peer);
            }
        }
        int n = 0;
        Inbound in;
        while (n < maxFrames && (in = inbound.poll()) != null) {
            inboundBytes.addAndGet(-in.frame.length);
            if (!current(in.from)) {
                stats.countInvalid(); // sent by an end that has gone: never its handle's next holder's
                continue;
            }
            stats.countIn(in.frame.length);
            handler.onFrame(this, in.from.peer, in.frame, 0, in.frame.length);
            n++;
        }
        if (inbound.isEmpty()) {
            while ((e = departures.poll()) != null) {
                if (release(e) && listener != null) {
                    listener.onPeerDown(this, e.peer);
                }
            }
        }
        return n;
    }

    /** Ends the server's side of {@code peer} (the bus closed that connection); its handle is free. */
    @Override
    public void disconnect(int peer) {
        End e = ends.get(peer);
        if (e != null) {
            e.open = false;
            release(e);
            wake(e.endReadiness);
        }
    }

    @Override
    public long peerGeneration(int peer) {
        End e = ends.get(peer);
        return e == null ? 0 : e.generation;
    }

    @Override
    public String peerName(int peer) {
        End e = ends.get(peer);
        return e == null ? null : e.name;
    }

    /** Gone: the link closed, the end closed (told or not), or the handle held by no end. */
    @Override
    public boolean isPeerGone(int peer) {
        End e = ends.get(peer);
        return closed || e == null || !e.open;
    }

    @Override
    public boolean isPeerUp(int peer) {
        End e = ends.get(peer);
        return e != null && e.open;
    }

    @Override
    public int maxFrame() {
        return maxFrame;
    }

    @Override
    public void setPeerListener(PeerListener l) {
        listener = l;
    }

    /** Woken on each frame, connect and close of an end; always true. */
    @Override
    public boolean setReadiness(Readiness r) {
        readiness = r;
        return true;
    }

    @Override
    public LinkStats stats() {
        return stats;
    }

    /** Closes the link's side: every end's sends then answer TRANSPORT_DOWN and its peer goes down. */
    @Override
    public void close() {
        closed = true;
        for (End e : ends.values()) {
            wake(e.endReadiness);
        }
    }
}
