package io.spectrum.wide;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.NodeResult;
import io.spectrum.node.fwd.FwdServer;
import io.spectrum.wire.PathKeys;
import io.spectrum.wire.WireError;
import java.util.Arrays;

/**
 * The vertex tree of a {@link WideNode}: finding a vertex by its canonical key ({@link VertexIndex}),
 * creating the missing ones of a path (mkdir -p, within the vertex table's ceiling and, for vertices
 * a remote subscription creates, within that peer's share), and taking out again the vertices that
 * hold nothing: those a refused request created ({@link #discard}) and those a subscription created
 * once its last edge goes ({@link #prune}). Every vertex it makes or takes out is registered or
 * released in the {@link Handles}.
 */
final class VertexTree {
    private final VertexIndex index = new VertexIndex();
    /** The root (handle 0, the empty key). */
    final Vertex root;
    private final Handles handles;
    private final PeerTable peers;
    private final ActivityNotices activity;
    private final int maxKey;
    /** How many vertices one remote peer's subscriptions may create and hold ({@link Vertex#creator}). */
    private final int verticesPerPeer;
    private long vertexShareRefused;
    /** The peer {@link #createForSubscription} made for its request, forgotten again when the request is discarded. */
    private WidePeer madeForRequest;
    /** The writer {@link #createForWrite} counted vertices against for its request, and how many. */
    private WidePeer writtenForRequest;
    private int writtenCount;
    /** The refusal of the last {@link #resolveOrCreate(NodePath)} that answered null (single-threaded). */
    int lastRefusal;

    VertexTree(Handles handles, PeerTable peers, ActivityNotices activity, int maxKey, int verticesPerPeer) {
        this.handles = handles;
        this.peers = peers;
        this.activity = activity;
        this.maxKey = maxKey;
        this.verticesPerPeer = verticesPerPeer;
        root = new Vertex(new byte[0], VertexIndex.hash(new byte[0], 0, 0), null, 0, false);
        index.insert(root);
        handles.register(root);
    }

    Vertex find(NodePath path) {
        return index.find(path.tlv(), path.bodyOffset(), path.bodyLength());
    }

    /** The vertex of key {@code b[off, +len)}, or null. */
    Vertex find(byte[] b, int off, int len) {
        return index.find(b, off, len);
    }

    /** The vertex of {@code path}, created (mkdir -p) when missing; null with {@link #lastRefusal} when refused. */
    Vertex resolveOrCreate(NodePath path) {
        final byte[] b = path.tlv();
        final int ko = path.bodyOffset();
        final int kl = path.bodyLength();
        Vertex v = index.find(b, ko, kl);
        if (v != null) {
            return v;
        }
        lastRefusal = creatable(b, ko, kl, null);
        return lastRefusal == WireError.OK ? create(b, ko, kl, null) : null;
    }

    /** The vertex handle of a PATH body, created (mkdir -p) when missing. Quantity. */
    int resolveOrCreate(byte[] b, int off, int len) {
        Vertex v = index.find(b, off, len);
        if (v != null) {
            return v.id;
        }
        int r = creatable(b, off, len, null);
        return r == WireError.OK ? create(b, off, len, null).id : NodeResult.refusal(r);
    }

    /**
     * The mkdir -p of a subscription append under a mount by remote caller (link index li, peer)
     * (FwdStore#createForSubscription): the vertices it creates are that peer's
     * ({@link Vertex#creator}), refused with FLOW_BACKPRESSURE past its {@link NodeConfig#verticesPerPeer()}.
     * Quantity.
     */
    int createForSubscription(byte[] b, int off, int len, int li, int peer) {
        return createFor(b, off, len, li, peer, false);
    }

    /**
     * The mkdir -p of a remote WRITE from a peer that announced the extensions (FwdStore#createForWrite,
     * docs/node.md "Vertices a write created"): the vertices are the node's at once (kept when their
     * writer goes, like any value's), and count against the writer's share, {@link WidePeer#written}
     * beside {@link WidePeer#created}, for as long as it is connected; past {@link NodeConfig#verticesPerPeer()}
     * the write is refused FLOW_BACKPRESSURE with nothing created. Quantity.
     */
    int createForWrite(byte[] b, int off, int len, int li, int peer) {
        return createFor(b, off, len, li, peer, true);
    }

    /** The two above: a subscription's vertices are its caller's, a write's the node's with the share counted. */
    private int createFor(byte[] b, int off, int len, int li, int peer, boolean write) {
        madeForRequest = null;
        writtenForRequest = null;
        Vertex v = index.find(b, off, len);
        if (v != null) {
            return v.id;
        }
        final boolean known = peers.knowsLinkPeer(li, peer);
        final WidePeer caller = li == FwdServer.OWNER ? null : peers.linkPeer(li, peer);
        final WidePeer creator = write ? null : caller;
        int r = creatable(b, off, len, creator);
        final int missing = write ? missing(b, off, len) : 0;
        if (r == WireError.OK && write && caller != null
                && (long) caller.created + caller.written + missing > verticesPerPeer) {
            vertexShareRefused++; // the peer's share, not the table
            r = WireError.FLOW_BACKPRESSURE;
        }
        if (r != WireError.OK) {
            if (!known) {
                peers.forgetLinkPeer(li, peer);
            }
            return NodeResult.refusal(r);
        }
        if (!known) {
            madeForRequest = caller;
        }
        if (write && caller != null) {
            caller.written += missing;
            writtenForRequest = caller;
            writtenCount = missing;
        }
        return create(b, off, len, creator).id;
    }

