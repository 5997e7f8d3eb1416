package io.spectrum.node.topic;

import io.spectrum.node.fwd.PeerShares;
import io.spectrum.node.pool.BlockPool;
import io.spectrum.node.table.SlotTable;
import io.spectrum.node.table.VertexTable;
import io.spectrum.wire.WireError;

/**
 * Each vertex's list of subscriber slots, ordered by position with holes: filling and placing a
 * slot at the lowest free position, reaping it (clear, one_shot fire, retirement, link departure),
 * the suspend toggle and the generation check. The delivering counts follow every change.
 */
public final class SubscriberSlots {
    private final VertexTable vt;
    private final SlotTable st;
    private final BlockPool records;
    private final ListenerCounts counts;
    private final PeerShares shares;

    /** Slot lists over the node's tables and record pool, counting through {@code counts}, charged to {@code shares}. */
    public SubscriberSlots(VertexTable vt, SlotTable st, BlockPool records, ListenerCounts counts, PeerShares shares) {
        this.vt = vt;
        this.st = st;
        this.records = records;
        this.counts = counts;
        this.shares = shares;
    }

    /** The slot at position {@code n} of the vertex, or -1. */
    public int slotAt(int v, int n) {
        for (int s = vt.firstSlot(v); s != SlotTable.NONE; s = st.next(s)) {
            if (st.pos(s) == n) {
                return s;
            }
            if (st.pos(s) > n) {
                break;
            }
        }
        return -1;
    }

    /** Links a new slot into its vertex's list at the lowest free position. */
    public void place(int v, int s) {
        int last = vt.lastSlot(v);
        int position;
        int before = SlotTable.NONE;
        if (last == SlotTable.NONE || st.pos(last) + 1 == vt.slotCount(v)) {
            position = vt.slotCount(v); // no holes: append at the tail
        } else {
            position = 0;
            before = vt.firstSlot(v);
            while (before != SlotTable.NONE && st.pos(before) == position) {
                position++;
                before = st.next(before);
            }
        }
        st.setPos(s, position);
        if (before == SlotTable.NONE) {
            st.setPrev(s, last);
            st.setNext(s, SlotTable.NONE);
            if (last == SlotTable.NONE) {
                vt.setFirstSlot(v, s);
            } else {
                st.setNext(last, s);
            }
            vt.setLastSlot(v, s);
        } else {
            int p = st.prev(before);
            st.setPrev(s, p);
            st.setNext(s, before);
            st.setPrev(before, s);
            if (p == SlotTable.NONE) {
                vt.setFirstSlot(v, s);
            } else {
                st.setNext(p, s);
            }
        }
        vt.addSlotCount(v, 1);
    }

    /** Reaps a slot (clear, one_shot fire, retirement, link departure). */
    public void remove(int s) {
        final int v = st.vertex(s);
        if (v == SlotTable.NONE) {
            return;
        }
        boolean wasDelivering = st.delivering(s);
        int p = st.prev(s);
        int n = st.next(s);
        if (p == SlotTable.NONE) {
            vt.setFirstSlot(v, n);
        } else {
            st.setNext(p, n);
        }
        if (n == SlotTable.NONE) {
            vt.setLastSlot(v, p);
        } else {
            st.setPrev(n, p);
        }
        vt.addSlotCount(v, -1);
        if (st.recOff(s) >= 0) {
            records.free(st.recOff(s), st.recLen(s) + st.routeLen(s));
        }
        Object h = st.handle(s);
        shares.returnSlot(st.holderLink(s), st.holderPeer(s));
        st.give(s);
        if (h instanceof LocalSubscription) {
            ((LocalSubscription) h).reaped();
        }
        if (wasDelivering) {
            counts.adjust(v, -1);
        }
    }

    /** Reaps every slot of v (retirement). */
    public void removeAllOf(int v) {
        while (vt.firstSlot(v) != SlotTable.NONE) {
            remove(vt.firstSlot(v));
        }
    }

    /** Reaping trigger 4: the link the edge was admitted over / delivers over has departed. */
    public void removeHeldBy(int li, int peer) {
        for (int s = 0; s < st.capacity(); s++) {
            if (st.vertex(s) != SlotTable.NONE && st.heldBy(s, li, peer)) {
                remove(s);
            }
        }
    }

    /** The toggle: one bit of the slot's word, plus the delivering counts. No admission, no frame. */
    public int setSuspended(int s, boolean suspended) {
        if (st.suspended(s) == suspended) {
            return WireError.OK;
        }
        st.toggleSuspended(s);
        counts.adjust(st.vertex(s), suspended ? -1 : 1);
        return WireError.OK;
    }

    boolean is(int s, int gen) {
        return s >= 0 && st.vertex(s) != SlotTable.NONE && st.gen(s) == gen;
    }

    boolean suspended(int s) {
        return st.suspended(s);
    }
}
