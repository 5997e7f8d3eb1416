package io.spectrum.wide;

import io.spectrum.link.Link;
import io.spectrum.link.NodeLinkStats;
import io.spectrum.node.fwd.FwdServer;
import io.spectrum.node.fwd.FwdStore;
import io.spectrum.node.api.ActivityListener;
import io.spectrum.node.api.Node;
import io.spectrum.node.ServingNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.NodeResult;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueAdmission;
import io.spectrum.node.api.ValueListener;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.time.Clock;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.Names;
import io.spectrum.wire.Opt;
import io.spectrum.wire.PathKeys;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The WIDE (host-scale) node: the {@link Node} API of core-narrow's {@code NarrowNode} over tables
 * that grow instead of pools sized once. Vertices are objects found by canonical key in a growing
 * hash ({@link VertexIndex}), values are byte-array copies, subscriber edges are objects in a
 * per-vertex array by position. The {@link NodeConfig}'s sizes are ceilings here, not
 * pre-allocations: reaching one is the same typed refusal as on a NARROW node, reported in the same
 * counters (capacity = the ceiling, in use, peak, refused, dropped). {@link #hostConfig()} gives host-sized
 * ceilings. Single-threaded, like every {@link Node}.
 *
 * <p>Semantics shared with {@code NarrowNode} (core-narrow's tests run against both): write = assign
 * + propagate to the delivering edges of the vertex and its ancestors, creation with mkdir -p, the
 * value rule of {@link ValueAdmission} (declaration, payload cap, one frame), the delivery_policy
 * word (bit 5 durability replay on subscribe, bit 8 one_shot, bit 9 suspended), edge positions that
 * reuse the lowest hole, clear with a notice that spends a fresh sequence number, a sequence that
 * never goes back, stale marking when the last publisher goes, purge after
 * the grace on the injected clock ({@link #tick()}), both told at once to the edges that take topic
 * notices (stamped routed edges and in-process callbacks), active / idle notices on delivering-count
 * transitions, and the composed {@link #readTree}. One difference: a refused write creates nothing
 * (NarrowNode creates the path before it looks at the value TLV).
 *
 * <p>Delivery modes (WIDE only, docs/extensions.md "Delivery modes"): a FWD subscriber whose record
 * asks for {@code spectrum.mode} latest or bounded gets a {@link ModeQueue}: numbered deliveries
 * ({@code dlv} in the stamp), at most maxInFlight unconsumed, the rest queued (latest: one, replaced
 * and counted); credits come back only by the consumed message at its {@code :subscribers[N]}. A
 * write that a delivering bounded edge has no room for is refused whole with FLOW_BACKPRESSURE
 * (nothing created, delivered, retained or numbered; {@link #modeRefused()}).
 *
 * <p>Beyond {@link Node}: identified in-process callers ({@link #connect(String)}, a
 * {@link WidePeer} per connection, named or anonymous), and {@link #topics} / {@link #lastPublisher}
 * for listings. Together these reach every operation of the ABP topic profile from one Java API.
 *
 * <p>Links: {@link #attach} / {@link #poll} / {@link #onPeerUp} / {@link #onPeerDown} over a link
 * table that grows up to {@code maxLinks}. Every FWD rule (the terminus, the whole RFC-0035
 * {@code :subscribers} surface, {@code :children}, {@code :settings}, {@code :schema}, awaits,
 * routed deliveries, activity notices, per-peer shares, extensions and holder tokens, the owner's
 * door, the remote client, the router hook) is core-narrow's one copy, {@link FwdServer}, reaching
 * this node's vertices and edges through {@link WideStore}. A remote caller (link, peer) is a
 * {@link WidePeer} of this node from its first write or edge: its edges are reaped and what it
 * published goes stale when it goes. Still fixed-size on this core (the shared tables of the FWD
 * side, sized from the config): awaits, announced peers, per-peer shares, remote subscriptions.
 */
public final class WideNode implements ServingNode {
    /** The identity the owner's in-process writes publish under ({@code $}: no peer can register it). */
    public static final String OWNER_IDENTITY = "$owner";
    private static final NodePath CAPS = NodePath.of(Names.CAPS_PATH);
    private static final NodePath STATS = NodePath.of(Names.STATS_PATH);
    private static final int UNCHANGED_VALUE_SLACK = 64;

    private final Clock clock;
    private final int payloadCap;
    private final int maxKey;
    private final long staleGrace;
    /** This node gives a value that arrives without an origin time its clock's ({@code NodeConfig#givesOrigins}). */
    private final boolean givesOrigins;

    private final VertexIndex index = new VertexIndex();
    private final Vertex root;
    private final ResourceCounter vertices;
    private final ResourceCounter edges;
    private final ResourceCounter values;
    private final ResourceCounter peers;
    private final WidePeer owner;
    private ActivityListener activity;
    /**
     * A host serving subscriptions under its mounts hears every vertex's notices itself: the
     * vertices it feeds from its boards are published by their deliveries, not by its own host
     * (the same rule as NarrowNode's).
     */
    private final boolean allLocal;
    private final ValueView view = new ValueView();
    private final ValueView pathView = new ValueView();
    /** Told of every assigned value and stale mark (the host's history), or null. */
    private ValueTap tap;
    private final ValueView tapView = new ValueView();
    private final ArrayList<Vertex> staleList = new ArrayList<>();
    /** Edges a dropped delivery left dirty ({@link Edge#dirty}), each once; the tick resends to them. */
    private final ArrayList<Edge> dirtyEdges = new ArrayList<>();
    /** The node's own stale reasons as held (shared arrays, never written into). */
    private static final byte[] PUBLISHER_GONE = Utf8.bytes(StaleReason.PUBLISHER_GONE);
    private static final byte[] NOT_FOLLOWED = Utf8.bytes(StaleReason.NOT_FOLLOWED);
    /** The vertices one tick purged, told after the sweep (reused). */
    private final ArrayList<Vertex> purged = new ArrayList<>();
    private final AnonymousIds anonymousIds;

    /** The shared FWD side (terminus, :subscribers, awaits, deliveries, remote client) over {@link WideStore}. */
    private final FwdServer server;
    private final int framesPerPoll;
    /** How often {@link #tick()} rewrites {@code /$node/stats} (0: never), and when next. */
    private final long statsPeriod;
    /** How often {@link #tick()} sweeps for subscribers whose channel is gone (0: never), and when next. */
    private final long sweepPeriod;
    private long nextSweep;
    private long nextStats;
    /** Vertices by handle (the root is 0); a removed vertex's handle is reused, like an edge's. */
    Vertex[] byId = new Vertex[64];
    private int vertexIds;
    private final IntArrayList freeVertexIds = new IntArrayList();
    /** How many vertices one remote peer's subscriptions may create and hold ({@link Vertex#creator}). */
    private final int verticesPerPeer;
    private long vertexShareRefused;
    /** The peer {@link #createForSubscription} made for its request, forgotten again when the request is discarded. */
    private WidePeer madeForRequest;
    /** Open edges by handle; freed handles are reused. */
    Edge[] edgeById = new Edge[64];
    private int edgeIds;
    private final IntArrayList freeEdgeIds = new IntArrayList();
    /** The remote callers (link index, peer) that published or hold edges, as peers of this node. */
    private final Long2ObjectHashMap<WidePeer> linkPeers = new Long2ObjectHashMap<>();
    private int inProcessPeers;
    /** Open edges in bounded mode: a publish checks their room only when there are some. */
    private int boundedEdges;
    /**
     * Values waiting in delivery-mode edges' queues, all edges together (each edge's own ceiling is
     * its maxQueued); refusals = writes refused because a bounded edge had no room.
     */
    /** {@link Names#EMPTY_STATUS}, the value a delete notice carries, as the array propagate takes. */
    private static final byte[] EMPTY_STATUS = Names.EMPTY_STATUS.copy();
    private final ResourceCounter modeQueued = new ResourceCounter("wide.modeQueued", Integer.MAX_VALUE,
            "a bounded subscription's own queue (its spectrum.queue)");

    /**
     * A node sized by {@code cfg}: its clock, frames per poll, payload cap and table ceilings (ceilings, not
     * pre-allocations: the tables grow up to them). Single-threaded: only the thread that polls it may call it
     * afterwards.
     */
    public WideNode(NodeConfig cfg) {
        clock = cfg.clock();
        framesPerPoll = cfg.framesPerPoll();
        payloadCap = cfg.payloadCap();
        maxKey = cfg.maxKeyBytes();
        staleGrace = cfg.staleGraceNanos();
        givesOrigins = cfg.givesOrigins();
        allLocal = cfg.serveSubscriptionsUnderMounts();
        verticesPerPeer = cfg.verticesPerPeer();
        vertices = new ResourceCounter("wide.vertices", cfg.maxVertices());
        edges = new ResourceCounter("wide.edges", cfg.maxSubscribers());
        values = new ResourceCounter("wide.values", cfg.valueBytes());
        peers = new ResourceCounter("wide.peers", Integer.MAX_VALUE);
        owner = new WidePeer(this, OWNER_IDENTITY, false, FwdServer.OWNER, 0);
        anonymousIds = new AnonymousIds(clock);
        root = new Vertex(new byte[0], VertexIndex.hash(new byte[0], 0, 0), null, 0, false);
        index.insert(root);
        register(root);
        vertices.taken();
        server = new FwdServer(cfg, new WideStore(this), 4); // the link table grows up to maxLinks
        server.statsOf(resources());
        statsPeriod = cfg.statsPeriodNanos();
        nextStats = clock.nanoTime();
        sweepPeriod = cfg.channelSweepNanos();
        nextSweep = clock.nanoTime() + sweepPeriod;
        byte[] b = new byte[128];
        write(CAPS, b, 0, Extensions.writeCaps(b, 0, b.length));
    }

    /**
     * A configuration with host-sized ceilings (1M vertices with keys up to 1 KiB, the most
     * {@link NodeConfig} admits together; 16M edges; 1 GiB of values; 2 MiB frames so a value at
     * the default 1 MiB payload cap is admitted); set the clock and the rest on the builder.
     */
    public static NodeConfig.Builder hostConfig() {
        return NodeConfig.builder().maxVertices(1 << 20).maxSubscribers(1 << 24).valueBytes(1 << 30)
                .maxKeyBytes(PathKeys.MAX_BODY_BYTES).frameBytes(2 << 20);
    }

    // ------------------------------------------------------------------ identified peers

    /**
     * An identified in-process caller (the ABP profile's connection). {@code name} null or empty:
     * an anonymous identity {@code anon-<8 hex>-<unix seconds>}, never handed out twice by this
     * node. Names are not exclusive: each call is its own connection (stale marking and edge
     * reaping are per connection, like ABP's channel-scoped teardown).
     *
     * @throws IllegalArgumentException for a name starting with {@code $} or {@code anon-}
     */
    public WidePeer connect(String name) {
        WidePeer p;
        if (name == null || name.isEmpty()) {
            p = new WidePeer(this, anonymousIds.next(), true, WidePeer.IN_PROCESS, ++inProcessPeers);
        } else {
            if (!AnonymousIds.nameAllowed(name)) {
                throw new IllegalArgumentException("a peer name may not start with $ or " + AnonymousIds.PREFIX + ": " + name);
            }
            p = new WidePeer(this, name, false, WidePeer.IN_PROCESS, ++inProcessPeers);
        }
        peers.taken();
        return p;
    }

    /** The identity of the vertex's last publisher ({@link #OWNER_IDENTITY} for the owner), or null. */
    public String lastPublisher(NodePath path) {
        Vertex v = find(path);
        return v == null || v.publisher == null ? null : v.publisher.identity();
    }

    /**
     * The vertices at or under {@code prefix} that hold a value or subscriber edges, sorted by path
     * (the ABP profile's {@code topic.list}); node-internal {@code $} vertices are left out.
     * Allocates (diagnostics and listings).
     */
    public List<TopicInfo> topics(NodePath prefix) {
        List<TopicInfo> out = new ArrayList<>();
        Vertex top = find(prefix);
        if (top != null) {
            collect(top, out);
        }
        out.sort((a, b) -> a.path().compareTo(b.path()));
        return out;
    }

    private void collect(Vertex v, List<TopicInfo> out) {
        if (v.reserved) {
            return;
        }
        if (v.hasValue() || v.edgeCount > 0) {
            out.add(new TopicInfo(NodePath.render(v.key, 0, v.key.length), v.edgeCount, v.hasValue(), v.seq,
                    v.publisher == null ? null : v.publisher.identity(), v.stale));
        }
        for (int i = 0; i < v.childCount; i++) {
            collect(v.children[i], out);
        }
    }

    // ------------------------------------------------------------------ Node: local API

    @Override
    public int write(NodePath path, byte[] tlv, int off, int len) {
        return publishAs(owner, path, tlv, off, len, true);
    }

    @Override
    public int write(NodePath path, byte[] tlv, int off, int len, boolean retain) {
        return publishAs(owner, path, tlv, off, len, retain);
    }

    int publishAs(WidePeer p, NodePath path, byte[] tlv, int off, int len, boolean retain) {
        server.enterFanout(); // a subscriber whose channel a send finds gone is reaped after the fan-out
        try {
            return publishAs0(p, path, tlv, off, len, retain);
        } finally {
            server.exitFanout();
        }
    }

    private int publishAs0(WidePeer p, NodePath path, byte[] tlv, int off, int len, boolean retain) {
        if (!p.connected) {
            return WireError.TRANSPORT_DOWN;
        }
        final byte[] b = path.tlv();
        final int ko = path.bodyOffset();
        final int kl = path.bodyLength();
        Vertex v = index.find(b, ko, kl);
        if (p != owner) {
            if (kl == 0 || (v != null ? v.reserved : PathKeys.hasReservedSegment(b, ko, kl))) {
                return WireError.ACCESS_DENIED; // the root and $ names are the node's own
            }
            if (v != null && v.schema != null && !v.schema.allows(AccessMask.WRITE)) {
                return WireError.ACCESS_DENIED;
            }
        }
        int r = v == null ? creatable(b, ko, kl, null) : WireError.OK;
        if (r != WireError.OK) {
            return r;
        }
        final int tl = Opt.untrailedLength(tlv, off, len);
        if (tl < 0) {
            return WireError.FRAME_INVALID;
        }
        if (v == null) {
            r = ValueAdmission.admit(null, tlv, off, tl, kl, payloadCap, server.frameLimit());
            if (r != WireError.OK) {
                return r; // a refused write creates nothing
            }
            if (boundedLacksRoom(nearestExisting(b, ko, kl))) {
                return WireError.FLOW_BACKPRESSURE; // a full bounded subscriber above: nothing created either
            }
            v = create(b, ko, kl, null);
        }
        return publish(v, tlv, off, tl, p, null, 0, 0, null, retain);
    }

    /**
     * Write = assign (value, sequence, publisher, the publisher's notice route when it gave one, and
     * freshness: not stale, unless {@code upstream} — the stamp of a delivery of this node's own
     * remote subscription, else null — marks it stale, which is stored with the upstream's reason in
     * the same step, so the fan-out never shows it as current) + answer the awaits + propagate.
     */
    int publish(Vertex v, byte[] tlv, int off, int tl, WidePeer p, byte[] route, int ro, int rl,
            io.spectrum.wire.StampView upstream, boolean retain) {
        int r = ValueAdmission.admit(v.schema, tlv, off, tl, v.key.length, payloadCap, server.frameLimit());
        if (r != WireError.OK) {
            return r;
        }
        if (boundedLacksRoom(v)) {
            return WireError.FLOW_BACKPRESSURE; // refused whole: nothing delivered, retained or numbered
        }
        if (!retain) {
            return publishUnretained(v, tlv, off, tl, p, route, ro, rl);
        }
        r = store(v, tlv, off, tl);
        if (r != WireError.OK) {
            return r;
        }
        v.seq++;
        v.valueSeq = v.seq;
        v.valuePublisher = p;
        setPublisher(v, p);
        clearStale(v);
        if (upstream != null && upstream.stale()) {
            markStale(v, clock.nanoTime(), reasonBytes(upstream.buffer(), upstream.reasonOffset(),
                    upstream.reasonLength()), true);
        }
        v.sourceSeq = upstream != null ? Math.max(0, upstream.seq()) : 0;
        v.origin = upstream != null && upstream.origin() > 0 ? upstream.origin()
                : givesOrigins ? clock.epochNanos() / 1_000_000L : 0; // docs/extensions.md "Origin time"
        setNoticeRoute(v, route, ro, rl);
        if (v.awaits > 0) {
            server.answerAwaits(v.id, v.value, 0, v.valLen);
        }
        propagate(v, v.value, v.valLen, false);
        if (tap != null) {
            tap.onValue(tapView.wrap(v.value, v.valLen, v.key, false), v.seq, v.sourceSeq, v.origin, false, null);
        }
        return WireError.OK;
    }

    /**
     * A non-retained publish (docs/node.md, "Retain: false"): it spends the next sequence number, is
     * the vertex's last publish (publisher, notice route) and goes to the current subscribers and
     * awaits, fresh and stamped with that number, but the held value, its sequence, origin and
     * publisher stay as they were, so a later subscriber is replayed the last retained value with
     * its own sequence (or nothing). With no subscriber it delivers nothing and caches nothing. It
     * clears a stale mark only when it comes from the held value's own publisher (the same connection,
     * or the same registered name come back within the grace).
     */
    private int publishUnretained(Vertex v, byte[] tlv, int off, int tl, WidePeer p, byte[] route, int ro, int rl) {
        if (v.creator != null) {
            settle(v); // it was published to: the node's, like a vertex holding a value
        }
        v.seq++;
        if (v.stale && samePublisher(v.valuePublisher, p)) {
            clearStale(v);
        }
        setPublisher(v, p);
        setNoticeRoute(v, route, ro, rl);
        final long origin = givesOrigins ? clock.epochNanos() / 1_000_000L : 0;
        if (v.awaits > 0) {
            server.answerAwaits(v.id, tlv, off, tl);
        }
        if (off != 0) {
            tlv = Arrays.copyOfRange(tlv, off, off + tl); // deliveries read the value from offset 0
        }
        propagate(v, tlv, tl, v.seq, false, origin, false, false);
        return WireError.OK;
    }

    /**
     * True when {@code p} may clear the stale mark of a value {@code held} published: the same
     * connection, or a registered (non-anonymous) one of the same name.
     */
    private static boolean samePublisher(WidePeer held, WidePeer p) {
        return held != null && (held == p || (!held.isAnonymous() && !p.isAnonymous()
                && held.identity().equals(p.identity())));
    }

    private static void setNoticeRoute(Vertex v, byte[] route, int ro, int rl) {
        if (rl <= 0) {
            v.noticeRoute = null;
        } else if (v.noticeRoute == null || v.noticeRoute.length != rl) {
            v.noticeRoute = Arrays.copyOfRange(route, ro, ro + rl);
        } else {
            System.arraycopy(route, ro, v.noticeRoute, 0, rl); // the same publisher's route: no new array per write
        }
    }

    /** Copies the trailer-less value TLV, reusing the vertex's array when it fits and is not far too big. */
    int store(Vertex v, byte[] tlv, int off, int tl) {
        final int old = Math.max(v.valLen, 0);
        if ((long) values.inUse() - old + tl > values.capacity()) {
            values.countRefused();
            return WireError.FLOW_BACKPRESSURE;
        }
        byte[] dst = v.value;
        if (dst == null || dst.length < tl || dst.length > 2 * tl + UNCHANGED_VALUE_SLACK) {
            dst = new byte[tl];
        }
        System.arraycopy(tlv, off, dst, 0, tl);
        dst[1] &= (byte) ~(Opt.TS | Opt.CR); // trailers are stripped on ingress
        v.value = dst;
        v.valLen = tl;
        v.valueSeq = v.seq;
        values.returned(old);
        values.taken(tl);
        if (v.creator != null) {
            settle(v);
        }
        return WireError.OK;
    }

    private void dropValue(Vertex v) {
        if (v.hasValue()) {
            values.returned(v.valLen);
            v.value = null;
            v.valLen = -1;
            v.origin = 0;
            v.valuePublisher = null;
        }
    }

    private void setPublisher(Vertex v, WidePeer p) {
        if (v.publisher == p) {
            return;
        }
        if (v.publisher != null && v.publisher != owner) {
            v.publisher.published.remove(v);
        }
        if (p != owner) {
            p.published.add(v);
        }
        v.publisher = p;
    }

    /** Delivers to the delivering edges of v and of every ancestor (subtree bubbling). */
    private void propagate(Vertex v, byte[] vb, int vl, boolean deleted) {
        propagate(v, vb, vl, deleted, false);
    }

    /**
     * The topic notice of v to the edges that take one ({@link FwdStore#takesTopicNotice}, the rule
     * NarrowNode asks too): its retained value stamped stale with its current sequence (a stale mark
     * is not a publish), or, {@code deleted}, the delete notice of a purge (the empty STATUS, stamp
     * op 1; the purge has already spent its fresh number).
     */
    private void topicNotice(Vertex v, boolean deleted) {
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
    private void propagate(Vertex v, byte[] vb, int vl, long seq, boolean stale, long origin, boolean deleted,
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
            offer(e, v, vb, vl, seq, stale, origin, reason, deleted);
            return true;
        }
        if ((e.flags & FwdStore.KIND_ROUTED) != 0) {
            final WidePeer h = e.holder;
            if (!server.deliver(e.word | e.flags, h.link, h.peer, e.rec, e.recLen, e.routeLen, vb, 0, vl, seq, stale,
                    origin, reason, 0, reason == null ? 0 : reason.length, deleted, v.key, 0, v.key.length)) {
                markDirty(e); // dropped and counted (a one_shot edge stays): the current value follows
                return false;
            }
            if (v == e.vertex && v.childCount == 0) {
                e.dirty = false; // its own (childless) vertex's latest value got through
            }
        } else if ((e.flags & FwdStore.KIND_LOCAL) != 0) {
            if (e.target != null && e.target != v && !deleted && store(e.target, vb, 0, vl) == WireError.OK) {
                e.target.origin = origin; // delivery ends at the target: no re-fan-out
            }
        } else {
            e.listener.onValue(e, view.wrap(vb, vl, v.key, deleted), seq, stale);
        }
        if ((e.word & DeliveryPolicy.ONE_SHOT) != 0 && e.open) {
            remove(e); // a one_shot edge goes after its first delivery
        }
        return true;
    }

    // ------------------------------------------------------------------ delivery modes (docs/extensions.md)

    /**
     * True when a delivering bounded edge of v or of an ancestor (every edge a write of v reaches)
     * has no room for one more value; counted in {@link #modeRefused()}.
     */
    private boolean boundedLacksRoom(Vertex v) {
        if (boundedEdges == 0 || v.listeners == 0) {
            return false;
        }
        for (Vertex a = v; a != null; a = a.parent) {
            if (a.ownSubs == 0) {
                continue;
            }
            for (int i = 0; i < a.edgeEnd; i++) {
                final Edge e = a.edges[i];
                if (e != null && e.mode != null && e.delivering() && e.mode.full()) {
                    modeQueued.countRefused();
                    return true;
                }
            }
        }
        return false;
    }

    /** The deepest existing vertex on the way to key {@code b[off, +len)} (the root at worst). */
    private Vertex nearestExisting(byte[] b, int off, int len) {
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

    /**
     * A value for a mode edge: sent at once when nothing waits and a credit is free, else queued
     * (latest replaces) behind what waits.
     */
    private void offer(Edge e, Vertex v, byte[] vb, int vl, long seq, boolean stale, long origin, byte[] reason,
            boolean deleted) {
        final ModeQueue m = e.mode;
        if (m.queue.isEmpty() && m.canSend() && sendNumbered(e, m, v, vb, vl, seq, stale, origin, reason, deleted)) {
            return;
        }
        if (m.offer(new ModeQueue.Entry(v, Arrays.copyOf(vb, vl), seq, stale, origin, reason, deleted))) {
            modeQueued.taken();
        }
        drain(e); // values the holder's rate held back go first, as far as credits and the rate allow
    }

    /** Sends queued values while credits allow. */
    private void drain(Edge e) {
        final ModeQueue m = e.mode;
        while (m != null && e.mode == m && e.delivering() && !m.queue.isEmpty() && m.canSend()) {
            final ModeQueue.Entry q = m.queue.pollFirst(); // off the queue first: a one_shot send reaps the edge
            modeQueued.returned();
            if (!sendNumbered(e, m, q.written, q.value, q.value.length, q.seq, q.stale, q.origin, q.reason, q.deleted)) {
                m.queue.addFirst(q); // over the holder's outbound rate: it stays first, sent by the tick when the share refills
                modeQueued.taken();
                markDirty(e);
                return;
            }
        }
    }

    /** One numbered delivery (dlv = delivered + 1, with the replaced count); false when the holder's rate refused it. */
    private boolean sendNumbered(Edge e, ModeQueue m, Vertex written, byte[] vb, int vl, long seq, boolean stale,
            long origin, byte[] reason, boolean deleted) {
        final WidePeer h = e.holder;
        if (!server.deliverNumbered(e.word | e.flags, h.link, h.peer, e.rec, e.recLen, e.routeLen, vb, 0, vl, seq,
                stale, origin, reason, 0, reason == null ? 0 : reason.length, deleted, written.key, 0, written.key.length,
                m.delivered + 1, m.replaced)) {
            return false;
        }
        m.delivered++;
        m.replaced = 0;
        if ((e.word & DeliveryPolicy.ONE_SHOT) != 0 && e.open) {
            remove(e);
        }
        return true;
    }

    /** Gives a just-admitted FWD edge its mode (a packed {@link io.spectrum.wire.DeliveryMode}). */
    void setMode(Edge e, long packed) {
        dropMode(e);
        e.mode = new ModeQueue(packed);
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
            modeQueued.returned(e.mode.queue.size());
            modeQueued.countDropped(e.mode.queue.size()); // queued values that will never be sent
            e.mode = null;
        }
    }

    /**
     * The consumed message (cumulative, idempotent): credits up to {@code upTo} come back and queued
     * values go out. Quantity: the edge's last delivery number after that, or -PATH_INVALID.
     */
    long consume(Edge e, long upTo) {
        final ModeQueue m = e.mode;
        if (m == null) {
            return -WireError.SCHEMA_TYPE_MISMATCH;
        }
        if (!m.consume(upTo)) {
            return -WireError.PATH_INVALID; // never delivered: nothing changes
        }
        drain(e); // may reap a one_shot edge: m still holds its numbers
        return m.delivered;
    }

    /** Publishes and notifying clears refused with FLOW_BACKPRESSURE because a bounded edge had no room. */
    public long modeRefused() {
        return modeQueued.refused();
    }

    @Override
    public int declare(NodePath path, VertexSchema schema) {
        if (schema == null) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        Vertex v = resolveOrCreate(path);
        if (v == null) {
            return lastRefusal;
        }
        VertexSchema before = v.schema;
        v.schema = schema;
        if (v.hasValue()) {
            int r = ValueAdmission.admit(schema, v.value, 0, v.valLen, v.key.length, payloadCap, server.frameLimit());
            if (r != WireError.OK) {
                v.schema = before;
                return r;
            }
        }
        settle(v);
        return WireError.OK;
    }

    @Override
    public int report(NodePath path, VertexSchema othersDeclaration) {
        Vertex v = find(path);
        if (v == null) {
            return WireError.PATH_NOT_FOUND;
        }
        v.reported = othersDeclaration; // what :settings.app and :schema answer when v has no declaration
        if (othersDeclaration != null) {
            settle(v);
        }
        return WireError.OK;
    }

    @Override
    public VertexSchema declaration(NodePath path) {
        Vertex v = find(path);
        return v == null ? null : v.schema;
    }

    @Override
    public int read(NodePath path, byte[] dst, int off, int cap) {
        Vertex v = find(path);
        if (v == null || !v.hasValue()) {
            return NodeResult.refusal(WireError.PATH_NOT_FOUND);
        }
        if (v.valLen > cap) {
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        System.arraycopy(v.value, 0, dst, off, v.valLen);
        return v.valLen;
    }

    @Override
    public int readTree(NodePath path, byte[] dst, int off, int cap) {
        Vertex v = find(path);
        if (v == null || !server.composes(v.id)) {
            return read(path, dst, off, cap);
        }
        return server.composedCopy(v.id, dst, off, cap); // the one composed-tree writer, shared with NarrowNode
    }

    @Override
    public Subscription subscribe(NodePath path, int policy, ValueListener listener) {
        return subscribeAs(owner, path, policy, listener);
    }

    Subscription subscribeAs(WidePeer p, NodePath path, int policy, ValueListener listener) {
        if (!p.connected) {
            return Edge.refused(this, path, listener, p, WireError.TRANSPORT_DOWN);
        }
        final int word = policy & 0xFFFF;
        Vertex v = find(path);
        if (p != owner && v != null) {
            if (v.schema != null && !v.schema.allows(AccessMask.SUBSCRIBE)) {
                return Edge.refused(this, path, listener, p, WireError.ACCESS_DENIED);
            }
            Edge dup = duplicate(p, v, word, listener);
            if (dup != null) {
                return dup; // the existing edge, its state untouched: no second replay, no second notice
            }
        }
        if (v == null) {
            v = resolveOrCreate(path);
            if (v == null) {
                return Edge.refused(this, path, listener, p, lastRefusal);
            }
        }
        if (edges.inUse() >= edges.capacity()) {
            edges.countRefused();
            return Edge.refused(this, path, listener, p, WireError.FLOW_BACKPRESSURE);
        }
        Edge e = new Edge(this, v, path, word, listener, p);
        e.pos = v.place(e);
        e.gen = ++v.admissions;
        e.open = true;
        register(e);
        edges.taken();
        if (p != owner) {
            p.edges.add(e);
        }
        if (e.delivering()) {
            adjust(v, 1);
            latch(e, v); // the durability latch
        }
        return e;
    }

    private static Edge duplicate(WidePeer p, Vertex v, int word, ValueListener listener) {
        for (int i = 0; i < v.edgeEnd; i++) {
            Edge e = v.edges[i];
            if (e != null && e.holder == p && e.listener == listener
                    && DeliveryPolicy.masked(e.word) == DeliveryPolicy.masked(word)) {
                return e;
            }
        }
        return null;
    }

    int unsubscribeAs(WidePeer p, NodePath path) {
        Vertex v = find(path);
        if (v == null || p == owner) {
            return WireError.OK;
        }
        for (int i = v.edgeEnd - 1; i >= 0; i--) {
            Edge e = v.edges[i];
            if (e != null && e.holder == p) {
                remove(e);
            }
        }
        return WireError.OK;
    }

    /** Reaps an edge (close, one_shot fire, its peer's disconnect). */
    void remove(Edge e) {
        if (!e.open) {
            return;
        }
        final boolean wasDelivering = e.delivering();
        dropMode(e);
        e.vertex.unplace(e.pos);
        e.open = false;
        unregister(e);
        edges.returned();
        if (e.holder != owner) {
            e.holder.edges.remove(e);
        }
        server.returnSlot(e.holder.link, e.holder.peer); // a remote holder's share (others have none)
        if (wasDelivering) {
            adjust(e.vertex, -1);
        }
        prune(e.vertex);
    }

    /** The toggle: bit 9 of the edge's word, plus the delivering counts. Nothing is replayed. */
    int setSuspended(Edge e, boolean suspended) {
        if (e.isSuspended() == suspended) {
            return WireError.OK;
        }
        e.word = DeliveryPolicy.withSuspended(e.word, suspended);
        if (suspended && e.mode != null) {
            modeQueued.returned(e.mode.queue.size());
            modeQueued.countDropped(e.mode.queue.size()); // queued values that will never be sent
            e.mode.queue.clear(); // a suspended edge holds nothing; nothing is replayed on resume
            e.mode.replaced = 0;
        }
        adjust(e.vertex, suspended ? -1 : 1);
        return WireError.OK;
    }

    /** Changes the delivering count of v's own edges and every listener count in its subtree. */
    private void adjust(Vertex v, int delta) {
        v.ownSubs += delta;
        adjustSubtree(v, delta);
    }

    private void adjustSubtree(Vertex d, int delta) {
        final int old = d.listeners;
        final int now = old + delta;
        d.listeners = now;
        if (old == 0 && now > 0) {
            notice(d, true, now);
        } else if (old > 0 && now == 0) {
            notice(d, false, 0);
        }
        for (int i = 0; i < d.childCount; i++) {
            adjustSubtree(d.children[i], delta);
        }
    }

    /** Active / idle notice to the vertex's last publisher, when it is still connected. */
    private void notice(Vertex v, boolean active, int n) {
        if (allLocal) {
            if (activity != null) {
                activity.onActivity(pathView.wrap(null, 0, v.key, false), active, n);
            }
            return;
        }
        final WidePeer p = v.publisher;
        if (p == null || !p.connected) {
            return;
        }
        if (p.link >= 0) {
            if (v.noticeRoute != null) { // a remote publisher that asked: a FWD notice at its route
                server.notice(p.link, p.peer, v.noticeRoute, 0, v.noticeRoute.length, active, v.key, 0, v.key.length, n);
            }
            return;
        }
        final ActivityListener to = p == owner ? activity : p.activity;
        if (to != null) {
            to.onActivity(pathView.wrap(null, 0, v.key, false), active, n);
        }
    }

    @Override
    public int clear(NodePath path, boolean notify) {
        server.enterFanout();
        try {
            return clear0(path, notify);
        } finally {
            server.exitFanout();
        }
    }

    private int clear0(NodePath path, boolean notify) {
        Vertex v = find(path);
        if (v == null) {
            return WireError.OK;
        }
        if (notify && boundedLacksRoom(v)) {
            return WireError.FLOW_BACKPRESSURE; // the notice is a publish: refused whole, the value stays
        }
        dropValue(v);
        clearStale(v);
        if (notify) {
            v.seq++; // a notifying clear spends a fresh number, held value or not
            propagate(v, EMPTY_STATUS, EMPTY_STATUS.length, true);
        }
        return WireError.OK;
    }

    @Override
    public long sequence(NodePath path) {
        Vertex v = find(path);
        return v == null ? 0 : v.seq;
    }

    @Override
    public boolean isStale(NodePath path) {
        Vertex v = find(path);
        return v != null && v.stale;
    }

    @Override
    public long origin(NodePath path) {
        Vertex v = find(path);
        return v == null ? 0 : v.origin;
    }

    @Override
    public int markStale(NodePath path, CharSequence reason) {
        Vertex v = find(path);
        if (v == null || !v.hasValue() && v.schema == null) {
            return WireError.PATH_NOT_FOUND; // a declared vertex without a value yet may be marked: "no value yet, and why"
        }
        if (markStale(v, clock.nanoTime(), reasonBytes(reason), true)) {
            topicNotice(v, false);
        }
        return WireError.OK;
    }

    @Override
    public int staleReason(NodePath path, byte[] dst, int off, int cap) {
        Vertex v = find(path);
        if (v == null || !v.stale || v.staleReason == null) {
            return 0;
        }
        if (v.staleReason.length > cap) {
            return -WireError.FLOW_BACKPRESSURE;
        }
        System.arraycopy(v.staleReason, 0, dst, off, v.staleReason.length);
        return v.staleReason.length;
    }

    /** An upstream's stale mark of v with the UTF-8 reason {@code b[off, +len)} (FwdStore#markStale). */
    void markStale(Vertex v, byte[] b, int off, int len, boolean kept) {
        if (markStale(v, clock.nanoTime(), reasonBytes(b, off, len), kept)) {
            topicNotice(v, false);
        }
    }

    /** An upstream's UTF-8 reason {@code b[off, +len)} as the node holds it: cut at {@link StaleReason#MAX_BYTES}. */
    private static byte[] reasonBytes(byte[] b, int off, int len) {
        int n = Math.min(len, StaleReason.MAX_BYTES);
        while (n < len && n > 0 && (b[off + n] & 0xC0) == 0x80) {
            n--; // never half a character
        }
        return Arrays.copyOfRange(b, off, off + n);
    }

    /** A reason as the node holds it: UTF-8 cut at {@link StaleReason#MAX_BYTES}. */
    private static byte[] reasonBytes(CharSequence reason) {
        byte[] b = new byte[StaleReason.MAX_BYTES];
        return Arrays.copyOf(b, StaleReason.encode(reason, b, 0));
    }

    /**
     * Marks v stale from {@code now} with {@code reason} when it holds a value (or, the owner's mark
     * only, when it is declared and holds none yet: no value yet, and why); the one place both
     * kinds of mark are made (NarrowNode's TopicState#markStale is the same rule). The node's own marks
     * ({@code byOwner} false: a departed publisher, a subscription gap) leave a stale vertex as it is and
     * are purged after the grace; the owner's mark is kept until the next publish and replaces the reason
     * of a stale vertex. True when the edges that take topic notices must be told (a new mark or a
     * changed reason).
     */
    private boolean markStale(Vertex v, long now, byte[] reason, boolean byOwner) {
        if (!v.hasValue() && !(byOwner && v.schema != null) || v.stale && !byOwner) {
            return false;
        }
        if (v.stale) {
            v.staleKept = true;
            if (Arrays.equals(v.staleReason, reason)) {
                return false;
            }
        } else {
            v.stale = true;
            v.staleKept = byOwner;
            v.staleSince = now;
            if (!byOwner) {
                staleList.add(v); // the purge sweep's list; an owner's mark is never purged
            }
        }
        v.staleReason = reason;
        if (tap != null) {
            tap.onValue(tapView.wrap(v.value, v.valLen, v.key, false), v.seq, v.sourceSeq, v.origin, true, reason);
        }
        return true;
    }

    private static void clearStale(Vertex v) {
        v.stale = false;
        v.staleKept = false;
        v.staleReason = null;
    }

    @Override
    public int listenerCount(NodePath path) {
        Vertex v = find(path);
        return v == null ? 0 : v.listeners;
    }

    /**
     * Sets the one {@link ValueTap} told of every value this node assigns and every stale mark it
     * makes (null: none). Node thread.
     */
    public void setValueTap(ValueTap t) {
        tap = t;
    }

    @Override
    public void setActivityListener(ActivityListener listener) {
        activity = listener;
    }

    /**
     * Runs timers: purges the values whose publisher did not come back within the grace. A purge is
     * the node's notifying clear: the value goes, a fresh sequence number is spent
     * and the delete notice goes to the edges that take topic notices. A declared vertex
     * (its own declaration or a reported one) is never purged: it stays stale until a fresh value
     * comes (docs/node.md, "Declared vertices keep their value").
     */
    @Override
    public void tick() {
        final long now = clock.nanoTime();
        server.expireAwaits(now);
        purged.clear();
        for (int i = staleList.size() - 1; i >= 0; i--) {
            Vertex v = staleList.get(i);
            if (v.stale && !v.staleKept && now - v.staleSince < staleGrace) {
                continue;
            }
            if (v.stale && !v.staleKept && v.schema == null && v.reported == null) { // a declared vertex is kept, stale
                dropValue(v);
                clearStale(v);
                v.seq++;
                purged.add(v);
            }
            staleList.set(i, staleList.get(staleList.size() - 1));
            staleList.remove(staleList.size() - 1);
        }
        for (int i = 0; i < purged.size(); i++) { // after the sweep: a listener may touch staleList
            topicNotice(purged.get(i), true);
        }
        purged.clear();
        if (statsPeriod > 0 && now - nextStats >= 0) {
            nextStats = now + statsPeriod;
            refreshStats();
        }
        if (sweepPeriod > 0 && now - nextSweep >= 0) {
            nextSweep = now + sweepPeriod;
            server.sweepGoneHolders(); // subscribers whose channel is gone though their link never said so
        }
        resendDirty();
        server.reapGoneHolders(); // what the purge notices and resends found gone
    }

    private void markDirty(Edge e) {
        if (!e.dirty) {
            e.dirty = true;
            dirtyEdges.add(e);
        }
    }

    /**
     * Writes the node's overload counters to {@code /$node/stats} now: the same SETTINGS tree a
     * NARROW node serves (every table's capacity, in use, peak, refused and dropped, the router, every link,
     * every peer's share). {@link #tick()} calls it every {@link NodeConfig#statsPeriodNanos()}.
     *
     * @return status: OK, or the write's refusal
     */
    public int refreshStats() {
        int n = server.renderStats(server.frameLimit() - 36 - 2 * STATS.bodyLength());
        if (n < 0) {
            return -n;
        }
        return write(STATS, server.statsBuffer(), 0, n);
    }

    /**
     * Latest-value coalescing for the dirty edges (docs/node.md, "Dirty edges"), NarrowNode's rule
     * (Fanout#resendDirty): an edge whose holder's share has a delivery again is sent the current
     * value of its vertex once, with the current sequence and stale mark, never the dropped backlog;
     * for an edge on a vertex with children each vertex of the subtree that holds a value; for a
     * childless vertex that holds none, the delete notice. A mode edge sends what its queue holds
     * (its credits permitting). Dropped again: it stays dirty. A closed or suspended edge is owed nothing.
     */
    private void resendDirty() {
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
                    drain(e);
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

    /**
     * A peer's connection went: its edges are reaped, then what it last published goes stale from
     * now and the edges that take topic notices get each one's stale notice (same sequence); a
     * vertex this node declared keeps its value, fresh (its value is the node's state).
     */
    void disconnect(WidePeer p) {
        if (!p.connected || p == owner) {
            return;
        }
        final long now = clock.nanoTime();
        p.connected = false;
        for (Edge e : p.edges.toArray(new Edge[0])) {
            remove(e);
        }
        final int from = staleList.size();
        for (Vertex v : p.published) {
            if (v.schema == null) { // a vertex this node declared holds its state
                markStale(v, now, PUBLISHER_GONE, false);
            }
        }
        p.published.clear();
        peers.returned();
        final int to = staleList.size();
        for (int i = from; i < to && i < staleList.size(); i++) { // after the marks: a listener may publish
            Vertex v = staleList.get(i);
            if (v.stale) {
                topicNotice(v, false);
            }
        }
    }

    /**
     * Remote holder (link index, peer) has a channel that is gone without its link saying so: its
     * edges are reaped as on its departure (active / idle follow the counts, once), and nothing else
     * of it changes (docs/node.md, "A subscriber's channel gone").
     */
    void holderGone(int li, int peer) {
        WidePeer p = linkPeers.get(peerKey(li, peer));
        if (p == null) {
            return;
        }
        for (Edge e : p.edges.toArray(new Edge[0])) {
            remove(e);
        }
    }

    // ------------------------------------------------------------------ Node: links

    /** Attaches a link (the table grows up to maxLinks). Status: OK or FLOW_BACKPRESSURE at the ceiling. */
    @Override
    public int attach(Link link) {
        int r = server.attach(link);
        if (r == WireError.OK) {
            link.setPeerListener(this);
        }
        return r;
    }

    /** Reads every attached link once (up to framesPerPoll frames each) and serves what came. Quantity. */
    @Override
    public int poll() {
        return server.poll(this, framesPerPoll);
    }

    @Override
    public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
        server.onFrame(link, peer, buf, off, len);
    }

    @Override
    public int subscribeRemote(Link link, int peer, NodePath remotePath, NodePath localTarget, int policy) {
        int li = server.linkIndex(link);
        if (li < 0) {
            return NodeResult.refusal(WireError.TRANSPORT_DOWN);
        }
        if (resolveOrCreate(localTarget) == null) {
            return NodeResult.refusal(lastRefusal);
        }
        return server.subscribeRemote(li, peer, remotePath, localTarget, policy);
    }

    @Override
    public void onPeerUp(Link link, int peer) {
        int li = server.linkIndex(link);
        if (li >= 0) {
            server.peerUp(li, peer);
        }
    }

    /**
     * The peer went: its edges are reaped (RFC-0035 reaping trigger 4), what it last published goes
     * stale (purged after the grace), its awaits go unanswered, its announcement is forgotten.
     */
    @Override
    public void onPeerDown(Link link, int peer) {
        int li = server.linkIndex(link);
        if (li < 0) {
            return;
        }
        WidePeer p = linkPeers.remove(peerKey(li, peer));
        if (p != null) {
            disconnect(p);
        }
        server.peerDown(li, peer);
    }

    /** The shared FWD side this node serves its links with (shares, counters). */
    @Override
    public FwdServer server() {
        return server;
    }

    /** True when the vertex exists (diagnostics, tests). */
    @Override
    public boolean exists(NodePath path) {
        return find(path) != null;
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public NodeLinkStats linkStats(Link link) {
        return server.linkStats(link);
    }

    @Override
    public BoundedResource[] resources() {
        BoundedResource[] fwd = server.resources();
        BoundedResource[] all = Arrays.copyOf(new BoundedResource[] {vertices, edges, values, peers, modeQueued},
                5 + fwd.length);
        System.arraycopy(fwd, 0, all, 5, fwd.length);
        return all;
    }

    @Override
    public void close() {
        server.clearLinks();
    }

    // ------------------------------------------------------------------ handles and remote peers

    private static long peerKey(int li, int peer) {
        return ((long) li << 32) | (peer & 0xFFFFFFFFL);
    }

    /** The peer of this node that remote caller (link index, peer) is, made on first use; the owner for OWNER. */
    WidePeer linkPeer(int li, int peer) {
        if (li == FwdServer.OWNER) {
            return owner;
        }
        final long k = peerKey(li, peer);
        WidePeer p = linkPeers.get(k);
        if (p == null) {
            p = new WidePeer(this, "link" + server.linkId(li) + "/" + peer, false, li, peer);
            linkPeers.put(k, p);
            peers.taken();
        }
        return p;
    }

    /** True when remote caller (link index, peer) is a peer of this node already (the owner always is). */
    boolean knowsLinkPeer(int li, int peer) {
        return li == FwdServer.OWNER || linkPeers.containsKey(peerKey(li, peer));
    }

    /** Drops the peer {@link #linkPeer} just made for a request that was refused (it holds and published nothing). */
    void forgetLinkPeer(int li, int peer) {
        WidePeer p = linkPeers.get(peerKey(li, peer));
        if (p != null && p.edges.isEmpty() && p.published.isEmpty() && p.created == 0) {
            linkPeers.remove(peerKey(li, peer));
            peers.returned();
        }
    }

    /**
     * Remote caller (link index, peer) announced its name ({@code spectrum.name}, docs/extensions.md
     * "Peer name"): from now on it is the {@link WidePeer} of that name, so a client that comes back
     * from a new address and publishes is the same last publisher (its values' stale marks clear
     * within the grace). Remembered per (link, peer) until the peer goes down; its edges are still
     * reaped per (link, peer). A name a connection may not take ({@code $…}, {@code anon-…}) is
     * ignored: the caller stays {@code link<id>/<peer>}. Allocates only when the name changes.
     */
    void namePeer(int li, int peer, byte[] b, int off, int len) {
        if (li == FwdServer.OWNER || !AnonymousIds.nameAllowed(b, off, len)) {
            return;
        }
        linkPeer(li, peer).name(b, off, len);
    }

    private void register(Vertex v) {
        final int id = freeVertexIds.isEmpty() ? vertexIds++ : freeVertexIds.popInt();
        if (id >= byId.length) {
            byId = Arrays.copyOf(byId, byId.length * 2);
        }
        v.id = id;
        byId[id] = v;
    }

    void register(Edge e) {
        final int id = freeEdgeIds.isEmpty() ? edgeIds++ : freeEdgeIds.popInt();
        if (id >= edgeById.length) {
            edgeById = Arrays.copyOf(edgeById, edgeById.length * 2);
        }
        e.id = id;
        edgeById[id] = e;
    }

    private void unregister(Edge e) {
        if (e.id >= 0) {
            edgeById[e.id] = null;
            freeEdgeIds.addInt(e.id);
            e.id = -1;
        }
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
     * Undoes the mkdir -p of a refused request: removes vertex {@code id} and then its ancestors while
     * their keys are longer than {@code keepKeyLen} (those the request created) and they hold nothing
     * ({@link Vertex#bare}); anything else stays. A peer {@link #createForSubscription} made for the
     * request goes with it when it holds nothing.
     */
    void discard(int id, int keepKeyLen) {
        Vertex v = byId[id];
        while (v != root && v.key.length > keepKeyLen && v.bare()) {
            final Vertex parent = v.parent;
            unlink(v);
            v = parent;
        }
        final WidePeer made = madeForRequest;
        madeForRequest = null;
        if (made != null) {
            forgetLinkPeer(made.link, made.peer);
        }
    }

    /**
     * Vertices a subscription created (docs/node.md, "Vertices a subscription created"): once such a
     * vertex holds nothing ({@link Vertex#bare}: its last slot went, it never had a value, a
     * declaration or a reported one) it goes, and so do its ancestors that the same kind of request
     * created and that hold nothing either. Called when an edge of v goes.
     */
    private void prune(Vertex v) {
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
            notice(v, false, 0);
        }
        index.remove(v);
        v.parent.removeChild(v);
        byId[v.id] = null;
        freeVertexIds.addInt(v.id);
        v.id = -1;
        vertices.returned();
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

    /** Subscription appends refused because their peer's vertex share was used up ({@link NodeConfig#verticesPerPeer()}). */
    public long vertexShareRefused() {
        return vertexShareRefused;
    }

    /** The number of vertices in the tree, the root included (tests). */
    int vertexCount() {
        return (int) vertices.inUse();
    }

    /**
     * The mkdir -p of a subscription append under a mount by remote caller (link index li, peer)
     * (FwdStore#createForSubscription): the vertices it creates are that peer's
     * ({@link Vertex#creator}), refused with FLOW_BACKPRESSURE past its {@link NodeConfig#verticesPerPeer()}.
     * Quantity.
     */
    int createForSubscription(byte[] b, int off, int len, int li, int peer) {
        madeForRequest = null;
        Vertex v = index.find(b, off, len);
        if (v != null) {
            return v.id;
        }
        final boolean known = knowsLinkPeer(li, peer);
        final WidePeer creator = li == FwdServer.OWNER ? null : linkPeer(li, peer);
        int r = creatable(b, off, len, creator);
        if (r != WireError.OK) {
            if (!known) {
                forgetLinkPeer(li, peer);
            }
            return NodeResult.refusal(r);
        }
        if (!known) {
            madeForRequest = creator;
        }
        return create(b, off, len, creator).id;
    }

    Vertex vertexAt(int id) {
        return byId[id];
    }

    Vertex findKey(byte[] b, int off, int len) {
        return index.find(b, off, len);
    }

    WidePeer ownerPeer() {
        return owner;
    }

    ResourceCounter edgeCounter() {
        return edges;
    }

    /**
     * A remote subscription feeding v has a gap: v goes stale from now until its next delivery, and
     * the edges that take topic notices are told at once.
     */
    void markGap(Vertex v) {
        if (markStale(v, clock.nanoTime(), NOT_FOLLOWED, false)) {
            topicNotice(v, false);
        }
    }

    /** Changes the delivering count of v's own edges (an admitted or replaced FWD edge). */
    void adjustDelivering(Vertex v, int delta) {
        adjust(v, delta);
    }

    // ------------------------------------------------------------------ vertices

    private Vertex find(NodePath path) {
        return index.find(path.tlv(), path.bodyOffset(), path.bodyLength());
    }

    /** The refusal of the last {@link #resolveOrCreate} that answered null (single-threaded). */
    private int lastRefusal;

    private Vertex resolveOrCreate(NodePath path) {
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

    /**
     * Whether the key and its missing ancestors may be created: OK, PATH_INVALID or FLOW_BACKPRESSURE
     * (the table, counted in its refusals, or, for a {@code creator}, its share of vertices, counted
     * in {@link #vertexShareRefused()}).
     */
    private int creatable(byte[] b, int off, int len, WidePeer creator) {
        if (PathKeys.validateKey(b, off, len) != WireError.OK || len > maxKey) {
            vertices.countRefused();
            return WireError.PATH_INVALID;
        }
        int missing = 0;
        int p = 0;
        while (p < len) {
            p += 1 + (b[off + p] & 0xFF);
            if (index.find(b, off, p) == null) {
                missing++;
            }
        }
        if ((long) vertices.inUse() + missing > vertices.capacity()) {
            vertices.countRefused();
            return WireError.FLOW_BACKPRESSURE;
        }
        if (creator != null && (long) creator.created + missing > verticesPerPeer) {
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
    private Vertex create(byte[] b, int off, int len, WidePeer creator) {
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
                register(c);
                vertices.taken();
                if (creator != null) {
                    c.creator = creator;
                    creator.created++;
                }
            }
            parent = c;
        }
        return parent;
    }
}
