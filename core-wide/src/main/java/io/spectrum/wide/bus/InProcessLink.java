package io.spectrum.wide.bus;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerHandles;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.WireError;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The host bus's in-process transport: a {@link Link} whose peers are {@link End}s handed out by
 * {@link #connect()} to code in the same JVM. Frames cross in both directions through queues (a
 * copy each way, as a socket would), so a client in-process and one over the Unix socket go
 * through the same frames and the same server code. Peer handles are reused with a higher
 * generation ({@link PeerHandles}), so they never run out, and a frame or a departure of an end that
 * no longer holds its handle never reaches its successor. The link's side ({@link #poll},
 * {@link #send}) runs on the bus's thread; each end on its client's thread.
 */
public final class InProcessLink implements Link {
    /** Ends connected at once; one more is handed out closed. */
    static final int MAX_ENDS = 1 << 16;
    private final int id;
    private final LinkStats stats = new LinkStats();
    private final ConcurrentLinkedQueue<Inbound> inbound = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<End> arrivals = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<End> departures = new ConcurrentLinkedQueue<>();
    private final Map<Integer, End> ends = new ConcurrentHashMap<>();
    /** Guarded by itself: ends are made on clients' threads and freed on the bus's. */
    private final PeerHandles handles;
    private final int maxFrame;
    /** Bytes sent by ends and not yet polled by the bus, bounded by {@link #maxInbound}. */
    private final java.util.concurrent.atomic.AtomicLong inboundBytes = new java.util.concurrent.atomic.AtomicLong();
    private final long maxInbound;
    private volatile boolean closed;
    private PeerListener listener;

    private record Inbound(End from, byte[] frame) {
    }

    /** A link sized by the default {@link BusLimits}. */
    public InProcessLink(int id) {
        this(id, MAX_ENDS, BusLimits.defaults());
    }

    /**
     * A link with at most {@code maxEnds} ends connected at once, carrying frames up to
     * {@link BusLimits#maxFrameBytes()} and holding at most {@link BusLimits#maxReceiveBytes()} of
     * frames the bus has not polled yet (over all ends).
     */
    InProcessLink(int id, int maxEnds, BusLimits limits) {
        this.id = id;
        this.handles = new PeerHandles(maxEnds);
        this.maxFrame = limits.maxFrameBytes();
        this.maxInbound = limits.maxReceiveBytes();
    }

    /** As {@link #InProcessLink(int, int, BusLimits)} with default limits (tests of handle reuse). */
    InProcessLink(int id, int maxEnds) {
        this(id, maxEnds, BusLimits.defaults());
    }

    /**
     * A new connection's client end, known to the bus as {@code name} (null: anonymous); its peer is
     * announced to the link's listener on the next poll. With {@link #MAX_ENDS} ends connected, the
     * end is closed at once (its sends answer TRANSPORT_DOWN).
     */
    public End connect(String name) {
        int peer;
        long gen;
        synchronized (handles) {
            peer = handles.take();
            gen = handles.generation(peer);
        }
        End e = new End(peer, gen, name);
        if (peer < 0) {
            e.open = false;
            return e;
        }
        ends.put(e.peer, e);
        arrivals.add(e);
        return e;
    }

    /** Frees {@code e}'s handle when it still holds it; true when it did. */
    private boolean release(End e) {
        if (e.peer < 0 || !ends.remove(e.peer, e)) {
            return false;
        }
        synchronized (handles) {
            handles.free(e.peer);
        }
        return true;
    }

    /** True when {@code e} holds its handle now (not an end that went, whose handle a successor may have). */
    private boolean current(End e) {
        return e.peer >= 0 && ends.get(e.peer) == e;
    }

    /** The client's end of one in-process connection. */
    public final class End implements AutoCloseable {
        final int peer;
        final long generation;
        final String name;
        final ConcurrentLinkedQueue<byte[]> toClient = new ConcurrentLinkedQueue<>();
        volatile boolean open = true;

        End(int peer, long generation, String name) {
            this.peer = peer;
            this.generation = generation;
            this.name = name;
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
                return WireError.TRANSPORT_DOWN;
            }
            if (len > maxFrame) {
                return WireError.FRAME_INVALID;
            }
            if (inboundBytes.addAndGet(len) > maxInbound) {
                inboundBytes.addAndGet(-len);
                return WireError.FLOW_BACKPRESSURE;
            }
            byte[] copy = new byte[len];
            System.arraycopy(buf, off, copy, 0, len);
            inbound.add(new Inbound(this, copy));
            return WireError.OK;
        }

        /** The next frame from the bus, or null. */
        public byte[] poll() {
            return toClient.poll();
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

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        End e = ends.get(peer);
        if (e == null || !e.open || closed) {
            stats.sendRefused++;
            return WireError.TRANSPORT_DOWN;
        }
        byte[] copy = new byte[len];
        System.arraycopy(buf, off, copy, 0, len);
        e.toClient.add(copy);
        stats.framesOut++;
        stats.bytesOut += len;
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
                stats.droppedInvalid++; // sent by an end that has gone: never its handle's next holder's
                continue;
            }
            stats.framesIn++;
            stats.bytesIn += in.frame.length;
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

    @Override
    public LinkStats stats() {
        return stats;
    }

    @Override
    public void close() {
        closed = true;
    }
}
