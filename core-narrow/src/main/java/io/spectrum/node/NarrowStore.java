package io.spectrum.node;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.NodeResult;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.node.fwd.FwdStore;
import io.spectrum.node.pool.BlockPool;
import io.spectrum.node.table.BackfillRing;
import io.spectrum.node.table.SlotTable;
import io.spectrum.node.table.VertexTable;
import io.spectrum.node.topic.Fanout;
import io.spectrum.node.topic.ListenerCounts;
import io.spectrum.node.topic.LocalSubscription;
import io.spectrum.node.topic.Publisher;
import io.spectrum.node.topic.SubscriberSlots;
import io.spectrum.node.topic.TopicState;
import io.spectrum.wire.WireError;

/**
 * NarrowNode's {@link FwdStore}: handles are rows of its {@link VertexTable} and {@link SlotTable},
 * values and records live in its block pools. The parts that change state ({@link TopicState},
 * {@link Fanout}, {@link SubscriberSlots}, {@link ListenerCounts}) are built after the shared FWD
 * side they deliver through, so {@link NodeParts} hands them in once with {@link #wire}.
 */
final class NarrowStore implements FwdStore {
    private final VertexTable vt;
    private final SlotTable st;
    private final BlockPool values;
    private final BlockPool records;
    private final Publisher publisher = new Publisher();
    private final BackfillRing ring;
    private TopicState topic;
    private Fanout fanout;
    private SubscriberSlots slots;
    private ListenerCounts counts;
    private NarrowNode node;

    NarrowStore(VertexTable vt, SlotTable st, BlockPool values, BlockPool records, BackfillRing ring) {
        this.ring = ring;
        this.vt = vt;
        this.st = st;
        this.values = values;
        this.records = records;
    }

    void wire(TopicState t, Fanout f, SubscriberSlots s, ListenerCounts c, NarrowNode n) {
        topic = t;
        fanout = f;
        slots = s;
        counts = c;
        node = n;
    }

    @Override
    public long backfillEvicted(int v) {
        return ring.evicted(v, vt.seq(v));
    }

    @Override
    public int backfill(int v, long after, long nowNanos, io.spectrum.wire.TlvWriter w, int budget) {
        return ring.answer(v, after, nowNanos, w, budget);
    }

    @Override
    public int find(byte[] b, int off, int len) {
        return vt.find(b, off, len);
    }

    @Override
    public int clearValue(int v, boolean notify) {
        topic.clear(v, notify);
        if (notify) {
            fanout.propagateCleared(v);
        }
        return io.spectrum.wire.WireError.OK;
    }

    @Override
    public int resolveOrCreate(byte[] b, int off, int len) {
        return topic.resolveOrCreate(b, off, len);
    }

    @Override
    public void discard(int v, int keepKeyLen) {
        while (v > 0 && vt.keyLen(v) > keepKeyLen && vt.valLen(v) < 0 && vt.firstChild(v) == VertexTable.NONE
                && vt.firstSlot(v) == VertexTable.NONE && vt.awaits(v) == 0 && vt.schema(v) == null
                && vt.described(v) == null && vt.pubLink(v) == NarrowNode.NO_PUBLISHER) {
            final int p = vt.parent(v);
            vt.remove(v);
            v = p;
        }
    }

    @Override
    public int parent(int v) {
        return vt.parent(v);
    }

    @Override
    public int firstChild(int v) {
        return vt.firstChild(v);
    }

    @Override
    public int nextSibling(int c) {
        return vt.nextSibling(c);
    }

    @Override
    public byte[] keys(int v) {
        return vt.keys();
    }

    @Override
    public int keyOffset(int v) {
        return vt.keyOffset(v);
    }

    @Override
    public int keyLen(int v) {
        return vt.keyLen(v);
    }

    @Override
    public boolean isReserved(int v) {
        return vt.isReserved(v);
    }

    @Override
    public VertexSchema schema(int v) {
        return vt.schema(v);
    }

    @Override
    public VertexSchema described(int v) {
        return vt.described(v);
    }

    @Override
    public int valLen(int v) {
        return vt.valLen(v);
    }

    @Override
    public byte[] valueMemory(int v) {
        return values.memory();
    }

    @Override
    public int valOff(int v) {
        return vt.valOff(v);
    }

