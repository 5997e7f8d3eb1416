package io.spectrum.wide;

import io.spectrum.node.fwd.FwdStore;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.NodeResult;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;
import java.util.Arrays;

/**
 * WideNode's {@link FwdStore}: the shared FWD side (core-narrow's FwdServer: terminus,
 * {@code :subscribers}, awaits, deliveries) reaches the node's {@link Vertex} and {@link Edge}
 * objects through their handles ({@code id}: the index in the node's growing vertex and edge
 * arrays, {@link Handles}). It stores and finds, handing each call to the node piece that owns it
 * ({@link VertexTree}, {@link PeerTable}, {@link WideFanout}, {@link DeliveryModes},
 * {@link StaleMarks}); every FWD rule is on the shared side.
 */
final class WideStore implements FwdStore {
    private final WideNode node;

    WideStore(WideNode node) {
        this.node = node;
    }

    private Vertex v(int id) {
        return node.handles.byId[id];
    }

    private Edge e(int id) {
        return node.handles.edgeById[id];
    }

    // ------------------------------------------------------------------ vertices

    @Override
    public int find(byte[] b, int off, int len) {
        Vertex v = node.tree.find(b, off, len);
        return v == null ? NONE : v.id;
    }

    @Override
    public int resolveOrCreate(byte[] b, int off, int len) {
        return node.tree.resolveOrCreate(b, off, len);
    }

    @Override
    public int createForSubscription(byte[] b, int off, int len, int link, int peer) {
        return node.tree.createForSubscription(b, off, len, link, peer);
    }

    @Override
    public byte[] publisherName(int v) {
        WidePeer p = v(v).publisher;
        return p == null ? null : p.identityBytes();
    }

    @Override
    public int clearValue(int v, boolean notify) {
        return node.clearVertex(v(v), notify);
    }

    @Override
    public boolean announcedSubscribersCreate() {
        return true;
    }

    @Override
    public int createForWrite(byte[] b, int off, int len, int link, int peer) {
        return node.tree.createForWrite(b, off, len, link, peer);
    }

    @Override
    public void discard(int v, int keepKeyLen) {
        node.tree.discard(v, keepKeyLen);
    }

    @Override
    public int parent(int v) {
        Vertex p = v(v).parent;
        return p == null ? NONE : p.id;
    }

    @Override
    public int firstChild(int v) {
        Vertex x = v(v);
        return x.childCount == 0 ? NONE : x.children[0].id;
    }

    @Override
    public int nextSibling(int c) {
        Vertex x = v(c);
        Vertex p = x.parent;
        int i = x.childIndex + 1;
        return p == null || i >= p.childCount ? NONE : p.children[i].id;
    }

    @Override
    public byte[] keys(int v) {
        return v(v).key;
    }

    @Override
    public int keyOffset(int v) {
        return 0;
    }

    @Override
    public int keyLen(int v) {
        return v(v).key.length;
    }

    @Override
    public boolean isReserved(int v) {
        return v(v).reserved;
    }

    @Override
    public VertexSchema schema(int v) {
        return v(v).schema;
    }

    @Override
    public VertexSchema described(int v) {
        Vertex x = v(v);
        return x.schema != null ? x.schema : x.reported;
    }

    @Override
    public int valLen(int v) {
        return v(v).valLen;
    }

    @Override
    public byte[] valueMemory(int v) {
        return v(v).value;
    }

    @Override
    public int valOff(int v) {
        return 0;
    }

    @Override
    public long seq(int v) {
        return v(v).seq;
    }

    @Override
    public boolean stale(int v) {
        return v(v).stale;
    }

    @Override
    public long origin(int v) {
        return v(v).origin;
    }

    @Override
    public byte[] reasonMemory(int v) {
        return v(v).staleReason;
    }

    @Override
    public int reasonOff(int v) {
        return 0;
    }

    @Override
    public int reasonLen(int v) {
        Vertex x = v(v);
        return x.stale && x.staleReason != null ? x.staleReason.length : 0;
    }

    @Override
    public int publish(int v, byte[] b, int off, int len, int link, int peer, byte[] route, int routeOff, int routeLen,
            io.spectrum.wire.StampView upstream, boolean retain) {
        final boolean known = node.peers.knowsLinkPeer(link, peer);
        final int r = node.publish(v(v), b, off, len, node.peers.linkPeer(link, peer), route, routeOff, routeLen, upstream,
                retain);
        if (r != WireError.OK && !known) {
            node.peers.forgetLinkPeer(link, peer); // a refused write leaves no peer behind either
        }
        return r;
    }

    @Override
    public int awaits(int v) {
        return v(v).awaits;
    }

    @Override
    public void addAwaits(int v, int delta) {
        v(v).awaits += delta;
    }

    @Override
    public void markStale(int v, byte[] b, int off, int len, boolean kept) {
        node.stale.markUpstream(v(v), b, off, len, kept);
    }

