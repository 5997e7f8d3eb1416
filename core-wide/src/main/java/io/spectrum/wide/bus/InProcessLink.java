package io.spectrum.wide.bus;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.WireError;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The host bus's in-process transport: a {@link Link} whose peers are {@link End}s handed out by
 * {@link #connect()} to code in the same JVM. Frames cross in both directions through queues (a
 * copy each way, as a socket would), so a client in-process and one over the Unix socket go
 * through the same frames and the same server code. Peer handles are never reused. The link's
 * side ({@link #poll}, {@link #send}) runs on the bus's thread; each end on its client's thread.
 */
public final class InProcessLink implements Link {
    private static final int MAX_FRAME = 4 << 20;
    private final int id;
    private final LinkStats stats = new LinkStats();
    private final ConcurrentLinkedQueue<Inbound> inbound = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<End> arrivals = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<End> departures = new ConcurrentLinkedQueue<>();
    private final Map<Integer, End> ends = new ConcurrentHashMap<>();
    private final AtomicInteger peers = new AtomicInteger();
    private volatile boolean closed;
    private PeerListener listener;

    private record Inbound(End from, byte[] frame) {
    }

    public InProcessLink(int id) {
        this.id = id;
    }

    /**
     * A new connection's client end, known to the bus as {@code name} (null: anonymous); its peer is
     * announced to the link's listener on the next poll.
     */
    public End connect(String name) {
        End e = new End(peers.incrementAndGet(), name);
        ends.put(e.peer, e);
        arrivals.add(e);
        return e;
    }

    /** The client's end of one in-process connection. */
    public final class End implements AutoCloseable {
        final int peer;
        final String name;
        final ConcurrentLinkedQueue<byte[]> toClient = new ConcurrentLinkedQueue<>();
        volatile boolean open = true;

        End(int peer, String name) {
            this.peer = peer;
            this.name = name;
        }

        /** Sends one frame to the bus (copied); TRANSPORT_DOWN once closed. */
        public int send(byte[] buf, int off, int len) {
            if (!open || closed) {
                return WireError.TRANSPORT_DOWN;
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
            if (listener != null) {
                listener.onPeerUp(this, e.peer);
            }
        }
        int n = 0;
        Inbound in;
        while (n < maxFrames && (in = inbound.poll()) != null) {
            stats.framesIn++;
            stats.bytesIn += in.frame.length;
            handler.onFrame(this, in.from.peer, in.frame, 0, in.frame.length);
            n++;
        }
        if (inbound.isEmpty()) {
            while ((e = departures.poll()) != null) {
                ends.remove(e.peer);
                if (listener != null) {
                    listener.onPeerDown(this, e.peer);
                }
            }
        }
        return n;
    }

    /** Ends the server's side of {@code peer} (the bus closed that connection). */
    public void disconnect(int peer) {
        End e = ends.remove(peer);
        if (e != null) {
            e.open = false;
        }
    }

    @Override
    public String peerName(int peer) {
        End e = ends.get(peer);
        return e == null ? null : e.name;
    }

    @Override
    public boolean isPeerUp(int peer) {
        End e = ends.get(peer);
        return e != null && e.open;
    }

    @Override
    public int maxFrame() {
        return MAX_FRAME;
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
