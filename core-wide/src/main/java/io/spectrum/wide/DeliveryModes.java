package io.spectrum.wide;

import io.spectrum.node.fwd.FwdServer;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;
import java.util.Arrays;

/**
 * The delivery modes of a {@link WideNode}'s FWD edges (docs/extensions.md "Delivery modes"): an
 * edge whose record asks for {@code spectrum.mode} latest or bounded has a {@link ModeQueue}, and
 * this class sends through it: numbered deliveries while credits are free, the rest queued (latest:
 * one, replaced and counted), credits back by the consumed message, and the room check that refuses
 * a write a delivering bounded edge cannot take. All queues together are counted in
 * {@code wide.modeQueued}, whose refusals are the writes refused for a full bounded edge.
 */
final class DeliveryModes {
    /** One undelivered value: a copy (the vertex's array is reused by later writes) and its stamp. */
    static final class Queued {
        final Vertex written;
        final byte[] value;
        final long seq;
        final boolean stale;
        /** The value's origin time (ms since the Unix epoch, 0: none) as it was when queued. */
        final long origin;
        /** The stale value's reason as it was when queued (the vertex's array, never written into), or null. */
        final byte[] reason;
        final boolean deleted;

        Queued(Vertex written, byte[] value, long seq, boolean stale, long origin, byte[] reason, boolean deleted) {
            this.written = written;
            this.value = value;
            this.seq = seq;
            this.stale = stale;
            this.origin = origin;
            this.reason = reason;
            this.deleted = deleted;
        }
    }

    /**
     * Values waiting in delivery-mode edges' queues, all edges together (each edge's own ceiling is
     * its maxQueued); refusals = writes refused because a bounded edge had no room.
     */
    final ResourceCounter modeQueued = new ResourceCounter("wide.modeQueued", Integer.MAX_VALUE,
            "a bounded subscription's own queue (its spectrum.queue)");
    private final WideNode node;
    private final FwdServer server;
    /** The value a routed edge is sent, re-pointed per delivery. */
    private final io.spectrum.node.fwd.ValueRecord record = new io.spectrum.node.fwd.ValueRecord();
    private final WideFanout fanout;
    /** Open edges in bounded mode: a publish checks their room only when there are some. */
    private int boundedEdges;
    /** Open in-process edges whose listener is a {@link ValueRoom}: a publish asks them only when there are some. */
    int roomEdges;

    DeliveryModes(WideNode node, FwdServer server, WideFanout fanout) {
        this.node = node;
        this.server = server;
        this.fanout = fanout;
    }

    /**
     * True when a delivering bounded edge of v or of an ancestor (every edge a write of v reaches)
     * has no room for one more value, or when an in-process listener of v itself that is a
     * {@link ValueRoom} says it has none for a value of {@code valueLen} bytes ({@code valueLen} -1:
     * v is not the written vertex, or the write is a notice, so no listener is asked); counted in
     * {@link WideNode#modeRefused()}.
     */
    boolean boundedLacksRoom(Vertex v, int valueLen) {
        if (boundedEdges == 0 && roomEdges == 0 || v.listeners == 0) {
            return false;
        }
        for (Vertex a = v; a != null; a = a.parent) {
            if (a.ownSubs == 0) {
                continue;
            }
            for (int i = 0; i < a.edgeEnd; i++) {
                final Edge e = a.edges[i];
                if (e == null || !e.delivering()) {
                    continue;
                }
                if (e.mode != null && e.mode.full()
                        || a == v && valueLen >= 0 && e.listener instanceof ValueRoom r && !r.hasRoom(valueLen)) {
                    modeQueued.countRefused();
                    return true;
                }
            }
        }
        return false;
    }

    /** The deepest existing vertex on the way to key {@code b[off, +len)} (the root at worst). */

