package io.spectrum.wide.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.LinkCounters;
import io.spectrum.link.LinkStats;
import io.spectrum.link.LivenessProbe;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.link.Readiness;
import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.wire.WireError;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * An in-memory inner link for {@link QueuedLink} tests, driven (poll, send) by the I/O thread only and
 * scripted from the test thread through atomics, allocation-free:
 * <ul>
 *   <li>send: a peer marked slow answers FLOW_BACKPRESSURE; otherwise the frame counts as delivered to
 *       it and its sequence number (bytes 0..3) is checked against the next one expected (order);</li>
 *   <li>poll: generates the frames {@link #generate} asked for, round robin over the peers, each carrying
 *       its peer and a per-peer sequence number; reports peers up/down and asks for probes when told.</li>
 * </ul>
 */
class ScriptedLink implements Link {
    static final int FRAME = 24;

    private final int peers;
    private final boolean signals;
    private final ResourceCounter table;
    private final LinkCounters stats = new LinkCounters();
    private final byte[] rx = new byte[FRAME];

    final AtomicIntegerArray slow;
    final AtomicLongArray delivered;
    final AtomicIntegerArray expectedSeq;
    final AtomicLongArray outOfOrder;
    private final AtomicIntegerArray upRequest;   // 1 = report up, 2 = report down, 3 = probe
    private final AtomicIntegerArray genSeq;
    private volatile boolean upPending;
    private volatile long toGenerate;
    private volatile long generated;
    private int nextPeer;
    private volatile Thread driver;
    private volatile boolean closed;
    volatile long sendCalls;
    final AtomicIntegerArray tags = new AtomicIntegerArray(256);
    volatile int tagCount;
    private PeerListener listener;
    private LivenessProbe probe;
    volatile Readiness readiness;

    ScriptedLink(int peers, boolean signals) {
        this.peers = peers;
        this.signals = signals;
        this.table = new ResourceCounter("scripted peers", peers);
        this.slow = new AtomicIntegerArray(peers);
        this.delivered = new AtomicLongArray(peers);
        this.expectedSeq = new AtomicIntegerArray(peers);
        this.outOfOrder = new AtomicLongArray(peers);
        this.upRequest = new AtomicIntegerArray(peers);
        this.genSeq = new AtomicIntegerArray(peers);
    }

    static void writeSeq(byte[] b, int peer, int seq) {
        b[0] = (byte) seq;
        b[1] = (byte) (seq >>> 8);
        b[2] = (byte) (seq >>> 16);
        b[3] = (byte) (seq >>> 24);
        b[4] = (byte) peer;
        b[5] = (byte) (peer >>> 8);
    }

    static int seq(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8 | (b[off + 2] & 0xFF) << 16 | (b[off + 3] & 0xFF) << 24;
    }

    static int peerOf(byte[] b, int off) {
        return (b[off + 4] & 0xFF) | (b[off + 5] & 0xFF) << 8;
    }

    /** Asks the link to produce {@code frames} more inbound frames (round robin over the peers). */
    void generate(long frames) {
        toGenerate = toGenerate + frames;
        wakeIo();
    }

    long generated() {
        return generated;
    }

    void reportUp(int peer) {
        upRequest.set(peer, 1);
        upPending = true;
        wakeIo();
    }

    void reportDown(int peer) {
        upRequest.set(peer, 2);
        upPending = true;
        wakeIo();
    }

    void requestProbe(int peer) {
        upRequest.set(peer, 3);
        upPending = true;
        wakeIo();
    }

    /** A fresh session for a peer: the next frame it expects is sequence 0 again. */
    void restartSequence(int peer) {
        expectedSeq.set(peer, 0);
    }

    private void wakeIo() {
        Readiness r = readiness;
        if (r != null) {
            r.wake();
        }
    }

    Thread driver() {
        return driver;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public int id() {
        return 9;
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        driver = Thread.currentThread();
        sendCalls++;
        if (closed) {
            return WireError.TRANSPORT_DOWN;
        }
        if (slow.get(peer) != 0) {
            return WireError.FLOW_BACKPRESSURE;
        }
        if (len != FRAME) { // a frame of another shape (a FWD test frame): its last byte is logged, in order
            int t = tagCount;
            tags.set(t, buf[off + len - 1]);
            tagCount = t + 1;
            delivered.incrementAndGet(peer);
            return WireError.OK;
        }
        int s = seq(buf, off);
        if (s != expectedSeq.get(peer) || peerOf(buf, off) != peer || len != FRAME) {
            outOfOrder.incrementAndGet(peer);
        }
        expectedSeq.set(peer, s + 1);
        delivered.incrementAndGet(peer);
        stats.countOut(0);
        return WireError.OK;
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        return generate(handler, null, maxFrames);
    }

    /** The same link receiving straight into its driver's buffers ({@link io.spectrum.link.ReceivesInto}). */
    static final class Into extends ScriptedLink implements io.spectrum.link.ReceivesInto {
        Into(int peers, boolean signals) {
            super(peers, signals);
        }

        @Override
        public int pollInto(io.spectrum.link.FrameSink sink, int maxFrames) {
            return generate(null, sink, maxFrames);
        }
    }

    /** Reports the requested peer events and generates frames, to {@code handler} or into {@code sink}'s buffers. */
    final int generate(FrameHandler handler, io.spectrum.link.FrameSink sink, int maxFrames) {
        driver = Thread.currentThread();
        if (closed) {
            return 0;
        }
        int n = 0;
        if (upPending) {
            upPending = false;
            for (int p = 0; p < peers; p++) {
                int r = upRequest.getAndSet(p, 0);
                if (r == 1) {
                    listener.onPeerUp(this, p);
                } else if (r == 2) {
                    listener.onPeerDown(this, p);
                } else if (r == 3) {
                    probe.probe(this, p);
                }
                n += r != 0 ? 1 : 0;
            }
        }
        long want = toGenerate;
        while (n < maxFrames && generated < want) {
            int p = nextPeer;
            nextPeer = p + 1 == peers ? 0 : p + 1;
            int s = genSeq.get(p);
            genSeq.set(p, s + 1);
            byte[] dst = sink == null ? rx : sink.frameBuffer(FRAME);
            writeSeq(dst, p, s);
            generated++;
            stats.countIn(0);
            if (sink == null) {
                handler.onFrame(this, p, rx, 0, FRAME);
            } else {
                sink.onFrameIn(this, p, FRAME);
            }
            n++;
        }
        return n;
    }

    @Override
    public int maxFrame() {
        return 1024;
    }

    @Override
    public void setPeerListener(PeerListener l) {
        listener = l;
    }

    @Override
    public void setLivenessProbe(LivenessProbe p) {
        probe = p;
    }

    /** A link whose input comes from another thread: it wakes the I/O thread through the readiness it was given. */
    @Override
    public boolean setReadiness(Readiness r) {
        readiness = r;
        return signals;
    }

    /** The writer of this link's counters, for a test that stands in for what the link would count. */
    LinkCounters counters() {
        return stats;
    }

    @Override
    public LinkStats stats() {
        return stats;
    }

    @Override
    public BoundedResource peers() {
        return table;
    }

    @Override
    public void close() {
        closed = true;
    }
}
