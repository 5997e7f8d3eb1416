package io.spectrum.node.topic;

import io.spectrum.node.fwd.AwaitTable;
import io.spectrum.node.fwd.Deliveries;
import io.spectrum.node.fwd.FwdServer;
import io.spectrum.node.fwd.FwdStore;
import io.spectrum.node.fwd.PeerShares;
import io.spectrum.node.pool.BlockPool;
import io.spectrum.node.table.SlotTable;
import io.spectrum.node.table.VertexTable;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;

/**
 * A write's way out: assign ({@link TopicState}), answer the awaits, then deliver to the
 * delivering edges of the vertex and of every ancestor: in-process callbacks, routed delivery
 * frames (with the topic stamp when the edge asked), local target copies; one_shot edges go after
 * their first delivery. Also the durability latch for a newly admitted edge, and the stale / purge
 * notices ({@link #topicNotice}).
 */
public final class Fanout {
    /** The empty STATUS (OK; a clear's and a purge's value), copied once from its owner {@link io.spectrum.wire.Names}, never written. */
    private static final byte[] EMPTY_STATUS = io.spectrum.wire.Names.EMPTY_STATUS.copy();

    private final VertexTable vt;
    private final SlotTable st;
    private final BlockPool values;
    private final BlockPool records;
    private final Deliveries deliveries;
    private final TopicState topic;
    private final AwaitTable awaits;
    private final SubscriberSlots slots;
    private final PeerShares shares;
    private final ValueView view = new ValueView();
    /** The value a routed slot is sent, re-pointed per delivery. */
    private final io.spectrum.node.fwd.ValueRecord record = new io.spectrum.node.fwd.ValueRecord();
    private final Publisher owner = new Publisher().set(FwdServer.OWNER, 0, null, 0, 0);

    /** Fanout over the node's tables and pools, delivering through the shared FWD side's parts. */
    public Fanout(VertexTable vt, SlotTable st, BlockPool values, BlockPool records, Deliveries deliveries, TopicState topic,
            AwaitTable awaits, SubscriberSlots slots, PeerShares shares) {
        this.vt = vt;
        this.st = st;
        this.values = values;
        this.records = records;
        this.deliveries = deliveries;
        this.topic = topic;
        this.awaits = awaits;
        this.slots = slots;
        this.shares = shares;
    }

    /** The local host's write: {@link #publish} with the owner as publisher. */
    public int publishOwned(int v, byte[] b, int off, int len) {
        return publish(v, b, off, len, owner, true);
    }

    /** The local host's write, retained or not. */
    public int publishOwned(int v, byte[] b, int off, int len, boolean retain) {
        return publish(v, b, off, len, owner, retain);
    }

    /** {@link #publish(int, byte[], int, int, Publisher, boolean)}, retained. */
    public int publish(int v, byte[] b, int off, int len, Publisher pub) {
        return publish(v, b, off, len, pub, true);
    }

    /**
     * Write = assign + propagate, with the topic bookkeeping, of the value TLV {@code b[off, off+len)}
     * (trailer-less) from {@code pub}.
     *
     * @return OK or the assign's refusal code (FLOW_BACKPRESSURE)
     */
    public int publish(int v, byte[] b, int off, int len, Publisher pub, boolean retain) {
        if (!retain) { // docs/node.md "Retain: false": numbered and delivered from the caller's bytes, not kept
            int r = topic.assignUnretained(v, b, off, len, pub);
            if (r != WireError.OK) {
                return r;
            }
            awaits.answerValue(v, b, off, len);
            propagate(v, b, off, len, vt.seq(v), false, topic.origin(pub.upstream()), false, false);
            return WireError.OK;
        }
        int r = topic.assign(v, b, off, len, pub);
        if (r != WireError.OK) {
            return r;
        }
        awaits.answerValue(v, values.memory(), vt.valOff(v), vt.valLen(v));
        propagate(v, values.memory(), vt.valOff(v), vt.valLen(v), false);
        return WireError.OK;
    }

    /**
     * Delivers the clear of v (the empty STATUS, stamp op 1) to the delivering edges of v and of every
     * ancestor: a notifying clear.
     */
    public void propagateCleared(int v) {
        propagate(v, EMPTY_STATUS, 0, EMPTY_STATUS.length, true);
    }

    /** Delivers to the delivering edges of v and of every ancestor (subtree bubbling). */
    public void propagate(int v, byte[] vb, int vo, int vl, boolean deleted) {
        propagate(v, vb, vo, vl, deleted, false);
    }