    @Override
    public long seq(int v) {
        return vt.seq(v);
    }

    @Override
    public boolean stale(int v) {
        return vt.isStale(v);
    }

    @Override
    public long origin(int v) {
        return vt.origin(v);
    }

    @Override
    public byte[] reasonMemory(int v) {
        return vt.reasons();
    }

    @Override
    public int reasonOff(int v) {
        return vt.reasonOff(v);
    }

    @Override
    public int reasonLen(int v) {
        return vt.isStale(v) ? vt.reasonLen(v) : 0;
    }

    @Override
    public int publish(int v, byte[] b, int off, int len, int link, int peer, byte[] route, int routeOff, int routeLen,
            io.spectrum.wire.StampView upstream, boolean retain) {
        return fanout.publish(v, b, off, len, publisher.set(link, peer, route, routeOff, routeLen).upstream(upstream),
                retain);
    }

    @Override
    public int awaits(int v) {
        return vt.awaits(v);
    }

    @Override
    public void addAwaits(int v, int delta) {
        vt.addAwaits(v, delta);
    }

    @Override
    public void markGap(NodePath target) {
        node.markGap(target);
    }

    @Override
    public void markStale(int v, byte[] b, int off, int len, boolean kept) {
        if (topic.markStale(v, node.clock().nanoTime(), b, off, len, kept)) {
            fanout.topicNotice(v, false);
        }
    }

    @Override
    public int firstSlot(int v) {
        return vt.firstSlot(v);
    }

    @Override
    public int nextSlot(int s) {
        return st.next(s);
    }

    @Override
    public int slotAt(int v, int n) {
        return slots.slotAt(v, n);
    }

    @Override
    public int pos(int s) {
        return st.pos(s);
    }

    @Override
    public int gen(int s) {
        return st.gen(s);
    }

    @Override
    public int word(int s) {
        return st.word(s);
    }

    @Override
    public int holderLink(int s) {
        return st.holderLink(s);
    }

    @Override
    public int holderPeer(int s) {
        return st.holderPeer(s);
    }

    @Override
    public byte[] recordMemory(int s) {
        return records.memory();
    }

    @Override
    public int recOff(int s) {
        return st.recOff(s);
    }

    @Override
    public int recLen(int s) {
        return st.recLen(s);
    }

    @Override
    public int routeLen(int s) {
        return st.routeLen(s);
    }

    @Override
    public int policyHi(int s) {
        return st.policyHi(s);
    }

    @Override
    public void removeSlot(int s) {
        slots.remove(s);
    }

    @Override
    public void holderGone(int link, int peer) {
        slots.removeHeldBy(link, peer); // its slots only: the same reaping as its departure's
    }

    @Override
    public void setSuspended(int s, boolean suspended) {
        slots.setSuspended(s, suspended);
    }

    @Override
    public int admit(int v, int replace, int word, int link, int peer, byte[] b, int recStart, int recLen,
            int routeStart, int routeLen, int policyHi, int target) {
        int off = records.alloc(recLen + routeLen);
        if (off < 0) {
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        int s = replace;
        boolean wasDelivering = false;
        if (s < 0) {
            s = st.take();
            if (s < 0) {
                records.free(off, recLen + routeLen);
                return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
            }
        } else {
            wasDelivering = st.delivering(s);
            if (st.recOff(s) >= 0) {
                records.free(st.recOff(s), st.recLen(s) + st.routeLen(s));
            }
            Object h = st.handle(s);
            st.setHandle(s, null);
            if (h instanceof LocalSubscription) {
                ((LocalSubscription) h).reaped(); // a replace reaps the in-process edge it displaces
            }
        }
        final byte[] mem = records.memory();
        System.arraycopy(b, recStart, mem, off, recLen);
        if (routeLen > 0) {
            System.arraycopy(b, routeStart, mem, off + recLen, routeLen);
        }
        st.fill(s, v, word, link, peer, off, recLen, routeLen);
        st.setPolicyHi(s, policyHi);
        st.setTarget(s, target);
        if (replace < 0) {
            slots.place(v, s);
        }
        boolean delivering = st.delivering(s);
        if (delivering != wasDelivering) {
            counts.adjust(v, delivering ? 1 : -1);
        }
        return s;
    }

    @Override
    public void latch(int s, int v) {
        fanout.latch(s, v);
    }
}
