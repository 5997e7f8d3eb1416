package io.spectrum.wide;

import io.spectrum.node.fwd.FwdStore;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;

/**
 * One in-process subscriber edge of a {@link WideNode} and its handle: the vertex, the
 * delivery_policy word (bit 9 suspended is its one mutable bit), the position N of
 * {@code :subscribers[N]}, the generation, and the holder (the owner or an identified
 * {@link WidePeer}).
 */
final class Edge implements Subscription {
    private final WideNode node;
    final Vertex vertex;
    WidePeer holder;
    final ValueListener listener;
    private final NodePath path;
    int word;
    /** The slot bits beyond the policy (FwdStore KIND_*, HAS_POLICY, STAMP*): KIND_CALLBACK for an in-process edge. */
    int flags = FwdStore.KIND_CALLBACK;
    /** The handle the shared FWD side knows it by (its index in the node's edge array), -1 when closed. */
    int id = -1;
    /** A FWD edge's SUBSCRIBER record then its return route, or null for an in-process edge. */
    byte[] rec;
    int recLen;
    int routeLen;
    /** Record-relative offset of the winning delivery_policy word's high byte, or -1. */
    int policyHi = -1;
    /** The local target of a KIND_LOCAL edge, or null. */
    Vertex target;
    /** The delivery mode of a FWD edge that asked for one (latest / bounded), else null. */
    ModeQueue<DeliveryModes.Queued> mode;
    int pos = -1;
    int gen;
    boolean open;
    /**
     * A delivery to it was dropped (the holder's delivery share, or the link could not take it): the
     * node's tick sends it the current value when the share refills (docs/node.md, "Dirty edges").
     */
    boolean dirty;
    private int error = WireError.OK;

    Edge(WideNode node, Vertex vertex, NodePath path, int word, ValueListener listener, WidePeer holder) {
        this.node = node;
        this.vertex = vertex;
        this.path = path;
        this.word = word;
        this.listener = listener;
        this.holder = holder;
    }

    /** A refused subscribe: a closed handle carrying the refusal. */
    static Edge refused(WideNode node, NodePath path, ValueListener listener, WidePeer holder, int code) {
        Edge e = new Edge(node, null, path, 0, listener, holder);
        e.error = code;
        return e;
    }

    boolean delivering() {
        return open && (word & DeliveryPolicy.SUSPENDED) == 0;
    }

    @Override
    public int suspend() {
        return open ? node.setSuspended(this, true) : WireError.PATH_NOT_FOUND;
    }

    @Override
    public int resume() {
        return open ? node.setSuspended(this, false) : WireError.PATH_NOT_FOUND;
    }

    @Override
    public int close() {
        if (!open) {
            return WireError.PATH_NOT_FOUND;
        }
        node.remove(this);
        return WireError.OK;
    }

    @Override
    public boolean isSuspended() {
        return open && (word & DeliveryPolicy.SUSPENDED) != 0;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public int error() {
        return error;
    }

    @Override
    public int index() {
        return pos;
    }

    @Override
    public int generation() {
        return gen;
    }

    @Override
    public NodePath path() {
        return path;
    }

    @Override
    public String toString() {
        return "Subscription[" + path + " :subscribers[" + pos + "] gen " + gen + (isSuspended() ? " suspended" : "") + "]";
    }
}
