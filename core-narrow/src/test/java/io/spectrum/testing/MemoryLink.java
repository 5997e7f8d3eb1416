package io.spectrum.testing;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkCounters;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.WireError;

import java.util.AbstractList;
import java.util.List;
import java.util.function.Function;

/**
 * The one in-memory {@link Link} for tests (every module's tests reach it through core-narrow's
 * test-jar). An end is either one of a {@link #pair} (what one end sends to peer 0 the other polls
 * from peer 0, a copy as a socket would make) or a lone end ({@link #MemoryLink(int)}) whose
 * input the test {@link #inject}s from any peer handle (a forged source address is the victim's
 * handle: on UDP a peer's identity is its source ip:port).
 *
 * <p>Faults and observation, all off until asked for:
 * <ul>
 *   <li>capture: every frame the end sent ({@link #sentCount}, {@link #sentAt}, {@link #sentPeer},
 *       {@link #lastSent}, {@link #sent}), kept in every frame by a pair end, in a ring of
 *       {@value #RING} by a lone end (a long run reuses it), or not at all ({@link #record});</li>
 *   <li>refusals: every send answers a code ({@link #failSends}), sends to one peer answer a code and
 *       are counted ({@link #refuse}, {@link #refusals}), a peer whose channel is gone without a report
 *       ({@link #gone}: TRANSPORT_DOWN, {@link #isPeerGone}), a closed end (TRANSPORT_DOWN), a full
 *       end ({@link #capacity}: FLOW_BACKPRESSURE, counted in {@code sendRefused});</li>
 *   <li>the path: what crosses to the other end in place of each frame ({@link #transmit}: drop,
 *       duplicate, alter), a scripted peer answering every frame sent ({@link #respond}), work run
 *       before each poll ({@link #beforePoll}: a peer driven from the poller's thread);</li>
 *   <li>peers: {@link #peerUp} / {@link #peerDown} marked at once and told to the listener on the
 *       next poll with a listener registered (on the polling thread, as a transport does); {@link #listener()} for a test that
 *       tells the node itself.</li>
 * </ul>
 *
 * <p>Allocation-free in steady state (the NARROW allocation tests and the Epsilon run drive it): frames
 * are copied into slot buffers reused in a ring, grown only for a larger frame or a deeper queue;
 * {@link #sent}, {@link #transmit} and {@link #respond} copy. Every method may be called from any
 * thread (a QueuedLink's I/O thread polls while the test injects): state is guarded by the end's
 * monitor, never held while the handler or the listener runs. The link counts nothing in its
 * {@link LinkStats} but {@code sendRefused} for a full end: the rest is the node's and the test's.
 */
public final class MemoryLink implements Link {
    /** Frames a lone end keeps in its capture ring; a pair end keeps every frame. */
    public static final int RING = 256;
    private static final int FIRST_SLOT = 4096;

    private final int id;
    private final int maxFrame;
    private final LinkCounters stats = new LinkCounters();
    private MemoryLink other;
    private volatile boolean closed;
    private PeerListener listener;

    // inbound: a ring of copied frames; the head slot stays reserved until its handler returns
    private byte[][] inBuf = new byte[64][];
    private int[] inLen = new int[64];
    private int[] inPeer = new int[64];
    private int inHead;
    private int inCount;
    private int capacity = Integer.MAX_VALUE;

    // capture: frames sent, in order; a ring of captureLimit slots
    private byte[][] outBuf = new byte[64][];
    private int[] outLen = new int[64];
    private int[] outPeer = new int[64];
    private int outCount;
    private final int captureLimit;
    private boolean record = true;
    private long sendCalls;

    // faults and peers, by handle
    private int failAll = WireError.OK;
    private int[] refusal = new int[0];
    private long refusals;
    private boolean[] goneSet = new boolean[0];
    private boolean[] upSet = new boolean[0];
    private int[] events = new int[16];
    private int eventCount;
    private Function<byte[], List<byte[]>> transmit;
    private Function<byte[], List<byte[]>> responder;
    private Runnable beforePoll;
    private boolean liveness = true;

    /** A lone end carrying frames of up to 4096 bytes; its capture is a ring of {@value #RING}. */
    public MemoryLink(int id) {
        this(id, 4096);
    }

