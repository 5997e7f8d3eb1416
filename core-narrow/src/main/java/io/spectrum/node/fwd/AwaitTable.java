package io.spectrum.node.fwd;

import io.spectrum.stats.ResourceCounter;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;

/**
 * Pending FWD AWAITs: a fixed table of (vertex, deadline, caller, reply route). An entry is
 * answered by the next write to its vertex, by its deadline (FLOW_TIMEOUT) or by the vertex's
 * retirement (PATH_NOT_FOUND); it goes silently when its caller's peer departs.
 */
public final class AwaitTable {
    private final FwdStore store;
    private final LinkTable links;
    private final FrameBuffers buffers;
    private final PeerShares shares;
    /** The pending awaits (in use, peak, refusals). */
    public final ResourceCounter resource;

    private final int route;
    private final int[] vertex;
    private final long[] deadline;
    private final int[] link;
    private final int[] peer;
    private final int[] dstLen;
    private final int[] srcLen;
    private final byte[] routes;

    AwaitTable(FwdParts p) {
        final int capacity = p.config.maxAwaits();
        final int routeBytes = p.config.awaitRouteBytes();
        this.store = p.store;
        this.links = p.links;
        this.buffers = p.buffers;
        this.shares = p.shares;
        resource = new ResourceCounter("node.awaits", capacity);
        route = routeBytes;
        vertex = new int[capacity];
        deadline = new long[capacity];
        link = new int[capacity];
        peer = new int[capacity];
        dstLen = new int[capacity];
        srcLen = new int[capacity];
        routes = new byte[capacity * routeBytes];
        for (int i = 0; i < capacity; i++) {
            vertex[i] = FwdStore.NONE;
        }
    }

    /**
     * Parks an await on v, due at {@code due}, for the request's caller, with the request's dst and
     * src TLVs as the reply route. Status: OK, or FLOW_BACKPRESSURE (counted as a refusal) when the
     * table is full, the route does not fit an entry, or the caller already holds its share of awaits
     * ({@link PeerShares}, counted there).
     */
    int add(int v, long due, FwdRequest req) {
        final TlvIndex x = req.rx;
        final byte[] b = x.buffer();
        final int dstStart = x.start(req.dst);
        final int dLen = x.totalLength(req.dst);
        final int srcStart = x.start(req.src);
        final int sLen = x.totalLength(req.src);
        int a = -1;
        for (int i = 0; i < vertex.length; i++) {
            if (vertex[i] == FwdStore.NONE) {
                a = i;
                break;
            }
        }
        if (a < 0 || dLen + sLen > route) {
            resource.countRefused();
            return WireError.FLOW_BACKPRESSURE;
        }
        if (!shares.takeAwait(req.link, req.peer)) {
            return WireError.FLOW_BACKPRESSURE;
        }
        vertex[a] = v;
        deadline[a] = due;
        link[a] = req.link;
        peer[a] = req.peer;
        dstLen[a] = dLen;
        srcLen[a] = sLen;
        System.arraycopy(b, dstStart, routes, a * route, dLen);
        System.arraycopy(b, srcStart, routes, a * route + dLen, sLen);
        store.addAwaits(v, 1);
        resource.taken();
        return WireError.OK;
    }

    /** Answers every await on v with the value just written. */
    public void answerValue(int v, byte[] pb, int po, int pl) {
        if (store.awaits(v) > 0) {
            for (int a = 0; a < vertex.length; a++) {
                if (vertex[a] == v) {
                    answer(a, FwdView.KIND_RESULT, 0, pb, po, pl);
                }
            }
        }
    }

    /** Refuses every await on v with {@code code} (the vertex is being retired). */
    public void failVertex(int v, int code) {
        for (int a = 0; a < vertex.length; a++) {
            if (vertex[a] == v) {
                answer(a, FwdView.KIND_ERROR, code, null, 0, 0);
            }
        }
    }

    /** Answers FLOW_TIMEOUT to every await whose deadline has passed. */
    public void expire(long now) {
        for (int a = 0; a < vertex.length; a++) {
            if (vertex[a] != FwdStore.NONE && now - deadline[a] >= 0) {
                answer(a, FwdView.KIND_ERROR, WireError.FLOW_TIMEOUT, null, 0, 0);
            }
        }
    }

    /** Frees, unanswered, every await of a departed peer. */
    void dropPeer(int li, int p) {
        for (int a = 0; a < vertex.length; a++) {
            if (vertex[a] != FwdStore.NONE && link[a] == li && peer[a] == p) {
                free(a);
            }
        }
    }

    private void answer(int a, int kind, int code, byte[] pb, int po, int pl) {
        final int base = a * route;
        final int dLen = dstLen[a];
        final int sLen = srcLen[a];
        TlvWriter t = buffers.txWriter();
        t.begin(TlvType.FWD).value(FwdView.OP_REPLY, 1)
                .raw(routes, base + dLen, sLen) // reply dst = request src
                .raw(routes, base, dLen) // reply src = request dst
                .value(kind, 1);
        if (kind == FwdView.KIND_ERROR) {
            t.status(code);
        } else if (pb != null) {
            t.raw(pb, po, pl);
        }
        t.end();
        final int li = link[a];
        final int p = peer[a];
        free(a);
        if (t.error() == WireError.OK) {
            links.send(li, p, buffers.tx, t.length());
        }
    }

    private void free(int a) {
        shares.returnAwait(link[a], peer[a]);
        store.addAwaits(vertex[a], -1);
        vertex[a] = FwdStore.NONE;
        resource.returned();
    }
}
