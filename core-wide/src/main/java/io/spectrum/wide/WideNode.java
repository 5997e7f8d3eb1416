package io.spectrum.wide;

import io.spectrum.link.Link;
import io.spectrum.link.NodeLinkStats;
import io.spectrum.node.fwd.FwdServer;
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
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
 *
 * <p>This class is the facade: it holds the publish and subscribe paths, the values and the
 * {@link Node} and link API, and hands each other concern to one package-private piece:
 * {@link Handles} (the vertex and edge handle tables and their counters), {@link VertexTree}
 * (find, mkdir -p, taking out the vertices that hold nothing), {@link PeerTable} (the owner, the
 * connections and the remote callers as peers), {@link ActivityNotices} (delivering counts and
 * active / idle notices), {@link WideFanout} (the fan-out, the latch, the dirty-edge resend) with its
 * {@link DeliveryModes}, and {@link StaleMarks} (stale marks and their purge).
 */
public final class WideNode implements ServingNode {
    /** The identity the owner's in-process writes publish under ({@code $}: no peer can register it). */
    public static final String OWNER_IDENTITY = "$owner";
    private static final NodePath CAPS = NodePath.of(Names.CAPS_PATH);
    private static final NodePath STATS = NodePath.of(Names.STATS_PATH);
    private static final int UNCHANGED_VALUE_SLACK = 64;

    private final Clock clock;
    private final int payloadCap;
    /** This node gives a value that arrives without an origin time its clock's ({@code NodeConfig#givesOrigins}). */
    private final boolean givesOrigins;

    /** The vertex and edge handle tables and their counters. */
    final Handles handles;
    /** The vertex tree: find, mkdir -p, and taking out the vertices that hold nothing. */
    final VertexTree tree;
    /** The owner, the in-process connections and the remote callers, as peers. */
    final PeerTable peers;
    /** The delivering counts and the active / idle notices. */
    final ActivityNotices activity;
    /** The fan-out: propagate, topic notices, the latch, the dirty-edge resend. */
    final WideFanout fanout;
    /** The delivery modes of the mode edges ({@link WideFanout}'s). */
    final DeliveryModes modes;
    /** The stale marks and their purge. */
    final StaleMarks stale;
    private final ResourceCounter values;
    private final WidePeer owner;
    /** Told of every assigned value and stale mark (the host's history), or null. */
    private ValueTap tap;
    private final ValueView tapView = new ValueView();

    /** The shared FWD side (terminus, :subscribers, awaits, deliveries, remote client) over {@link WideStore}. */
    private final FwdServer server;
    /** The grants of the client doors ({@link #restrict}), made and handed to the FWD side on first use. */
    private ClientGate gate;
    private final int framesPerPoll;
    /** How often {@link #tick()} rewrites {@code /$node/stats} (0: never), and when next. */
    private final long statsPeriod;
    /** How often {@link #tick()} sweeps for subscribers whose channel is gone (0: never), and when next. */
    private final long sweepPeriod;
    private long nextSweep;
    private long nextStats;

    /**
     * A node sized by {@code cfg}: its clock, frames per poll, payload cap and table ceilings (ceilings, not
     * pre-allocations: the tables grow up to them). Single-threaded: only the thread that polls it may call it
     * afterwards.
     */
    public WideNode(NodeConfig cfg) {
        clock = cfg.clock();
        framesPerPoll = cfg.framesPerPoll();
        payloadCap = cfg.payloadCap();
        givesOrigins = cfg.givesOrigins();
        handles = new Handles(cfg.maxVertices(), cfg.maxSubscribers());
        values = new ResourceCounter("wide.values", cfg.valueBytes());
        server = new FwdServer(cfg, new WideStore(this), 4); // the link table grows up to maxLinks
        peers = new PeerTable(this, server, clock);
        owner = peers.owner;
        activity = new ActivityNotices(cfg.serveSubscriptionsUnderMounts(), owner, server);
        tree = new VertexTree(handles, peers, activity, cfg.maxKeyBytes(), cfg.verticesPerPeer());
        fanout = new WideFanout(this, server);
        modes = fanout.modes;
        stale = new StaleMarks(this, fanout, clock, cfg.staleGraceNanos());
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
        return peers.connect(name);
    }

    /** The identity of the vertex's last publisher ({@link #OWNER_IDENTITY} for the owner), or null. */
    public String lastPublisher(NodePath path) {
        Vertex v = tree.find(path);
        return v == null || v.publisher == null ? null : v.publisher.identity();
    }