    /**
     * The topic notice of v to the edges that take one ({@link FwdStore#takesTopicNotice}): its
     * retained value stamped stale with its current sequence (a stale mark is not a publish), or,
     * {@code deleted}, the delete notice of a purge (the empty STATUS, stamp op 1; the purge has
     * already spent its fresh number). Nothing when a stale v holds no value.
     */
    public void topicNotice(int v, boolean deleted) {
        if (deleted) {
            propagate(v, EMPTY_STATUS, 0, EMPTY_STATUS.length, true, true);
        } else if (vt.valLen(v) >= 0) {
            propagate(v, values.memory(), vt.valOff(v), vt.valLen(v), false, true);
        } else if (vt.isStale(v)) { // declared, no value yet, marked: the empty STATUS stamped stale (op 0)
            propagate(v, EMPTY_STATUS, 0, EMPTY_STATUS.length, false, true);
        }
    }

    private void propagate(int v, byte[] vb, int vo, int vl, boolean deleted, boolean noticeOnly) {
        propagate(v, vb, vo, vl, vt.seq(v), vt.isStale(v), deleted ? 0 : vt.origin(v), deleted, noticeOnly);
    }

    /** Delivers {@code vb[vo, +vl)} as publish {@code seq} of v ({@code stale}, {@code origin}). */
    private void propagate(int v, byte[] vb, int vo, int vl, long seq, boolean stale, long origin, boolean deleted,
            boolean noticeOnly) {
        if (vt.listeners(v) == 0) {
            return; // unobserved: one load
        }
        final int keyOff = vt.keyOffset(v);
        final int keyLen = vt.keyLen(v);
        for (int a = v; a != VertexTable.NONE; a = vt.parent(a)) {
            if (vt.ownSubs(a) == 0) {
                continue;
            }
            int s = vt.firstSlot(a);
            while (s != SlotTable.NONE) {
                final int nx = st.next(s);
                final int wd = st.word(s);
                if ((wd & DeliveryPolicy.SUSPENDED) == 0 && (!noticeOnly || FwdStore.takesTopicNotice(wd))) {
                    if ((wd & (SlotTable.KIND_CALLBACK | DeliveryPolicy.ONE_SHOT)) == SlotTable.KIND_CALLBACK) {
                        // the in-process fast path: re-point the view, call the listener
                        final LocalSubscription sub = (LocalSubscription) st.handle(s);
                        view.wrap(vb, vo, vl, vt.keys(), keyOff, keyLen, deleted);
                        sub.listener.onValue(sub, view, seq, stale);
                    } else {
                        deliver(s, v, vb, vo, vl, seq, stale, origin, deleted);
                    }
                }
                s = nx;
            }
        }
    }

    /**
     * The durability latch: one delivery of the vertex's value to a newly admitted edge that asked.
     * An edge that also asked for the path in its stamp ({@link SlotTable#STAMP_PATH}) gets every
     * retained value of the subtree, its own first, then each descendant's in tree order as its own
     * delivery naming the child (docs/extensions.md, "Subtree replay"): what it sees first does not
     * depend on who else listens. A vertex without a value is skipped (nothing is invented), a
     * {@code $} subtree is skipped. Bounded by the vertex table and by the holder's delivery share:
     * the walk stops at the first delivery the share refuses (dropped and counted like any other).
     * Allocation-free (the walk follows the table's child and sibling links).
     */
    public void latch(int s, int v) {
        final int word = st.word(s);
        if ((word & DeliveryPolicy.DURABILITY_REQUEST) == 0) {
            return;
        }
        if ((word & SlotTable.STAMP_PATH) == 0) {
            if (vt.valLen(v) >= 0) {
                deliver(s, v, values.memory(), vt.valOff(v), vt.valLen(v), vt.valueSeq(v), vt.isStale(v), false);
            } else if (vt.isStale(v) && FwdStore.takesTopicNotice(word)) { // no value yet, and why: its stale notice
                deliver(s, v, EMPTY_STATUS, 0, EMPTY_STATUS.length, vt.seq(v), true, false);
            }
            return;
        }
        deliverSubtree(s, v, true);
    }

    /**
     * One delivery to slot s. A routed delivery that is dropped (the holder's delivery share, or the
     * link could not take it) leaves the slot dirty: {@link #resendDirty} sends the current value
     * later, so a dropped delivery is never the holder's last word. A later delivery of the slot's
     * own vertex, when it has no children, is that value: the slot is clean again.
     *
     * @return false when the delivery was dropped
     */
    private boolean deliver(int s, int v, byte[] vb, int vo, int vl, long seq, boolean stale, boolean deleted) {
        return deliver(s, v, vb, vo, vl, seq, stale, deleted ? 0 : vt.origin(v), deleted);
    }

