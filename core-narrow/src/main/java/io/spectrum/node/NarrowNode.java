package io.spectrum.node;

import io.spectrum.link.Link;
import io.spectrum.link.NodeLinkStats;
import io.spectrum.node.api.ActivityListener;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.NodeResult;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.node.fwd.AwaitTable;
import io.spectrum.node.fwd.ComposedRead;
import io.spectrum.node.fwd.FwdServer;
import io.spectrum.node.fwd.LinkTable;
import io.spectrum.node.fwd.NodeStats;
import io.spectrum.node.fwd.PeerShares;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.pool.BlockPool;
import io.spectrum.node.route.FwdRouter;
import io.spectrum.node.table.BackfillRing;
import io.spectrum.node.table.SlotTable;
import io.spectrum.node.table.VertexTable;
import io.spectrum.node.topic.Fanout;
import io.spectrum.node.topic.ListenerCounts;
import io.spectrum.node.topic.LocalSubscription;
import io.spectrum.node.topic.SubscriberSlots;
import io.spectrum.node.topic.TopicState;
import io.spectrum.stats.BoundedResource;
import io.spectrum.time.Clock;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.Names;
import io.spectrum.wire.Opt;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.WireError;

/**
 * The NARROW node: fixed pools sized once from a {@link NodeConfig}, a vertex table, last-known
 * values, subscriber slots with the whole RFC-0035 surface, topic semantics, and the FWD terminus
 * for requests arriving over attached {@link Link}s. Single-threaded; steady-state writes, reads,
 * toggles and FWD handling allocate nothing.
 *
 * <p>This class is the facade over the parts, which {@link NodeParts} builds once from the
 * configuration and hands to each part's constructor, each part in its own class:
 * {@link TopicState} (value, sequence, publisher, stale), {@link Fanout} (write propagation and
 * delivery), {@link SubscriberSlots} and {@link ListenerCounts} (slot lists, delivering counts,
 * activity notices), and the FWD side shared with core-wide's WideNode, {@link FwdServer} over
 * this node's tables through {@link NarrowStore}: {@link LinkTable}, {@link AwaitTable},
 * {@code FwdTerminus}, {@code FwdRequest}, {@code FieldSelector}, {@code SubscribersField},
 * {@code ChildrenField}, {@code Deliveries}.
 *
 * <p>Caller identity: the local host (in-process calls, the owner) is link index {@link FwdServer#OWNER};
 * a remote caller is (attached link index, peer).
 */
public final class NarrowNode implements ServingNode {
    static final int NO_PUBLISHER = -2;

    private final Clock clock;
    private final int framesPerPoll;
    private final boolean remoteWritesToUndeclared;

    final VertexTable vt;
    final SlotTable st;
    final BlockPool values;
    final BlockPool records;
    private final TopicState topic;
    private final BackfillRing ring;

    private final LinkTable links;

    private final BoundedResource[] resources;

    private final AwaitTable awaits;
    private final ListenerCounts counts;
    private final SubscriberSlots slots;
    private final Fanout fanout;

    final RemoteClient client;
    static final NodePath CAPS = NodePath.of(Names.CAPS_PATH);
    static final NodePath STATS = NodePath.of(Names.STATS_PATH);
    private final NodeStats stats;
    private final PeerShares shares;
    private final long statsPeriod;
    /** How often {@link #tick()} sweeps for subscribers whose channel is gone (0: never), and when next. */
    private final long sweepPeriod;
    private long nextSweep;
    private long nextStats;
    private final FwdServer server;
    /** The node's tables as the FWD engine sees them (the one clear of a value, for the owner and remote callers alike). */
    private final NarrowStore store;
    private final ComposedRead composed;
    private final FwdRouter router;