    /**
     * The vertices at or under {@code prefix} that hold a value or subscriber edges, sorted by path
     * (the ABP profile's {@code topic.list}); node-internal {@code $} vertices are left out.
     * Allocates (diagnostics and listings).
     */
    public List<TopicInfo> topics(NodePath prefix) {
        List<TopicInfo> out = new ArrayList<>();
        Vertex top = tree.find(prefix);
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
        final byte[] b = path.tlv();
        final int ko = path.bodyOffset();
        final int kl = path.bodyLength();
        Vertex v = tree.find(b, ko, kl);
        final int tl = admitted(p, b, ko, kl, v, tlv, off, len, false);
        if (tl < 0) {
            return -tl; // a refused write creates nothing
        }
        if (v == null) {
            v = tree.create(b, ko, kl, null);
        }
        return publish(v, tlv, off, tl, p, null, 0, 0, null, retain);
    }

    /**
     * What {@link WidePeer#publish} of this value would answer, decided without changing anything:
     * {@link WireError#OK} when the node would take it now (the same checks in the same order: the
     * connection, the node's own names and declared rights, the path, the value's size and schema,
     * and room in every bounded subscriber it would reach). A caller that must commit something of
     * its own before publishing asks this first, on the node's thread, and then publishes.
     */
    public int admits(WidePeer p, NodePath path, byte[] tlv, int off, int len) {
        final byte[] b = path.tlv();
        final int ko = path.bodyOffset();
        final int kl = path.bodyLength();
        final int tl = admitted(p, b, ko, kl, tree.find(b, ko, kl), tlv, off, len, true);
        return tl < 0 ? -tl : WireError.OK;
    }

    /**
     * The checks of {@code p}'s publish of {@code tlv} to key {@code b[ko, +kl)} (v: its vertex, or
     * null) that come before anything changes: the writer, the value's frame, and, for a vertex the
     * write would create (or any vertex when {@code existingToo}: {@link #publish} checks an existing
     * one itself), the value's admission and room in the bounded subscribers it would reach.
     *
     * @return the value's length without its trailer, or a negated refusal
     */
    private int admitted(WidePeer p, byte[] b, int ko, int kl, Vertex v, byte[] tlv, int off, int len,
            boolean existingToo) {
        int r = writable(p, b, ko, kl, v);
        if (r != WireError.OK) {
            return -r;
        }
        final int tl = Opt.untrailedLength(tlv, off, len);
        if (tl < 0) {
            return -WireError.FRAME_INVALID;
        }
        if (v == null || existingToo) {
            r = ValueAdmission.admit(v == null ? null : v.schema, tlv, off, tl, kl, payloadCap, server.frameLimit());
            if (r != WireError.OK) {
                return -r;
            }
            if (v == null ? modes.boundedLacksRoom(tree.nearestExisting(b, ko, kl), -1) : modes.boundedLacksRoom(v, tl)) {
                return -WireError.FLOW_BACKPRESSURE; // a full bounded subscriber: nothing created or numbered
            }
        }
        return tl;
    }

    /** Whether {@code p} may write key {@code b[ko, +kl)} (v: its vertex, or null): the checks before the value's. */
    private int writable(WidePeer p, byte[] b, int ko, int kl, Vertex v) {
        if (!p.connected) {
            return WireError.TRANSPORT_DOWN;
        }
        if (p != owner) {
            if (kl == 0 || (v != null ? v.reserved : PathKeys.hasReservedSegment(b, ko, kl))) {
                return WireError.ACCESS_DENIED; // the root and $ names are the node's own
            }
            if (v != null && v.schema != null && !v.schema.allows(AccessMask.WRITE)) {
                return WireError.ACCESS_DENIED;
            }
        }
        return v == null ? tree.creatable(b, ko, kl, null) : WireError.OK;
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
        if (modes.boundedLacksRoom(v, tl)) {
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
        StaleMarks.clear(v);
        if (upstream != null && upstream.stale()) {
            stale.markDelivered(v, upstream);
        }
        v.sourceSeq = upstream != null ? Math.max(0, upstream.seq()) : 0;
        v.origin = upstream != null && upstream.origin() > 0 ? upstream.origin()
                : givesOrigins ? clock.epochNanos() / 1_000_000L : 0; // docs/extensions.md "Origin time"
        setNoticeRoute(v, route, ro, rl);
        if (v.awaits > 0) {
            server.answerAwaits(v.id, v.value, 0, v.valLen);
        }
        fanout.propagate(v, v.value, v.valLen, false);
        tell(v, false, null);
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
            VertexTree.settle(v); // it was published to: the node's, like a vertex holding a value
        }
        v.seq++;
        if (v.stale && samePublisher(v.valuePublisher, p)) {
            StaleMarks.clear(v);
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
        fanout.propagate(v, tlv, tl, v.seq, false, origin, false, false);
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
            VertexTree.settle(v);
        }
        return WireError.OK;
    }