    /** A lone end carrying frames of at most {@code maxFrame} bytes (a serial line set to a small frame). */
    public MemoryLink(int id, int maxFrame) {
        this(id, maxFrame, RING);
    }

    private MemoryLink(int id, int maxFrame, int captureLimit) {
        this.id = id;
        this.maxFrame = maxFrame;
        this.captureLimit = captureLimit;
    }

    /** Two connected ends (ids 1 and 2), 64 KiB frames. */
    public static MemoryLink[] pair() {
        return pair(1, 2, 64 * 1024);
    }

    /** Two connected ends with ids {@code idA} and {@code idB}, carrying frames of at most {@code maxFrame}. */
    public static MemoryLink[] pair(int idA, int idB, int maxFrame) {
        MemoryLink a = new MemoryLink(idA, maxFrame, Integer.MAX_VALUE);
        MemoryLink b = new MemoryLink(idB, maxFrame, Integer.MAX_VALUE);
        a.other = b;
        b.other = a;
        return new MemoryLink[] {a, b};
    }

    // ---- input

    /** Queues a frame as if peer 0 had sent it. */
    public void inject(byte[] frame) {
        inject(0, frame, 0, frame.length);
    }

    /** Queues a frame as if {@code peer} had sent it to this end. */
    public void inject(int peer, byte[] frame) {
        inject(peer, frame, 0, frame.length);
    }

    /** Queues {@code len} bytes of {@code b} as a frame from {@code peer} (copied; no allocation in steady state). */
    public synchronized void inject(int peer, byte[] b, int off, int len) {
        if (inCount == inBuf.length) {
            growInbox();
        }
        int i = (inHead + inCount) % inBuf.length;
        byte[] slot = inBuf[i];
        if (slot == null || slot.length < len) {
            slot = new byte[Math.max(len, Math.min(maxFrame, FIRST_SLOT))];
            inBuf[i] = slot;
        }
        System.arraycopy(b, off, slot, 0, len);
        inLen[i] = len;
        inPeer[i] = peer;
        inCount++;
    }

    private void growInbox() {
        int n = inBuf.length;
        byte[][] buf = new byte[n * 2][];
        int[] len = new int[n * 2];
        int[] peer = new int[n * 2];
        for (int k = 0; k < n; k++) {
            int j = (inHead + k) % n;
            buf[k] = inBuf[j];
            len[k] = inLen[j];
            peer[k] = inPeer[j];
        }
        inBuf = buf;
        inLen = len;
        inPeer = peer;
        inHead = 0;
    }

    /** Frames waiting to be polled. */
    public synchronized int pending() {
        return inCount;
    }

    /**
     * At most {@code frames} wait at this end: a send from the other end past it answers
     * FLOW_BACKPRESSURE and counts {@code sendRefused} there (nothing is dropped silently). Frames a
     * {@link #transmit} hook returns, and frames {@link #inject}ed, are queued whatever the count.
     */
    public synchronized MemoryLink capacity(int frames) {
        capacity = frames;
        return this;
    }

    // ---- faults

    /** Every send answers {@code code} (OK again: sends go through); a refused frame is not captured. */
    public synchronized MemoryLink failSends(int code) {
        failAll = code;
        return this;
    }

    /** Sends to {@code peer} answer {@code code} (FLOW_BACKPRESSURE: a peer that never drains), counted in {@link #refusals}. */
    public synchronized MemoryLink refuse(int peer, int code) {
        if (peer >= refusal.length) {
            refusal = java.util.Arrays.copyOf(refusal, peer + 1);
        }
        refusal[peer] = code;
        return this;
    }

    /** Sends refused by {@link #refuse}. */
    public synchronized long refusals() {
        return refusals;
    }

    /** {@code peer}'s channel is gone without the link telling anyone: sends answer TRANSPORT_DOWN, {@link #isPeerGone} true. */
    public synchronized MemoryLink gone(int peer) {
        goneSet = mark(goneSet, peer, true);
        return this;
    }

    /** Each frame sent to peer 0 reaches the other end as the frames {@code fn} returns for it (none: lost). */
    public synchronized MemoryLink transmit(Function<byte[], List<byte[]>> fn) {
        transmit = fn;
        return this;
    }

