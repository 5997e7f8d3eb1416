package io.spectrum.wide;

import io.spectrum.node.fwd.FwdServer;
import io.spectrum.node.fwd.FwdStore;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.Names;
import io.spectrum.wire.WireError;
import java.util.ArrayList;

/**
 * The fan-out of a {@link WideNode}: a publish of a vertex delivered to the delivering edges of the
 * vertex and of every ancestor (subtree bubbling), topic notices (stale marks, purges) to the edges
 * that take them, the durability latch of a newly admitted edge, and the one delivery to one edge by
 * its kind (routed through the shared FWD side, a local target's copy, an in-process callback, or a
 * mode edge's {@link DeliveryModes}). A routed delivery the holder's share drops leaves its edge
 * dirty; {@link #resendDirty()} sends such an edge the current state once its share refills.
 */
final class WideFanout {
    /** {@link Names#EMPTY_STATUS}, the value a delete notice carries, as the array propagate takes. */
    static final byte[] EMPTY_STATUS = Names.EMPTY_STATUS.copy();
    /** The delivery modes of the mode edges (their queues and credits). */
    final DeliveryModes modes;
    private final WideNode node;
    private final FwdServer server;
    /** The value a routed edge is sent, re-pointed per delivery. */
    private final io.spectrum.node.fwd.ValueRecord record = new io.spectrum.node.fwd.ValueRecord();
    private final ValueView view = new ValueView();
    /** Edges a dropped delivery left dirty ({@link Edge#dirty}), each once; the tick resends to them. */
    private final ArrayList<Edge> dirtyEdges = new ArrayList<>();

    WideFanout(WideNode node, FwdServer server) {
        this.node = node;
        this.server = server;
        modes = new DeliveryModes(node, server, this);
    }

    /** Delivers to the delivering edges of v and of every ancestor (subtree bubbling). */
    void propagate(Vertex v, byte[] vb, int vl, boolean deleted) {
        propagate(v, vb, vl, deleted, false);
    }

    /**
     * The topic notice of v to the edges that take one ({@link FwdStore#takesTopicNotice}, the rule
     * NarrowNode asks too): its retained value stamped stale with its current sequence (a stale mark
     * is not a publish), or, {@code deleted}, the delete notice of a purge (the empty STATUS, stamp
     * op 1; the purge has already spent its fresh number).
     */
    void topicNotice(Vertex v, boolean deleted) {
        if (deleted) {
            propagate(v, EMPTY_STATUS, EMPTY_STATUS.length, true, true);
        } else if (v.hasValue()) {
            propagate(v, v.value, v.valLen, false, true);
        } else if (v.stale) { // declared, no value yet, marked: the empty STATUS stamped stale (op 0)
            propagate(v, EMPTY_STATUS, EMPTY_STATUS.length, false, true);
        }
    }

    private void propagate(Vertex v, byte[] vb, int vl, boolean deleted, boolean noticeOnly) {
        propagate(v, vb, vl, v.seq, v.stale, deleted ? 0 : v.origin, deleted, noticeOnly);
    }

    /** Delivers {@code vb} as publish {@code seq} of v ({@code stale}, {@code origin}) to its and its ancestors' edges. */
    void propagate(Vertex v, byte[] vb, int vl, long seq, boolean stale, long origin, boolean deleted,
            boolean noticeOnly) {
        if (v.listeners == 0) {
            return; // unobserved: one load
        }
        for (Vertex a = v; a != null; a = a.parent) {
            if (a.ownSubs == 0) {
                continue;
            }
            final Edge[] es = a.edges;
            final int end = Math.min(a.edgeEnd, es.length);
            for (int i = 0; i < end; i++) {
                final Edge e = es[i];
                if (e != null && e.delivering() && (!noticeOnly || FwdStore.takesTopicNotice(e.word | e.flags))) {
                    deliver(e, v, vb, vl, seq, stale, origin, deleted);
                }
            }
        }
    }

    /**
     * The durability latch of a newly admitted edge that asked: its vertex's retained value, and, for
     * an edge that asked for the path in its stamp ({@link FwdStore#STAMP_PATH}), every retained value
     * of the subtree after it, each as its own delivery naming the child, in tree order
     * (docs/extensions.md, "Subtree replay"; the rule NarrowNode's latch follows too). A vertex without
     * a value is skipped, a {@code $} subtree too; the walk stops when the edge goes (a one_shot) or
     * the holder's delivery share refuses (a mode edge queues as it does for any value).
     */
    void latch(Edge e, Vertex v) {
        if ((e.word & DeliveryPolicy.DURABILITY_REQUEST) == 0) {
            return;
        }
        if ((e.flags & FwdStore.STAMP_PATH) == 0) {
            if (v.hasValue()) {
                deliver(e, v, v.value, v.valLen, v.valueSeq, v.stale, false); // the retained value with its own number
            } else if (v.stale && FwdStore.takesTopicNotice(e.word | e.flags)) { // no value yet, and why
                deliver(e, v, EMPTY_STATUS, EMPTY_STATUS.length, v.seq, true, false);
            }
            return;
        }
        deliverSubtree(e, v, true);
    }