    /**
     * A value for a mode edge: sent at once when nothing waits and a credit is free, else queued
     * (latest replaces) behind what waits.
     */
    void offer(Edge e, Vertex v, byte[] vb, int vl, long seq, boolean stale, long origin, byte[] reason,
            boolean deleted) {
        final ModeQueue<Queued> m = e.mode;
        if (m.isEmpty() && m.canSend() && sendNumbered(e, m, v, vb, vl, seq, stale, origin, reason, deleted)) {
            return;
        }
        if (m.offer(new Queued(v, Arrays.copyOf(vb, vl), seq, stale, origin, reason, deleted)) == null) {
            modeQueued.taken();
        }
        drain(e); // values the holder's rate held back go first, as far as credits and the rate allow
    }

    /** Sends queued values while credits allow. */
    void drain(Edge e) {
        final ModeQueue<Queued> m = e.mode;
        while (m != null && e.mode == m && e.delivering() && m.ready()) {
            final Queued q = m.poll(); // off the queue first: a one_shot send reaps the edge
            modeQueued.returned();
            if (!sendNumbered(e, m, q.written, q.value, q.value.length, q.seq, q.stale, q.origin, q.reason, q.deleted)) {
                m.putBack(q); // over the holder's outbound rate: it stays first, sent by the tick when the share refills
                modeQueued.taken();
                fanout.markDirty(e);
                return;
            }
        }
    }

    /** One numbered delivery (dlv = delivered + 1, with the replaced count); false when the holder's rate refused it. */
    private boolean sendNumbered(Edge e, ModeQueue<Queued> m, Vertex written, byte[] vb, int vl, long seq, boolean stale,
            long origin, byte[] reason, boolean deleted) {
        final WidePeer h = e.holder;
        record.value(vb, 0, vl).key(written.key, 0, written.key.length).stamp(seq, stale, deleted, origin)
                .reason(reason, 0, reason == null ? 0 : reason.length).numbered(m.nextDelivery(), m.replaced());
        if (!server.deliver(e.word | e.flags, h.link, h.peer, e.rec, e.recLen, e.routeLen, record)) {
            return false;
        }
        m.sent();
        if ((e.word & DeliveryPolicy.ONE_SHOT) != 0 && e.open) {
            node.remove(e);
        }
        return true;
    }

    /** Gives a just-admitted FWD edge its mode (a packed {@link io.spectrum.wire.DeliveryMode}). */
    void setMode(Edge e, long packed) {
        dropMode(e);
        e.mode = ModeQueue.of(packed);
        if (e.mode.bounded()) {
            boundedEdges++;
        }
    }

    /** An edge's mode goes with it (reaped, replaced): its queue is dropped. */
    void dropMode(Edge e) {
        if (e.mode != null) {
            if (e.mode.bounded()) {
                boundedEdges--;
            }
            dropQueued(e.mode);
            e.mode = null;
        }
    }

    /**
     * The consumed message (cumulative, idempotent): credits up to {@code upTo} come back and queued
     * values go out. Quantity: the edge's last delivery number after that, or -PATH_INVALID.
     */
    long consume(Edge e, long upTo) {
        final ModeQueue<Queued> m = e.mode;
        if (m == null) {
            return -WireError.SCHEMA_TYPE_MISMATCH;
        }
        if (!m.consumeUpTo(upTo)) {
            return -WireError.PATH_INVALID; // never delivered: nothing changes
        }
        drain(e); // may reap a one_shot edge: m still holds its numbers
        return m.delivered();
    }

    /** A suspended edge holds nothing: its queue is dropped (counted) and nothing is replayed on resume. */
    void suspend(Edge e) {
        if (e.mode != null) {
            dropQueued(e.mode);
            e.mode.clear();
        }
    }

    /** What m holds leaves the queued count and is counted dropped: queued values that will never be sent. */
    private void dropQueued(ModeQueue<Queued> m) {
        modeQueued.returned(m.size());
        modeQueued.countDropped(m.size());
    }
}
