package io.spectrum.node;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.pool.Counter;
import io.spectrum.stats.BoundedResource;
import io.spectrum.wire.Bytes;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/**
 * The client side of remote subscriptions: a fixed table of (link, peer, remote path, local
 * target, policy) records. Each is sent as an append FWD whose src is the local target, so the
 * remote edge's deliveries arrive as plain writes on the target and the subscribe's reply comes
 * back addressed to it. When a peer comes back up, every record for it is sent again.
 */
public final class RemoteClient {
    /** Record states. */
    public static final int FREE = 0;
    public static final int SENT = 1;
    public static final int ACKED = 2;
    public static final int DOWN = 3;
    public static final int REFUSED = 4;

    private final NarrowNode node;
    private final Counter res;
    private final int[] link;
    private final int[] peer;
    private final NodePath[] remote;
    private final NodePath[] target;
    private final int[] policy;
    private final int[] state;
    private final int[] error;
    private final int[] index;
    private final long[] gen;
    private final int[] sends;

    RemoteClient(NarrowNode node, int capacity, int unused) {
        this.node = node;
        res = new Counter("node.remoteSubscriptions", capacity);
        link = new int[capacity];
        peer = new int[capacity];
        remote = new NodePath[capacity];
        target = new NodePath[capacity];
        policy = new int[capacity];
        state = new int[capacity];
        error = new int[capacity];
        index = new int[capacity];
        gen = new long[capacity];
        sends = new int[capacity];
    }

    BoundedResource resource() {
        return res;
    }

    int subscribe(int li, int p, NodePath remotePath, NodePath localTarget, int pol) {
        int h = -1;
        for (int i = 0; i < state.length; i++) {
            if (state[i] == FREE) {
                h = i;
                break;
            }
        }
        if (h < 0) {
            res.refused();
            return -WireError.FLOW_BACKPRESSURE;
        }
        res.taken();
        link[h] = li;
        peer[h] = p;
        remote[h] = remotePath;
        target[h] = localTarget;
        policy[h] = pol;
        index[h] = -1;
        gen[h] = -1;
        error[h] = WireError.OK;
        state[h] = SENT;
        int r = send(h);
        return r == WireError.OK ? h : -r;
    }

    /** Forgets a record (does not clear the remote slot; use a clear request for that). */
    public void forget(int h) {
        if (state[h] != FREE) {
            state[h] = FREE;
            remote[h] = null;
            target[h] = null;
            res.returned();
        }
    }

    public int state(int h) {
        return state[h];
    }

    public int error(int h) {
        return error[h];
    }

    /** The remote slot position from the append's identity answer, or -1 until acknowledged. */
    public int remoteIndex(int h) {
        return index[h];
    }

    public long remoteGeneration(int h) {
        return gen[h];
    }

    /** Times the append was sent (first send plus re-sends on peer up). */
    public int sends(int h) {
        return sends[h];
    }

    private int send(int h) {
        TlvWriter t = node.txWriter();
        NodePath tp = target[h];
        t.begin(TlvType.FWD).value(NarrowNode.OP_WRITE, 1)
                .raw(remote[h].tlv())
                .begin(TlvType.FIELD).leaf(TlvType.NAME, Names.SUBSCRIBERS).value(1, 1).end()
                .raw(tp.tlv())
                .begin(TlvType.SUBSCRIBER).raw(tp.tlv());
        if (policy[h] != 0) {
            t.begin(TlvType.SETTINGS).leaf(TlvType.NAME, Names.DELIVERY_POLICY).value(policy[h], 2).end();
        }
        t.end().end();
        if (t.error() != WireError.OK) {
            return t.error();
        }
        sends[h]++;
        node.sendTx(link[h], peer[h], t.length());
        return WireError.OK;
    }

    void peerUp(int li, int p) {
        for (int h = 0; h < state.length; h++) {
            if (state[h] != FREE && link[h] == li && peer[h] == p && state[h] != ACKED) {
                state[h] = SENT;
                send(h);
            }
        }
    }

    void peerDown(int li, int p) {
        for (int h = 0; h < state.length; h++) {
            if (state[h] != FREE && link[h] == li && peer[h] == p) {
                state[h] = DOWN; // the remote reaps the edge when it sees us go; re-sent on peer up
            }
        }
    }

    /** A REPLY addressed to one of our targets answers that record's append. */
    void onReply(int li, int p, TlvIndex x, int dst, int src, int rest) {
        if (x.type(dst) != TlvType.PATH) {
            return;
        }
        for (int h = 0; h < state.length; h++) {
            if (state[h] != SENT || link[h] != li || peer[h] != p) {
                continue;
            }
            NodePath tp = target[h];
            if (!Bytes.equals(x.buffer(), x.bodyOffset(dst), x.bodyLength(dst), tp.tlv(), tp.bodyOffset(), tp.bodyLength())) {
                continue;
            }
            int kind = rest != TlvIndex.NONE && x.type(rest) == TlvType.VALUE ? (int) x.valueAsLong(rest) : 0;
            int payload = rest != TlvIndex.NONE ? x.nextSibling(rest) : TlvIndex.NONE;
            if (kind == NarrowNode.KIND_ERROR) {
                state[h] = REFUSED;
                error[h] = firstErrorCode(x, payload);
            } else {
                state[h] = ACKED;
                if (payload != TlvIndex.NONE && x.type(payload) == TlvType.FIELD) {
                    int c = x.findSibling(x.firstChild(payload), TlvType.VALUE);
                    if (c != TlvIndex.NONE) {
                        index[h] = (int) x.valueAsLong(c);
                        int m = x.nextSibling(c);
                        int g = m != TlvIndex.NONE ? x.nextSibling(m) : TlvIndex.NONE;
                        if (g != TlvIndex.NONE && x.type(g) == TlvType.VALUE) {
                            gen[h] = x.valueAsLong(g);
                        }
                    }
                }
            }
            return;
        }
    }

    static int firstErrorCode(TlvIndex x, int status) {
        if (status == TlvIndex.NONE || x.type(status) != TlvType.STATUS || !x.isContainer(status)) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        int e = x.findSibling(x.firstChild(status), TlvType.ERROR);
        if (e == TlvIndex.NONE || !x.isContainer(e)) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        int v = x.firstChild(e);
        return v != TlvIndex.NONE && x.type(v) == TlvType.VALUE ? (int) x.valueAsLong(v) : WireError.SCHEMA_TYPE_MISMATCH;
    }
}