    /**
     * Delivers to e the value of v, then each value below it in tree order; a vertex without a value
     * is skipped, and so is a {@code $} subtree when {@code skipReserved}. Stops when the edge goes or
     * stops delivering (true), or at a delivery that was dropped (false; the rest is not sent now).
     * The one subtree walk of the durability latch and of the dirty-edge resend.
     */
    private boolean deliverSubtree(Edge e, Vertex v, boolean skipReserved) {
        Vertex c = v;
        while (true) {
            final boolean enter = c == v || !skipReserved || !c.reserved;
            if (enter) {
                if (c.hasValue() ? !deliver(e, c, c.value, c.valLen, c.valueSeq, c.stale, false)
                        : c.stale && FwdStore.takesTopicNotice(e.word | e.flags)
                                && !deliver(e, c, EMPTY_STATUS, EMPTY_STATUS.length, c.seq, true, false)) {
                    return false; // (no value yet, marked: its stale notice, as the mark sent it)
                }
                if (!e.open || !e.delivering()) {
                    return true;
                }
                if (c.childCount > 0) {
                    c = c.children[0];
                    continue;
                }
            }
            while (c != v && c.childIndex + 1 >= c.parent.childCount) {
                c = c.parent;
            }
            if (c == v) {
                return true;
            }
            c = c.parent.children[c.childIndex + 1];
        }
    }

    /** Delivers to edge e; false when a routed delivery was over the holder's share (dropped, counted). */
    boolean deliver(Edge e, Vertex v, byte[] vb, int vl, long seq, boolean stale, boolean deleted) {
        return deliver(e, v, vb, vl, seq, stale, deleted ? 0 : v.origin, deleted);
    }

    /** {@link #deliver(Edge, Vertex, byte[], int, long, boolean, boolean)} with the value's {@code origin}. */
    boolean deliver(Edge e, Vertex v, byte[] vb, int vl, long seq, boolean stale, long origin, boolean deleted) {
        final byte[] reason = stale ? v.staleReason : null;
        if (e.mode != null) {
            modes.offer(e, v, vb, vl, seq, stale, origin, reason, deleted);
            return true;
        }
        if ((e.flags & FwdStore.KIND_ROUTED) != 0) {
            final WidePeer h = e.holder;
            record.value(vb, 0, vl).key(v.key, 0, v.key.length).stamp(seq, stale, deleted, origin)
                    .reason(reason, 0, reason == null ? 0 : reason.length);
            if (!server.deliver(e.word | e.flags, h.link, h.peer, e.rec, e.recLen, e.routeLen, record)) {
                markDirty(e); // dropped and counted (a one_shot edge stays): the current value follows
                return false;
            }
            if (v == e.vertex && v.childCount == 0) {
                e.dirty = false; // its own (childless) vertex's latest value got through
            }
        } else if ((e.flags & FwdStore.KIND_LOCAL) != 0) {
            if (e.target != null && e.target != v && !deleted && node.store(e.target, vb, 0, vl) == WireError.OK) {
                e.target.origin = origin; // delivery ends at the target: no re-fan-out
            }
        } else {
            e.listener.onValue(e, view.wrap(vb, vl, v.key, deleted), seq, stale);
        }
        if ((e.word & DeliveryPolicy.ONE_SHOT) != 0 && e.open) {
            node.remove(e); // a one_shot edge goes after its first delivery
        }
        return true;
    }

    /** Puts e on the dirty list once (a delivery to it was dropped). */
    void markDirty(Edge e) {
        if (!e.dirty) {
            e.dirty = true;
            dirtyEdges.add(e);
        }
    }

    /**
     * Latest-value coalescing for the dirty edges (docs/node.md, "Dirty edges"), NarrowNode's rule
     * (Fanout#resendDirty): an edge whose holder's share has a delivery again is sent the current
     * value of its vertex once, with the current sequence and stale mark, never the dropped backlog;
     * for an edge on a vertex with children each vertex of the subtree that holds a value; for a
     * childless vertex that holds none, the delete notice. A mode edge sends what its queue holds
     * (its credits permitting). Dropped again: it stays dirty. A closed or suspended edge is owed nothing.
     */
    void resendDirty() {
        for (int i = dirtyEdges.size() - 1; i >= 0; i--) {
            final Edge e = dirtyEdges.get(i);
            final boolean owed = e.dirty && e.delivering() && (e.flags & FwdStore.KIND_ROUTED) != 0;
            if (owed && !server.canDeliver(e.holder.link, e.holder.peer)) {
                continue; // not yet: the share has not refilled
            }
            final int last = dirtyEdges.size() - 1;
            dirtyEdges.set(i, dirtyEdges.get(last)); // off the list (an entry past i, already visited, takes its place)
            dirtyEdges.remove(last);
            e.dirty = false;
            if (owed) { // a send dropped again marks it dirty again: back on the list, for the next tick
                if (e.mode != null) {
                    modes.drain(e);
                } else {
                    resendTree(e, e.vertex);
                }
            }
        }
    }

    /** Resends e the current state of v and of v's subtree; a dropped send marks it dirty again (and stops). */
    private void resendTree(Edge e, Vertex v) {
        if (v.childCount == 0 && !v.hasValue() && !v.stale) { // cleared since: the delete notice
            deliver(e, v, EMPTY_STATUS, EMPTY_STATUS.length, v.seq, false, true);
            return;
        }
        deliverSubtree(e, v, false);
    }
}