    /** Drops v's held value (a clear, a purge) and returns its bytes to the value table. */
    void dropValue(Vertex v) {
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

    /** Publishes and notifying clears refused with FLOW_BACKPRESSURE because a bounded edge had no room. */
    public long modeRefused() {
        return modes.modeQueued.refused();
    }

    @Override
    public int declare(NodePath path, VertexSchema schema) {
        if (schema == null) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        Vertex v = tree.resolveOrCreate(path);
        if (v == null) {
            return tree.lastRefusal;
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
        VertexTree.settle(v);
        return WireError.OK;
    }

    @Override
    public int report(NodePath path, VertexSchema othersDeclaration) {
        Vertex v = tree.find(path);
        if (v == null) {
            return WireError.PATH_NOT_FOUND;
        }
        v.reported = othersDeclaration; // what :settings.app and :schema answer when v has no declaration
        if (othersDeclaration != null) {
            VertexTree.settle(v);
        }
        return WireError.OK;
    }

    @Override
    public VertexSchema declaration(NodePath path) {
        Vertex v = tree.find(path);
        return v == null ? null : v.schema;
    }

    @Override
    public int read(NodePath path, byte[] dst, int off, int cap) {
        Vertex v = tree.find(path);
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
        Vertex v = tree.find(path);
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
        Vertex v = tree.find(path);
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
            v = tree.resolveOrCreate(path);
            if (v == null) {
                return Edge.refused(this, path, listener, p, tree.lastRefusal);
            }
        }
        if (!handles.edgeRoom()) {
            return Edge.refused(this, path, listener, p, WireError.FLOW_BACKPRESSURE);
        }
        Edge e = new Edge(this, v, path, word, listener, p);
        e.pos = v.place(e);
        e.gen = ++v.admissions;
        e.open = true;
        handles.register(e);
        if (p != owner) {
            p.edges.add(e);
        }
        if (listener instanceof ValueRoom) {
            modes.roomEdges++;
        }
        if (e.delivering()) {
            activity.adjust(v, 1);
            fanout.latch(e, v); // the durability latch
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
        Vertex v = tree.find(path);
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
        modes.dropMode(e);
        if (e.listener instanceof ValueRoom) {
            modes.roomEdges--;
        }
        e.vertex.unplace(e.pos);
        e.open = false;
        handles.release(e);
        if (e.holder != owner) {
            e.holder.edges.remove(e);
        }
        server.returnSlot(e.holder.link, e.holder.peer); // a remote holder's share (others have none)
        if (wasDelivering) {
            activity.adjust(e.vertex, -1);
        }
        tree.prune(e.vertex);
    }

    /** The toggle: bit 9 of the edge's word, plus the delivering counts. Nothing is replayed. */
    int setSuspended(Edge e, boolean suspended) {
        if (e.isSuspended() == suspended) {
            return WireError.OK;
        }
        e.word = DeliveryPolicy.withSuspended(e.word, suspended);
        if (suspended) {
            modes.suspend(e);
        }
        activity.adjust(e.vertex, suspended ? -1 : 1);
        return WireError.OK;
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
        Vertex v = tree.find(path);
        return v == null ? WireError.OK : clearVertex(v, notify);
    }

    /** {@link #clear} of vertex v (also a remote WRITE's clear, FwdStore#clearValue). */
    int clearVertex(Vertex v, boolean notify) {
        if (notify && modes.boundedLacksRoom(v, -1)) {
            return WireError.FLOW_BACKPRESSURE; // the notice is a publish: refused whole, the value stays
        }
        dropValue(v);
        StaleMarks.clear(v);
        if (notify) {
            v.seq++; // a notifying clear spends a fresh number, held value or not
            fanout.propagate(v, WideFanout.EMPTY_STATUS, WideFanout.EMPTY_STATUS.length, true);
        }
        return WireError.OK;
    }

    @Override
    public long sequence(NodePath path) {
        Vertex v = tree.find(path);
        return v == null ? 0 : v.seq;
    }

    /**
     * Whether {@code path} is another node's: under a mount (the router forwards it), or a vertex
     * holding a declaration (the node's own, or a mounted board's reported copy). Such a path is not
     * a name an in-process publisher may claim for a topic of its own.
     */
    public boolean isDeclaredOrMounted(NodePath path) {
        if (server.underMount(path.tlv(), path.bodyOffset(), path.bodyLength())) {
            return true;
        }
        Vertex v = tree.find(path);
        return v != null && (v.schema != null || v.reported != null);
    }

    /** A copy of the value TLV the vertex holds, or null when it holds none (allocates: cold paths). */
    public byte[] valueCopy(NodePath path) {
        Vertex v = tree.find(path);
        return v == null || !v.hasValue() ? null : Arrays.copyOf(v.value, v.valLen);
    }

    /**
     * The sequence of the value the vertex holds (the publish that retained it), 0 when it holds none;
     * {@link #sequence} is the vertex's last number, retained or not.
     */
    public long valueSequence(NodePath path) {
        Vertex v = tree.find(path);
        return v == null || !v.hasValue() ? 0 : v.valueSeq;
    }

    @Override
    public boolean isStale(NodePath path) {
        Vertex v = tree.find(path);
        return v != null && v.stale;
    }

    @Override
    public long origin(NodePath path) {
        Vertex v = tree.find(path);
        return v == null ? 0 : v.origin;
    }

    @Override
    public int markStale(NodePath path, CharSequence reason) {
        Vertex v = tree.find(path);
        if (v == null || !v.hasValue() && v.schema == null) {
            return WireError.PATH_NOT_FOUND; // a declared vertex without a value yet may be marked: "no value yet, and why"
        }
        stale.markByOwner(v, reason);
        return WireError.OK;
    }

    @Override
    public int staleReason(NodePath path, byte[] dst, int off, int cap) {
        Vertex v = tree.find(path);
        if (v == null || !v.stale || v.staleReason == null) {
            return 0;
        }
        if (v.staleReason.length > cap) {
            return -WireError.FLOW_BACKPRESSURE;
        }
        System.arraycopy(v.staleReason, 0, dst, off, v.staleReason.length);
        return v.staleReason.length;
    }

    @Override
    public int listenerCount(NodePath path) {
        Vertex v = tree.find(path);
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
        activity.listener = listener;
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
        stale.purge(now);
        if (statsPeriod > 0 && now - nextStats >= 0) {
            nextStats = now + statsPeriod;
            refreshStats();
        }
        if (sweepPeriod > 0 && now - nextSweep >= 0) {
            nextSweep = now + sweepPeriod;
            server.sweepGoneHolders(); // subscribers whose channel is gone though their link never said so
        }
        fanout.resendDirty();
        server.reapGoneHolders(); // what the purge notices and resends found gone
    }

    /** Tells the value tap, if there is one, of v's value ({@code marked}: a stale mark with {@code reason}). */
    void tell(Vertex v, boolean marked, byte[] reason) {
        if (tap != null) {
            tap.onValue(tapView.wrap(v.value, v.valLen, v.key, false), v.seq, v.sourceSeq, v.origin, marked, reason);
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
        final int from = stale.markPublished(p, now);
        peers.disconnected();
        stale.noticeSince(from);
    }

    /**
     * Remote holder (link index, peer) has a channel that is gone without its link saying so: its
     * edges are reaped as on its departure (active / idle follow the counts, once), and nothing else
     * of it changes (docs/node.md, "A subscriber's channel gone").
     */
    void holderGone(int li, int peer) {
        WidePeer p = peers.find(li, peer);
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

    /**
     * Makes {@code link} a client door checked against {@code access} (null: no longer checked):
     * from now on every request that arrives over it is admitted or refused with {@code
     * tr::access::denied} before it is routed under a mount or served here, and a refused one
     * changes nothing (no vertex, edge, slot or forwarded frame). Which request needs which
     * permission and how a peer's name is known: {@link ClientGate}. Links not restricted (those
     * that mount boards) are never checked; with no restricted link nothing is. Node thread.
     */
    public void restrict(Link link, PeerAccess access) {
        if (gate == null) {
            if (access == null) {
                return;
            }
            gate = new ClientGate(this);
            server.gate(gate);
        }
        gate.restrict(link, access);
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
        if (tree.resolveOrCreate(localTarget) == null) {
            return NodeResult.refusal(tree.lastRefusal);
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
        WidePeer p = peers.remove(li, peer);
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
        return tree.find(path) != null;
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
        BoundedResource[] all = Arrays.copyOf(new BoundedResource[] {handles.vertices, handles.edges, values,
            peers.peers, modes.modeQueued}, 5 + fwd.length);
        System.arraycopy(fwd, 0, all, 5, fwd.length);
        return all;
    }

    @Override
    public void close() {
        server.clearLinks();
    }

    /** Subscription appends refused because their peer's vertex share was used up ({@link NodeConfig#verticesPerPeer()}). */
    public long vertexShareRefused() {
        return tree.vertexShareRefused();
    }

    /** The number of vertices in the tree, the root included (tests). */
    int vertexCount() {
        return (int) handles.vertices.inUse();
    }

    Vertex vertexAt(int id) {
        return handles.byId[id];
    }

    Vertex findKey(byte[] b, int off, int len) {
        return tree.find(b, off, len);
    }

    WidePeer ownerPeer() {
        return owner;
    }
}