    /**
     * Builds the node and every pool, table and buffer it will use, sized from {@code cfg}; nothing
     * is allocated after this on the hot paths.
     *
     * @throws IllegalArgumentException when the configuration cannot be laid out
     */
    public NarrowNode(NodeConfig cfg) {
        NodeParts p = new NodeParts(cfg, this);
        clock = p.clock;
        framesPerPoll = cfg.framesPerPoll();
        remoteWritesToUndeclared = cfg.remoteWritesToUndeclared();
        vt = p.vt;
        st = p.st;
        values = p.values;
        records = p.records;
        topic = p.topic;
        ring = p.ring;
        links = p.links;
        awaits = p.awaits;
        counts = p.counts;
        slots = p.slots;
        fanout = p.fanout;
        client = p.client;
        composed = p.composed;
        server = p.server;
        store = p.store;
        router = p.router;
        resources = new BoundedResource[] {new TableResource("node.vertices", 0), new TableResource("node.slots", 1),
            values.resource(), records.resource(), awaits.resource, links.resource, client.resource(), client.requestResource(),
            links.extensions.resource, p.shares.resource, p.mounts.mountResource(), p.mounts.peerResource()};
        shares = p.shares;
        stats = new NodeStats(resources, links, shares, router, cfg.maxLinks(), cfg.frameBytes());
        statsPeriod = cfg.statsPeriodNanos();
        nextStats = clock.nanoTime();
        sweepPeriod = cfg.channelSweepNanos();
        nextSweep = clock.nanoTime() + sweepPeriod;
        publishCaps();
    }

    /**
     * {@code $node/caps}: the extensions map a peer reads (core 1, rfc0035 1, topic 1; and, to a peer
     * that announced, {@code spectrum.backfill} depth when this node keeps values for backfill).
     */
    private void publishCaps() {
        byte[] b = new byte[128];
        write(CAPS, b, 0, Extensions.writeCaps(b, 0, b.length, ring.depth()));
    }

    // ------------------------------------------------------------------ local API

    @Override
    public int write(NodePath path, byte[] tlv, int off, int len) {
        return write(path, tlv, off, len, true);
    }

    @Override
    public int write(NodePath path, byte[] tlv, int off, int len, boolean retain) {
        int v = topic.resolveOrCreate(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0) {
            return NodeResult.code(v);
        }
        int tl = Opt.untrailedLength(tlv, off, len);
        if (tl < 0) {
            return WireError.FRAME_INVALID;
        }
        server.enterFanout(); // a subscriber whose channel a send finds gone is reaped after the fan-out
        final int r = fanout.publishOwned(v, tlv, off, tl, retain);
        server.exitFanout();
        return r;
    }

    @Override
    public int declare(NodePath path, VertexSchema schema) {
        if (schema == null) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        int v = topic.resolveOrCreate(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0) {
            return NodeResult.code(v);
        }
        VertexSchema before = vt.schema(v);
        vt.declare(v, schema);
        if (vt.valLen(v) >= 0) {
            int r = topic.admit(v, values.memory(), vt.valOff(v), vt.valLen(v));
            if (r != WireError.OK) {
                vt.declare(v, before);
                return r;
            }
        }
        ring.declared(v); // its backfill ring, made once (configuration time)
        return WireError.OK;
    }