    /** A scripted peer: each frame sent is answered with the frames {@code fn} returns, polled here from peer 0. */
    public synchronized MemoryLink respond(Function<byte[], List<byte[]>> fn) {
        responder = fn;
        return this;
    }

    /** Runs {@code work} at the start of every poll, on the polling thread (a peer driven by its reader). */
    public synchronized MemoryLink beforePoll(Runnable work) {
        beforePoll = work;
        return this;
    }

    // ---- peers

    /** Marks {@code peer} up now; the listener is told on the next poll. */
    public synchronized void peerUp(int peer) {
        upSet = mark(upSet, peer, true);
        event(peer + 1);
    }

    /** Marks {@code peer} down now; the listener is told on the next poll. */
    public synchronized void peerDown(int peer) {
        upSet = mark(upSet, peer, false);
        event(-(peer + 1));
    }

    private void event(int e) {
        if (eventCount == events.length) {
            events = java.util.Arrays.copyOf(events, eventCount * 2);
        }
        events[eventCount++] = e;
    }

    private static boolean[] mark(boolean[] set, int peer, boolean on) {
        boolean[] s = peer < set.length ? set : java.util.Arrays.copyOf(set, peer + 1);
        s[peer] = on;
        return s;
    }

    private static boolean in(boolean[] set, int peer) {
        return peer >= 0 && peer < set.length && set[peer];
    }

    /**
     * Off: the end answers {@link #isPeerUp} false for every peer, as a link that tracks no liveness does
     * (the {@link Link} default), so nothing above it probes the peer.
     */
    public synchronized MemoryLink tracksLiveness(boolean on) {
        liveness = on;
        return this;
    }

    /** The listener the node registered (null before it attached). */
    public synchronized PeerListener listener() {
        return listener;
    }

    // ---- capture

    /** Whether sent frames are captured (on by default); off, a long run costs nothing. */
    public synchronized MemoryLink record(boolean on) {
        record = on;
        return this;
    }

    /** Frames captured since the start or {@link #clearSent} (counting frames a lone end's ring let go). */
    public synchronized int sentCount() {
        return outCount;
    }

    /** Calls to send, refused ones included. */
    public synchronized long sendCalls() {
        return sendCalls;
    }

    /** A copy of the {@code k}-th frame captured. */
    public synchronized byte[] sentAt(int k) {
        int i = k % outBuf.length;
        return java.util.Arrays.copyOf(outBuf[i], outLen[i]);
    }

    /** The peer the {@code k}-th captured frame was sent to. */
    public synchronized int sentPeer(int k) {
        return outPeer[k % outBuf.length];
    }

    /** Captured frames sent to {@code peer}. */
    public synchronized int sentTo(int peer) {
        int n = 0;
        for (int k = Math.max(0, outCount - outBuf.length); k < outCount; k++) {
            n += outPeer[k % outBuf.length] == peer ? 1 : 0;
        }
        return n;
    }

    /** A copy of the last frame captured, or null. */
    public synchronized byte[] lastSent() {
        return outCount == 0 ? null : sentAt(outCount - 1);
    }

    /** Forgets the captured frames. */
    public synchronized void clearSent() {
        outCount = 0;
    }

    /** Every captured frame, in order: a live view, each element a copy. */
    public List<byte[]> sent() {
        return new AbstractList<>() {
            @Override
            public byte[] get(int k) {
                if (k < 0 || k >= size()) {
                    throw new IndexOutOfBoundsException(k);
                }
                return sentAt(k);
            }

            @Override
            public int size() {
                return sentCount();
            }
        };
    }

    private void capture(int peer, byte[] buf, int off, int len) {
        if (outCount == outBuf.length && outBuf.length < captureLimit) {
            int n = Math.min(captureLimit, outBuf.length * 2);
            outBuf = java.util.Arrays.copyOf(outBuf, n);
            outLen = java.util.Arrays.copyOf(outLen, n);
            outPeer = java.util.Arrays.copyOf(outPeer, n);
        }
        int i = outCount % outBuf.length;
        byte[] slot = outBuf[i];
        if (slot == null || slot.length < len) {
            slot = new byte[Math.max(len, Math.min(maxFrame, FIRST_SLOT))];
            outBuf[i] = slot;
        }
        System.arraycopy(buf, off, slot, 0, len);
        outLen[i] = len;
        outPeer[i] = peer;
        outCount++;
    }