    @Override
    public void markGap(NodePath target) {
        Vertex x = node.tree.find(target.tlv(), target.bodyOffset(), target.bodyLength());
        if (x != null) {
            node.stale.markGap(x);
        }
    }

    // ------------------------------------------------------------------ slots

    @Override
    public int firstSlot(int v) {
        return from(v(v), 0);
    }

    @Override
    public int nextSlot(int s) {
        Edge x = e(s);
        return from(x.vertex, x.pos + 1);
    }

    /** The first edge of v at position {@code pos} or above, or NONE. */
    private static int from(Vertex v, int pos) {
        for (int i = pos; i < v.edgeEnd; i++) {
            if (v.edges[i] != null) {
                return v.edges[i].id;
            }
        }
        return NONE;
    }

    @Override
    public int slotAt(int v, int n) {
        Vertex x = v(v);
        return n >= 0 && n < x.edgeEnd && x.edges[n] != null ? x.edges[n].id : NONE;
    }

    @Override
    public int pos(int s) {
        return e(s).pos;
    }

    @Override
    public int gen(int s) {
        return e(s).gen;
    }

    @Override
    public int word(int s) {
        Edge x = e(s);
        return IN_USE | x.flags | (x.word & POLICY_MASK);
    }

    @Override
    public int holderLink(int s) {
        return e(s).holder.link;
    }

    @Override
    public int holderPeer(int s) {
        return e(s).holder.peer;
    }

    @Override
    public byte[] recordMemory(int s) {
        return e(s).rec;
    }

    @Override
    public int recOff(int s) {
        return e(s).rec == null ? -1 : 0;
    }

    @Override
    public int recLen(int s) {
        return e(s).recLen;
    }

    @Override
    public int routeLen(int s) {
        return e(s).routeLen;
    }

    @Override
    public int policyHi(int s) {
        return e(s).policyHi;
    }

    @Override
    public void holderGone(int link, int peer) {
        node.holderGone(link, peer);
    }

    @Override
    public void removeSlot(int s) {
        node.remove(e(s));
    }

    @Override
    public void setSuspended(int s, boolean suspended) {
        node.setSuspended(e(s), suspended);
    }

    @Override
    public int admit(int v, int replace, int word, int link, int peer, byte[] b, int recStart, int recLen,
            int routeStart, int routeLen, int policyHi, int target) {
        final Vertex x = v(v);
        if (replace < 0 && !node.handles.edgeRoom()) {
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        final WidePeer holder = node.peers.linkPeer(link, peer);
        final Edge e = new Edge(node, x, null, word & POLICY_MASK, null, holder);
        e.flags = word & ~(POLICY_MASK | IN_USE);
        e.rec = Arrays.copyOfRange(b, recStart, recStart + recLen + routeLen);
        if (routeLen > 0) {
            System.arraycopy(b, routeStart, e.rec, recLen, routeLen);
        }
        e.recLen = recLen;
        e.routeLen = routeLen;
        e.policyHi = policyHi;
        e.target = target >= 0 ? v(target) : null;
        if (e.target != null) {
            VertexTree.settle(e.target); // a local target holds the copies: never a subscription's to take away
        }
        e.open = true;
        final boolean delivering = (word & DeliveryPolicy.SUSPENDED) == 0;
        if (replace < 0) {
            e.pos = x.place(e);
            node.handles.register(e);
            if (delivering) {
                node.activity.adjust(x, 1);
            }
        } else {
            final Edge old = e(replace); // re-filled in place: same position, same handle, a new generation
            final boolean was = old.delivering();
            node.modes.dropMode(old); // a replaced edge's queue goes with it; the new record says its own mode
            old.open = false;
            if (old.holder != node.ownerPeer()) {
                old.holder.edges.remove(old);
            }
            e.pos = old.pos;
            e.id = old.id;
            old.id = -1;
            x.edges[e.pos] = e;
            node.handles.edgeById[e.id] = e;
            if (delivering != was) {
                node.activity.adjust(x, delivering ? 1 : -1);
            }
        }
        e.gen = ++x.admissions;
        if (holder != node.ownerPeer()) {
            holder.edges.add(e);
        }
        return e.id;
    }

    @Override
    public void latch(int s, int v) {
        Edge e = e(s);
        Vertex x = v(v);
        node.fanout.latch(e, x);
    }

    @Override
    public boolean deliveryModes() {
        return true;
    }

    @Override
    public void setMode(int s, long mode) {
        node.modes.setMode(e(s), mode);
    }

    @Override
    public long consume(int s, long upTo) {
        return node.modes.consume(e(s), upTo);
    }

    @Override
    public void peerNamed(int link, int peer, byte[] b, int off, int len) {
        node.peers.namePeer(link, peer, b, off, len);
    }
}