    /** How many vertices of key {@code b[off, +len)} and its ancestors do not exist yet. */
    private int missing(byte[] b, int off, int len) {
        int missing = 0;
        int p = 0;
        while (p < len) {
            p += 1 + (b[off + p] & 0xFF);
            if (index.find(b, off, p) == null) {
                missing++;
            }
        }
        return missing;
    }

    /**
     * Undoes the mkdir -p of a refused request: removes vertex {@code id} and then its ancestors while
     * their keys are longer than {@code keepKeyLen} (those the request created) and they hold nothing
     * ({@link Vertex#bare}); anything else stays. A peer {@link #createForSubscription} made for the
     * request goes with it when it holds nothing.
     */
    void discard(int id, int keepKeyLen) {
        Vertex v = handles.byId[id];
        while (v != root && v.key.length > keepKeyLen && v.bare()) {
            final Vertex parent = v.parent;
            unlink(v);
            v = parent;
        }
        final WidePeer written = writtenForRequest;
        writtenForRequest = null;
        if (written != null) {
            written.written -= writtenCount; // the share the refused write took comes back
        }
        final WidePeer made = madeForRequest;
        madeForRequest = null;
        if (made != null) {
            peers.forgetLinkPeer(made.link, made.peer);
        }
    }

    /**
     * Vertices a subscription created (docs/node.md, "Vertices a subscription created"): once such a
     * vertex holds nothing ({@link Vertex#bare}: its last slot went, it never had a value, a
     * declaration or a reported one) it goes, and so do its ancestors that the same kind of request
     * created and that hold nothing either. Called when an edge of v goes.
     */
    void prune(Vertex v) {
        while (v != root && v.id >= 0 && v.creator != null && v.bare()) {
            final Vertex parent = v.parent;
            unlink(v);
            v = parent;
        }
    }

    /**
     * Takes a vertex that holds nothing out of the tree, the index and the handle table (its handle
     * is reused; the object keeps id -1, so a holder of it never finds another vertex through it).
     * Its creator's share gets it back; a vertex that had subscribers through an ancestor is told
     * idle first, so an activity listener that counted it active lets it go.
     */
    private void unlink(Vertex v) {
        if (v.listeners > 0) {
            activity.notice(v, false, 0);
        }
        index.remove(v);
        v.parent.removeChild(v);
        handles.release(v);
        if (v.creator != null) {
            v.creator.created--;
            v.creator = null;
        }
    }

    /**
     * v holds something of its own now (a value, a declaration, a reported one, a child that is
     * not a subscription's, a local target's copy): it and its ancestors are no longer only a
     * subscription's, and their creators' shares get them back.
     */
    static void settle(Vertex v) {
        for (Vertex a = v; a != null && a.creator != null; a = a.parent) {
            a.creator.created--;
            a.creator = null;
        }
    }

    /** Subscription appends refused because their peer's vertex share was used up. */
    long vertexShareRefused() {
        return vertexShareRefused;
    }

    /**
     * Whether the key and its missing ancestors may be created: OK, PATH_INVALID or FLOW_BACKPRESSURE
     * (the table, counted in its refusals, or, for a {@code creator}, its share of vertices, counted
     * in {@link #vertexShareRefused()}).
     */
    int creatable(byte[] b, int off, int len, WidePeer creator) {
        if (PathKeys.validateKey(b, off, len) != WireError.OK || len > maxKey) {
            handles.vertices.countRefused();
            return WireError.PATH_INVALID;
        }
        final int missing = missing(b, off, len);
        if ((long) handles.vertices.inUse() + missing > handles.vertices.capacity()) {
            handles.vertices.countRefused();
            return WireError.FLOW_BACKPRESSURE;
        }
        if (creator != null && (long) creator.created + creator.written + missing > verticesPerPeer) {
            vertexShareRefused++; // the peer's share, not the table: the table still has room for others
            return WireError.FLOW_BACKPRESSURE;
        }
        return WireError.OK;
    }

    /**
     * mkdir -p of a key that {@link #creatable} accepted; the vertices it makes are {@code creator}'s
     * when it is not null. A vertex made for anyone else settles its ancestors (a vertex whose
     * creator is null has no ancestor with one).
     */
    Vertex create(byte[] b, int off, int len, WidePeer creator) {
        Vertex parent = root;
        int p = 0;
        while (p < len) {
            final int seg = p;
            p += 1 + (b[off + p] & 0xFF);
            Vertex c = index.find(b, off, p);
            if (c == null) {
                if (creator == null && parent.creator != null) {
                    settle(parent);
                }
                boolean reserved = parent.reserved || (b[off + seg] != 0 && b[off + seg + 1] == '$');
                c = new Vertex(Arrays.copyOfRange(b, off, off + p), VertexIndex.hash(b, off, p), parent, seg, reserved);
                c.listeners = parent.listeners;
                index.insert(c);
                parent.addChild(c);
                handles.register(c);
                if (creator != null) {
                    c.creator = creator;
                    creator.created++;
                }
            }
            parent = c;
        }
        return parent;
    }

    /** The deepest existing vertex on the way to key {@code b[off, +len)} (the root at worst). */
    Vertex nearestExisting(byte[] b, int off, int len) {
        Vertex found = root;
        int p = 0;
        while (p < len) {
            p += 1 + (b[off + p] & 0xFF);
            Vertex c = index.find(b, off, p);
            if (c == null) {
                break;
            }
            found = c;
        }
        return found;
    }
}