    @Override
    public int report(NodePath path, VertexSchema othersDeclaration) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0) {
            return WireError.PATH_NOT_FOUND;
        }
        vt.report(v, othersDeclaration);
        return WireError.OK;
    }

    @Override
    public VertexSchema declaration(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        return v < 0 ? null : vt.schema(v);
    }

    @Override
    public int read(NodePath path, byte[] dst, int off, int cap) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0 || vt.valLen(v) < 0) {
            return NodeResult.refusal(WireError.PATH_NOT_FOUND);
        }
        int n = vt.valLen(v);
        if (n > cap) {
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        System.arraycopy(values.memory(), vt.valOff(v), dst, off, n);
        return n;
    }

    @Override
    public int readTree(NodePath path, byte[] dst, int off, int cap) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v >= 0 && composed.composes(v, true)) {
            return composed.copy(v, dst, off, cap);
        }
        return read(path, dst, off, cap);
    }

    @Override
    public Subscription subscribe(NodePath path, int policy, ValueListener listener) {
        LocalSubscription sub = new LocalSubscription(slots, path, listener);
        int v = topic.resolveOrCreate(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0) {
            sub.refused(NodeResult.code(v));
            return sub;
        }
        int s = st.take();
        if (s < 0) {
            sub.refused(WireError.FLOW_BACKPRESSURE);
            return sub;
        }
        int word = SlotTable.IN_USE | SlotTable.KIND_CALLBACK | (policy & SlotTable.POLICY_MASK);
        st.fill(s, v, word, FwdServer.OWNER, 0, -1, 0, 0);
        st.setHandle(s, sub);
        slots.place(v, s);
        sub.bind(s, st.gen(s), st.pos(s));
        if (st.delivering(s)) {
            counts.adjust(v, 1);
            fanout.latch(s, v);
        }
        return sub;
    }

    @Override
    public int clear(NodePath path, boolean notify) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        return v < 0 ? WireError.OK : store.clearValue(v, notify);
    }

    @Override
    public long sequence(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        return v < 0 ? 0 : vt.seq(v);
    }

    @Override
    public boolean isStale(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        return v >= 0 && vt.isStale(v);
    }

    @Override
    public long origin(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        return v >= 0 ? vt.origin(v) : 0;
    }

    @Override
    public int markStale(NodePath path, CharSequence reason) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0 || vt.valLen(v) < 0 && vt.schema(v) == null) {
            return WireError.PATH_NOT_FOUND; // a declared vertex without a value yet may be marked: "no value yet, and why"
        }
        if (topic.markStale(v, clock.nanoTime(), reason, true)) {
            fanout.topicNotice(v, false);
        }
        return WireError.OK;
    }

    @Override
    public int staleReason(NodePath path, byte[] dst, int off, int cap) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0 || !vt.isStale(v)) {
            return 0;
        }
        int n = vt.reasonLen(v);
        if (n > cap) {
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        System.arraycopy(vt.reasons(), vt.reasonOff(v), dst, off, n);
        return n;
    }

    @Override
    public int listenerCount(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        return v < 0 ? 0 : vt.listeners(v);
    }

    /**
     * The id of the link the vertex's last publisher came over: -1 for the local host, -2 when the
     * vertex was never published (or is absent).
     */
    public int lastPublisherLinkId(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0 || vt.pubLink(v) == NO_PUBLISHER) {
            return NO_PUBLISHER;
        }
        return vt.pubLink(v) == FwdServer.OWNER ? FwdServer.OWNER : links.id(vt.pubLink(v));
    }

    /** The peer of the vertex's last remote publisher (0 for the local host). */
    public int lastPublisherPeer(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        return v < 0 ? 0 : vt.pubPeer(v);
    }

    /**
     * Retires a leaf vertex: its slots are reaped (RFC-0035 §9.3 trigger 3), its value dropped and
     * pending awaits on it answered with PATH_NOT_FOUND; it then reads not_found and notifies
     * nobody. A vertex with children answers PATH_IN_USE; the root and absent vertices
     * PATH_NOT_FOUND.
     */
    public int retire(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v <= 0) {
            return WireError.PATH_NOT_FOUND;
        }
        if (vt.firstChild(v) != VertexTable.NONE) {
            return WireError.PATH_IN_USE;
        }
        slots.removeAllOf(v);
        awaits.failVertex(v, WireError.PATH_NOT_FOUND);
        topic.retire(v);
        ring.retired(v);
        return WireError.OK;
    }

    /** True when the vertex exists (diagnostics, tests). */
    @Override
    public boolean exists(NodePath path) {
        return vt.find(path.tlv(), path.bodyOffset(), path.bodyLength()) >= 0;
    }

    @Override
    public void setActivityListener(ActivityListener listener) {
        counts.setActivityListener(listener);
    }

    @Override
    public int attach(Link link) {
        int r = server.attach(link);
        if (r != WireError.OK) {
            return r;
        }
        link.setPeerListener(this);
        return WireError.OK;
    }

    @Override
    public int poll() {
        return server.poll(this, framesPerPoll);
    }

    @Override
    public void tick() {
        final long now = clock.nanoTime();
        awaits.expire(now);
        topic.purgeExpired(now, fanout); // publishers that did not come back in their grace: delete notices
        fanout.resendDirty(); // edges a dropped delivery left behind get the current value (docs/node.md)
        if (statsPeriod > 0 && now - nextStats >= 0) {
            nextStats = now + statsPeriod;
            refreshStats();
        }
        if (sweepPeriod > 0 && now - nextSweep >= 0) {
            nextSweep = now + sweepPeriod;
            server.sweepGoneHolders(); // subscribers whose channel is gone though their link never said so
        }
        server.reapGoneHolders(); // what the purge notices and resends found gone
    }

    /**
     * Writes the node's overload counters to {@code /$node/stats} now ({@link NodeStats}: every
     * pool, every link's drops and refusals, every peer's share). {@link #tick()} calls it every
     * {@link NodeConfig#statsPeriodNanos()}; allocation-free after the first call per link.
     *
     * @return status: OK, or the write's refusal
     */
    public int refreshStats() {
        int v = topic.resolveOrCreate(STATS.tlv(), STATS.bodyOffset(), STATS.bodyLength());
        if (v < 0) {
            return NodeResult.code(v);
        }
        int n = stats.render(links.frameLimit() - 36 - 2 * vt.keyLen(v));
        if (n < 0) {
            return NodeResult.code(n);
        }
        return fanout.publishOwned(v, stats.buffer(), 0, n);
    }

    @Override
    public void onPeerUp(Link link, int peer) {
        int li = linkIndex(link);
        if (li >= 0) {
            server.peerUp(li, peer);
        }
    }

    @Override
    public void onPeerDown(Link link, int peer) {
        int li = linkIndex(link);
        if (li < 0) {
            return;
        }
        final long now = clock.nanoTime();
        slots.removeHeldBy(li, peer); // reaping trigger 4 (first: the peer gone is told nothing)
        topic.publisherDown(li, peer, now, fanout); // what it published goes stale: stale notices
        server.peerDown(li, peer); // its awaits, remote records, announcement and token
    }

    @Override
    public int subscribeRemote(Link link, int peer, NodePath remotePath, NodePath localTarget, int policy) {
        int li = linkIndex(link);
        if (li < 0) {
            return NodeResult.refusal(WireError.TRANSPORT_DOWN);
        }
        int v = topic.resolveOrCreate(localTarget.tlv(), localTarget.bodyOffset(), localTarget.bodyLength());
        if (v < 0) {
            return v;
        }
        return client.subscribe(li, peer, remotePath, localTarget, policy);
    }

    /**
     * A remote subscription feeding {@code target} has a gap (its slot at the peer is gone or not
     * yet admitted): the target goes stale from now, unless it already is, until the next delivery
     * (a write clears stale) or the stale grace purges the value; its subscribers that take topic
     * notices are told at once. Its reason is {@link StaleReason#NOT_FOLLOWED}.
     */
    void markGap(NodePath target) {
        int v = vt.find(target.tlv(), target.bodyOffset(), target.bodyLength());
        if (v >= 0 && topic.markStale(v, clock.nanoTime(), StaleReason.NOT_FOLLOWED, false)) {
            fanout.topicNotice(v, false);
        }
    }

    /** The clock the node reads (its config's). */
    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public BoundedResource[] resources() {
        return resources.clone();
    }

    @Override
    public NodeLinkStats linkStats(Link link) {
        return server.linkStats(link);
    }

    @Override
    public void close() {
        server.clearLinks();
        stats.linksCleared();
    }

    // ------------------------------------------------------------------ links

    int linkIndex(Link link) {
        return links.indexOf(link);
    }

    @Override
    public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
        server.onFrame(link, peer, buf, off, len);
    }

    /** The shared FWD side this node serves its links with. */
    @Override
    public FwdServer server() {
        return server;
    }

    /**
     * The remote client, answered by this final class itself rather than by ServingNode's default
     * method: a caller's {@code narrowNode.remote()} (the allocation proof's slot check every round)
     * bound to the interface default allocated ~2.9 KB of String / byte[] once, at a JIT tier
     * change in steady state; the concrete method, as before the FwdServer split, allocates nothing.
     */
    @Override
    public RemoteClient remote() {
        return client;
    }

    /** BoundedResource views of the vertex and slot tables. */
    private final class TableResource implements BoundedResource {
        private final String name;
        private final int which;

        TableResource(String name, int which) {
            this.name = name;
            this.which = which;
        }

        @Override
        public String resourceName() {
            return name;
        }

        @Override
        public long capacity() {
            return which == 0 ? vt.capacity() : st.capacity();
        }

        @Override
        public long inUse() {
            return which == 0 ? vt.used() : st.used();
        }

        @Override
        public long peak() {
            return which == 0 ? vt.peak() : st.peak();
        }

        @Override
        public long refused() {
            return which == 0 ? vt.refusals() : st.refusals();
        }

        @Override
        public long dropped() {
            return 0; // a table refuses at its ceiling; it never drops an entry it took
        }
    }
}
