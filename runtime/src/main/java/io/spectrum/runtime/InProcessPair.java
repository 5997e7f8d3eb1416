package io.spectrum.runtime;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.link.Readiness;
import io.spectrum.wire.WireError;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Two links joined in memory ({@link LinkSpec#inProcessPair}): what one end sends to peer 0, the
 * other polls from peer 0, a copy each way as a socket would make. Each end may run on its own
 * thread. A frame is refused (FLOW_BACKPRESSURE, counted in {@code sendRefused}) when
 * {@link #QUEUE_FRAMES} wait for the other end; nothing is dropped silently. The peer is reported up
 * with its first frame (as a UDP peer is) and down once the other end has closed.
 */
final class InProcessPair implements Link {
    /** Frames waiting for one end, at most. */
    static final int QUEUE_FRAMES = 8192;
    /** The largest frame when the settings name none: a UDP datagram's. */
    static final int DEFAULT_MAX_FRAME = 65_507;

    private final int id;
    private final String name;
    private final int maxFrame;
    private final ArrayBlockingQueue<byte[]> inbox = new ArrayBlockingQueue<>(QUEUE_FRAMES);
    private final LinkStats stats = new LinkStats();
    private InProcessPair other;
    private volatile boolean closed;
    private volatile Readiness readiness;
    private PeerListener listener;
    private boolean up;

    private InProcessPair(int id, String name, int maxFrame) {
        this.id = id;
        this.name = name;
        this.maxFrame = maxFrame;
    }

    static Link[] open(int nodeId, int clientId, int maxFrame) {
        InProcessPair node = new InProcessPair(nodeId, "in-process (node side)", maxFrame);
        InProcessPair client = new InProcessPair(clientId, "in-process (client side)", maxFrame);
        node.other = client;
        client.other = node;
        return new Link[] {node, client};
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        if (peer != 0 || closed || other.closed) {
            stats.sendRefused++;
            return WireError.TRANSPORT_DOWN;
        }
        if (len > maxFrame) {
            stats.sendRefused++;
            return WireError.FRAME_INVALID;
        }
        byte[] copy = new byte[len];
        System.arraycopy(buf, off, copy, 0, len);
        if (!other.inbox.offer(copy)) {
            stats.sendRefused++;
            return WireError.FLOW_BACKPRESSURE;
        }
        stats.framesOut++;
        stats.bytesOut += len;
        Readiness r = other.readiness;
        if (r != null) {
            r.wake();
        }
        return WireError.OK;
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        int n = 0;
        byte[] f;
        while (n < maxFrames && (f = inbox.poll()) != null) {
            if (!up) {
                up = true;
                if (listener != null) {
                    listener.onPeerUp(this, 0);
                }
            }
            stats.framesIn++;
            stats.bytesIn += f.length;
            handler.onFrame(this, 0, f, 0, f.length);
            n++;
        }
        if (up && (closed || other.closed)) {
            up = false;
            if (listener != null) {
                listener.onPeerDown(this, 0);
            }
        }
        return n;
    }

    @Override
    public int maxFrame() {
        return maxFrame;
    }

    @Override
    public void setPeerListener(PeerListener listener) {
        this.listener = listener;
    }

    @Override
    public boolean isPeerUp(int peer) {
        return peer == 0 && !closed && !other.closed;
    }

    @Override
    public boolean setReadiness(Readiness readiness) {
        this.readiness = readiness;
        return true;
    }

    @Override
    public LinkStats stats() {
        return stats;
    }

    @Override
    public void close() {
        closed = true;
        Readiness r = other.readiness;
        if (r != null) {
            r.wake(); // the other end reports its peer down on its next poll
        }
    }
}