    // ---- the Link

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return "memory " + id;
    }

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        Function<byte[], List<byte[]>> across;
        Function<byte[], List<byte[]>> answer;
        synchronized (this) {
            sendCalls++;
            if (closed || other != null && other.closed) {
                return WireError.TRANSPORT_DOWN;
            }
            if (failAll != WireError.OK) {
                return failAll;
            }
            if (in(goneSet, peer)) {
                return WireError.TRANSPORT_DOWN;
            }
            int r = peer >= 0 && peer < refusal.length ? refusal[peer] : WireError.OK;
            if (r != WireError.OK) {
                refusals++;
                return r;
            }
            if (peer == 0 && other != null && transmit == null && !other.offer(buf, off, len)) {
                stats.countSendRefused();
                return WireError.FLOW_BACKPRESSURE;
            }
            if (record) {
                capture(peer, buf, off, len);
            }
            across = peer == 0 && other != null ? transmit : null;
            answer = responder;
        }
        if (across != null || answer != null) {
            byte[] f = java.util.Arrays.copyOfRange(buf, off, off + len);
            if (across != null) {
                for (byte[] g : across.apply(f)) {
                    other.inject(0, g);
                }
            }
            if (answer != null) {
                for (byte[] g : answer.apply(f)) {
                    inject(0, g);
                }
            }
        }
        return WireError.OK;
    }

    /** Takes a frame from the other end unless {@link #capacity} frames wait already. */
    private synchronized boolean offer(byte[] buf, int off, int len) {
        if (inCount >= capacity) {
            return false;
        }
        inject(0, buf, off, len);
        return true;
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        Runnable work;
        synchronized (this) {
            work = beforePoll;
        }
        if (work != null) {
            work.run();
        }
        int n = tellPeers();
        while (n < maxFrames) {
            byte[] f;
            int len;
            int peer;
            synchronized (this) {
                if (inCount == 0) {
                    break;
                }
                f = inBuf[inHead];
                len = inLen[inHead];
                peer = inPeer[inHead];
            }
            handler.onFrame(this, peer, f, 0, len);
            synchronized (this) {
                inHead = (inHead + 1) % inBuf.length;
                inCount--;
            }
            n++;
        }
        return n;
    }

    /** Tells the listener the peer events marked since the last poll, in order; the count told. */
    private int tellPeers() {
        int told = 0;
        while (true) {
            int e;
            PeerListener l;
            synchronized (this) {
                if (told == eventCount || listener == null) { // no listener yet: kept for the first poll with one
                    System.arraycopy(events, told, events, 0, eventCount - told);
                    eventCount -= told;
                    return told;
                }
                e = events[told];
                l = listener;
            }
            told++;
            if (e > 0) {
                l.onPeerUp(this, e - 1);
            } else {
                l.onPeerDown(this, -e - 1);
            }
        }
    }

    /**
     * Peer 0 of a pair while this end is open, and a peer marked up ({@link #peerUp}) until its channel is
     * gone; never, once {@link #tracksLiveness tracksLiveness(false)}.
     */
    @Override
    public synchronized boolean isPeerUp(int peer) {
        return liveness && !closed && !in(goneSet, peer) && (peer == 0 && other != null || in(upSet, peer));
    }

    @Override
    public synchronized boolean isPeerGone(int peer) {
        return in(goneSet, peer);
    }

    @Override
    public int maxFrame() {
        return maxFrame;
    }

    @Override
    public synchronized void setPeerListener(PeerListener l) {
        listener = l;
    }

    /** The writer of this link's counters, for a test that stands in for traffic the link would count. */
    public LinkCounters counters() {
        return stats;
    }

    @Override
    public LinkStats stats() {
        return stats;
    }

    /** Closes this end: its sends, and the other end's, answer TRANSPORT_DOWN (frames already queued still poll). */
    @Override
    public void close() {
        closed = true;
    }
}