    /** {@link #deliver(int, int, byte[], int, int, long, boolean, boolean)} with the value's {@code origin}. */
    private boolean deliver(int s, int v, byte[] vb, int vo, int vl, long seq, boolean stale, long origin,
            boolean deleted) {
        final int word = st.word(s);
        if ((word & SlotTable.KIND_CALLBACK) != 0) {
            view.wrap(vb, vo, vl, vt.keys(), vt.keyOffset(v), vt.keyLen(v), deleted);
            LocalSubscription sub = (LocalSubscription) st.handle(s);
            sub.listener.onValue(sub, view, seq, stale);
        } else if ((word & SlotTable.KIND_ROUTED) != 0) {
            record.value(vb, vo, vl).key(vt.keys(), vt.keyOffset(v), vt.keyLen(v)).stamp(seq, stale, deleted, origin)
                    .reason(vt.reasons(), vt.reasonOff(v), vt.reasonLen(v));
            if (!deliveries.routed(word, st.holderLink(s), st.holderPeer(s), records.memory(), st.recOff(s) + st.recLen(s),
                    st.routeLen(s), record)) {
                st.markDirty(s); // dropped (counted), not queued: the current value follows (a one_shot edge stays)
                return false;
            }
            if (v == st.vertex(s) && vt.firstChild(v) == VertexTable.NONE) {
                st.clean(s);
            }
        } else if ((word & SlotTable.KIND_LOCAL) != 0) {
            int tv = st.target(s);
            if (tv >= 0 && tv != v && !deleted) {
                if (topic.storeValue(tv, vb, vo, vl) == WireError.OK) { // delivery ends at the target: no re-fan-out
                    vt.setOrigin(tv, origin);
                }
            }
        }
        if ((word & DeliveryPolicy.ONE_SHOT) != 0 && st.vertex(s) != SlotTable.NONE) {
            slots.remove(s); // a one_shot edge goes after its first delivery
        }
        return true;
    }

    /**
     * Latest-value coalescing for the dirty slots (docs/node.md, "Dirty edges"); the node's tick runs
     * it. A dirty slot whose holder's share has a delivery again is sent the <em>current</em> value of
     * its vertex, once, with the current sequence and stale mark (never the dropped backlog, so the
     * sequence a subscriber sees never goes back): for a slot on a vertex with children, each vertex
     * of the subtree that holds a value; for a childless vertex that holds none (it was cleared since),
     * the delete notice. A slot whose resend is dropped again stays dirty for the next tick; a
     * suspended slot is owed nothing. Allocation-free; scans only the dirty bits.
     */
    public void resendDirty() {
        if (st.dirtyCount() == 0) {
            return;
        }
        for (int s = st.nextDirty(0); s != SlotTable.NONE; s = st.nextDirty(s + 1)) {
            final int word = st.word(s);
            final int v = st.vertex(s);
            if (v == SlotTable.NONE || (word & SlotTable.KIND_ROUTED) == 0 || (word & DeliveryPolicy.SUSPENDED) != 0) {
                st.clean(s);
                continue;
            }
            if (!shares.canDeliver(st.holderLink(s), st.holderPeer(s))) {
                continue; // not yet: the share has not refilled
            }
            if (resendTree(s, v)) {
                st.clean(s);
            }
        }
    }

    /** Resends slot s the current state of its vertex v (and v's subtree). False when a send was dropped. */
    private boolean resendTree(int s, int v) {
        if (vt.firstChild(v) == VertexTable.NONE && vt.valLen(v) < 0 && !vt.isStale(v)) { // cleared since: the delete notice
            return deliver(s, v, EMPTY_STATUS, 0, EMPTY_STATUS.length, vt.seq(v), false, true);
        }
        return deliverSubtree(s, v, false);
    }

    /**
     * Delivers to slot s the value of v, then each value below it in tree order (pre-order over the
     * table's child and sibling links, without a stack: allocation-free); a vertex without a value
     * is skipped, and so is a {@code $} subtree when {@code skipReserved}. Stops when the slot goes
     * or changes (a one_shot's first delivery): true. False when a delivery was dropped (the rest
     * is not sent now). The one subtree walk of the durability latch and of the dirty-edge resend.
     */
    private boolean deliverSubtree(int s, int v, boolean skipReserved) {
        final int word = st.word(s);
        int x = v;
        while (true) {
            final boolean enter = x == v || !skipReserved || !vt.isReserved(x);
            if (enter) {
                if (vt.valLen(x) >= 0 ? !deliver(s, x, values.memory(), vt.valOff(x), vt.valLen(x), vt.valueSeq(x),
                        vt.isStale(x), false)
                        : vt.isStale(x) && FwdStore.takesTopicNotice(word)
                                && !deliver(s, x, EMPTY_STATUS, 0, EMPTY_STATUS.length, vt.seq(x), true,
                                        false)) {
                    return false; // (no value yet, marked: its stale notice, as the mark sent it)
                }
                if (st.vertex(s) != v || st.word(s) != word) {
                    return true;
                }
            }
            final int c = enter ? vt.firstChild(x) : VertexTable.NONE;
            if (c != VertexTable.NONE) {
                x = c;
                continue;
            }
            while (x != v && vt.nextSibling(x) == VertexTable.NONE) {
                x = vt.parent(x);
            }
            if (x == v) {
                return true;
            }
            x = vt.nextSibling(x);
        }
    }
}
