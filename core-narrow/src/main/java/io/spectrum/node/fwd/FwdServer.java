package io.spectrum.node.fwd;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.NodeLinkStats;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodeResult;
import io.spectrum.node.route.FwdRouter;
import io.spectrum.stats.BoundedResource;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.WireError;

/**
 * The FWD side of a node, shared by both cores over a {@link FwdStore}: the attached links, the
 * terminus (READ / WRITE / AWAIT on a vertex or its {@code :subscribers}, {@code :children},
 * {@code :settings}, {@code :schema} field, every refusal typed), the RFC-0035 surface, the await
 * table, routed deliveries and activity notices, per-peer shares, the peers' extension announcements
 * and holder tokens, the owner's request door, and the remote client. One copy of every FWD rule:
 * NarrowNode and WideNode each build one of these over their own tables and forward link events to
 * it.
 *
 * <p>A caller is (link index, peer); link index {@link #OWNER} is the node's owner. The
 * link table starts at {@code linkCapacity} entries and grows up to {@link NodeConfig#maxLinks()}
 * (a NARROW node starts at the ceiling: its table never grows). Single-threaded.
 */
public final class FwdServer {
    /** The link index of the node's owner (the local host's in-process calls) as a caller. */
    public static final int OWNER = -1;

    private final FwdParts p;
    /** The {@code /$node/stats} renderer of a core that asks for it ({@link #statsOf}), or null. */
    private NodeStats stats;
    private final FrameDecoder decoder = new FrameDecoder(16, FrameDecoder.MAX_TLV_BYTES);

    /**
     * The FWD side over a core's {@code store}, with every table sized from {@code cfg} here, once;
     * the link table starts at {@code linkCapacity} entries.
     */
    public FwdServer(NodeConfig cfg, FwdStore store, int linkCapacity) {
        p = new FwdParts(cfg, store, this, linkCapacity);
    }

    /** The parts this FWD side built, for the NARROW core that wires its own parts over them. */
    public FwdParts parts() {
        return p;
    }

    // ------------------------------------------------------------------ links

    /** Adds a link. Status: OK, or FLOW_BACKPRESSURE (counted) at the link ceiling. */
    public int attach(Link link) {
        return p.links.add(link) ? WireError.OK : WireError.FLOW_BACKPRESSURE;
    }

    /**
     * Sets the gate every remote request passes before it is routed or served ({@link RequestGate};
     * null: none, the default). Node thread.
     */
    public void gate(RequestGate g) {
        p.terminus.gate(g);
    }

    /** The index of an attached link, or -1. */
    public int linkIndex(Link link) {
        return p.links.indexOf(link);
    }

    /**
     * What the node counted about {@code link} (frames it rejected, share refusals, deliveries it
     * dropped), read-only; null when the link is not attached.
     */
    public NodeLinkStats linkStats(Link link) {
        return p.links.stats(link);
    }

    /** Links attached now; their indexes are 0..linkCount()-1. */
    public int linkCount() {
        return p.links.count();
    }

    /** The id of the link at {@code index} (what an AccessPolicy sees). */
    public int linkId(int index) {
        return p.links.id(index);
    }

    /**
     * The name the link at {@code index} gives {@code peer} ({@link Link#peerName}: a local link's hello,
     * a DTLS certificate's name, a bus connection's id on its door), or null.
     */
    public String peerName(int index, int peer) {
        return index >= 0 && index < p.links.count() ? p.links.link(index).peerName(peer) : null;
    }

    /** Polls every attached link once, up to {@code frames} frames each, into {@code handler}. Quantity. */
    public int poll(FrameHandler handler, int frames) {
        int n = 0;
        for (int i = 0; i < p.links.count(); i++) {
            n += p.links.link(i).poll(handler, frames);
        }
        return n;
    }

    /** A frame from (link, peer): decoded and handled by the terminus; an undecodable one is counted on the link. */
    public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
        int li = p.links.indexOf(link);
        if (li < 0) {
            return;
        }
        if (decoder.decode(buf, off, len, p.rx) != WireError.OK) {
            p.links.dropped(li); // the link counted it in framesIn: not a link drop
            return;
        }
        p.gone.enter();
        p.terminus.handle(li, peer); // the router is consulted there first (FwdRouter.route), for both cores
        p.gone.exit(); // a subscriber whose channel its fan-out found gone is reaped now
    }

    /**
     * Brackets a core's local operation that may fan out (a write, a clear, a stale mark): a holder
     * whose channel a send found gone is reaped when the outermost bracket ends, never inside a
     * fan-out (docs/node.md, "A subscriber's channel gone"). {@link #onFrame} brackets requests.
     */
    public void enterFanout() {
        p.gone.enter();
    }

    /** Ends a {@link #enterFanout()} bracket. */
    public void exitFanout() {
        p.gone.exit();
    }

    /**
     * The periodic sweep (the core's tick, on its period): every remote holder of slots whose link
     * says its channel is gone ({@link Link#isPeerGone}) has its slots reaped.
     */
    public void sweepGoneHolders() {
        p.gone.sweep();
    }

    /** Reaps now the holders a send found gone outside any bracket (a core's tick fans out too). */
    public void reapGoneHolders() {
        p.gone.reap();
    }

    /** Holders reaped because their channel was gone (by a publish or by the sweep). */
    public long goneHoldersReaped() {
        return p.gone.reaped();
    }

    /**
     * Handles one FWD request as the node's owner (the local host, empty caller context) and copies
     * the reply frame, if any, into {@code reply}.
     *
     * @return quantity: reply length (0 when nothing was answered) or a negated decode error
     */
    public int handleOwnerRequest(byte[] req, int off, int len, byte[] reply, int rOff, int rCap) {
        int r = decoder.decode(req, off, len, p.rx);
        if (r != WireError.OK) {
            return NodeResult.refusal(r);
        }
        p.links.captureOwnerReply(reply, rOff, rCap);
        p.gone.enter();
        p.terminus.handle(OWNER, 0);
        p.gone.exit();
        return p.links.endOwnerReply();
    }

    /**
     * Subscribes {@code remotePath} at (link index, peer) for the local {@code target} (which the
     * core has created): the remote client sends the append and re-sends it when the peer comes
     * back. Quantity: the remote client's handle, or a negated code.
     */
    public int subscribeRemote(int li, int peer, io.spectrum.node.api.NodePath remotePath,
            io.spectrum.node.api.NodePath target, int policy) {
        return p.client.subscribe(li, peer, remotePath, target, policy);
    }

    /** (link, peer) came up: the remote client re-sends its subscriptions there. */
    public void peerUp(int li, int peer) {
        p.client.peerUp(li, peer);
    }

    /**
     * (link, peer) went: its awaits go unanswered, the remote client marks its records down, its
     * announcement and token are forgotten (whoever comes up in its place announces again). The core
     * reaps the peer's slots and marks what it published stale itself.
     */
    public void peerDown(int li, int peer) {
        p.awaits.dropPeer(li, peer);
        p.client.peerDown(li, peer);
        p.router.peerDown(p.links.link(li), peer); // a later peer on this handle gets a new return-route generation
        p.links.extensions.forget(li, peer);
    }

    /**
     * Has this server render {@code /$node/stats} for a core that keeps its own tables
     * ({@link #renderStats}): {@code resources} are the core's tables then this server's
     * ({@link #resources()}), named once here. The same tree as a NARROW node's (docs/security.md,
     * "Overload is visible").
     */
    public void statsOf(BoundedResource[] resources) {
        stats = new NodeStats(resources, p.links, p.shares, p.router, p.config.maxLinks(), p.config.frameBytes());
    }

    /**
     * Renders the stats tree ({@link #statsOf}) within {@code budget} bytes into {@link #statsBuffer()}.
     * Quantity: its length, or a negated code (FLOW_BACKPRESSURE when even the fixed part does not fit).
     */
    public int renderStats(int budget) {
        return stats == null ? -WireError.PATH_NOT_FOUND : stats.render(budget);
    }

    /** The buffer {@link #renderStats} writes into. */
    public byte[] statsBuffer() {
        return stats.buffer();
    }

    /** Detaches every link (their mounts go with them). */
    public void clearLinks() {
        if (stats != null) {
            stats.linksCleared();
        }
        for (int i = 0; i < p.links.count(); i++) {
            p.router.mounts().linkGone(p.links.link(i));
        }
        p.links.clear();
    }

    // ------------------------------------------------------------------ router (docs/routing.md)

    /** A single-peer mount of an attached link (see Node#mount). Status. */
    public int mount(String name, Link link, int peer) {
        return linkIndex(link) < 0 ? WireError.TRANSPORT_DOWN : p.router.mounts().mount(name, link, peer);
    }

    /**
     * Answers READs of {@code :settings.app} under a single-peer mount here when {@code copies} says
     * the node holds a current copy of that declaration (reported on its own vertex), rather than
     * forwarding them (docs/routing.md, "Declarations under a mount"); null forwards them all.
     */
    public void answerDeclarationsHere(FwdRouter.HeldDeclarations copies) {
        p.router.heldDeclarations(copies);
    }

    /** Answers {@code :children[]} of the single-peer mount {@code name}'s root here (see Node#listMountHere). Status. */
    public int listMountHere(String name) {
        return p.router.mounts().listHere(name);
    }

    /** A listener mount of an attached multi-peer link (see Node#mountListener). Status. */
    public int mountListener(String name, Link link) {
        return linkIndex(link) < 0 ? WireError.TRANSPORT_DOWN : p.router.mounts().mountListener(name, link);
    }

    /**
     * Removes the mount {@code name} (a listener's with its peers' return routes). Status: OK, or
     * PATH_NOT_FOUND when no mount has that name.
     */
    public int unmount(String name) {
        return p.router.mounts().unmount(name);
    }

    /** Whether PATH body {@code b[off, +len)} lies under a mount (the router forwards it): a mounted peer's namespace. */
    public boolean underMount(byte[] b, int off, int len) {
        return p.router.mounts().match(b, off, len) >= 0;
    }

    /** FWD frames forwarded under a mount since start. */
    public long forwarded() {
        return p.router.forwarded();
    }

    /** FWD frames the router refused (answered with a typed ERROR, or dropped) since start. */
    public long routeRefused() {
        return p.router.refused();
    }

    /** Of the router's refusals, those with no route. */
    public long noRoute() {
        return p.router.noRoute();
    }

    /** The largest frame the node may count on delivering (its own, or its smallest link's). */
    public int frameLimit() {
        return p.links.frameLimit();
    }

    // ------------------------------------------------------------------ what a core calls on a write

    /** Answers every await on v with the value just written. */
    public void answerAwaits(int v, byte[] b, int off, int len) {
        p.awaits.answerValue(v, b, off, len);
    }

    /** Refuses every await on v with {@code code} (the vertex is being retired). */
    public void failAwaits(int v, int code) {
        p.awaits.failVertex(v, code);
    }

    /** Answers FLOW_TIMEOUT to every await due by {@code now} (the node's tick). */
    public void expireAwaits(long now) {
        p.awaits.expire(now);
    }

    /**
     * One delivery to a routed slot (its word, holder and stored route) of the value {@code r}. False
     * when the holder is over its outbound rate (dropped, counted) or its link could not take the frame.
     */
    public boolean deliver(int word, int li, int peer, byte[] route, int ro, int rl, ValueRecord r) {
        return p.deliveries.routed(word, li, peer, route, ro, rl, r);
    }

    /**
     * Whether one delivery to (link, peer) would pass its delivery share now (nothing taken or
     * counted): a dirty edge's resend waits for it (docs/node.md, "Dirty edges").
     */
    public boolean canDeliver(int li, int peer) {
        return p.shares.canDeliver(li, peer);
    }

    /** The active / idle notice to a remote publisher that asked for them at {@code route}. */
    public void notice(int li, int peer, byte[] route, int ro, int rl, boolean active, byte[] key, int ko, int kl,
            int n) {
        p.deliveries.notice(li, peer, route, ro, rl, active, key, ko, kl, n);
    }

    /** A slot of (link, peer) was reaped: its share gets it back. */
    public void returnSlot(int li, int peer) {
        p.shares.returnSlot(li, peer);
    }

    /** True when v's READ answers the composed tree for the owner (it has a child). */
    public boolean composes(int v) {
        return p.composed.composes(v, true);
    }

    /** The owner's composed tree of v into {@code dst}. Quantity: bytes, or -FLOW_BACKPRESSURE. */
    public int composedCopy(int v, byte[] dst, int off, int cap) {
        return p.composed.copy(v, dst, off, cap);
    }

    /** The writer over the transmit buffer (the remote client's requests). */
    io.spectrum.wire.TlvWriter txWriter() {
        return p.buffers.txWriter();
    }

    /** Sends a frame built in the transmit buffer to (link index, peer). */
    void sendTx(int li, int peer, int len) {
        p.links.send(li, peer, p.buffers.tx, len);
    }

    // ------------------------------------------------------------------ readouts

    /**
     * The vertices a remote peer may write, for an operator's warning: the declared paths whose
     * declaration grants WRITE, in tree order, comma-separated ("none" when there are none), plus a
     * note when undeclared vertices are writable too ({@link NodeConfig#remoteWritesToUndeclared()}),
     * and the single-peer mounts a write is forwarded under (there the mounted node's declarations
     * decide, docs/routing.md). Not for a hot path (it builds a String).
     */
    public String remotelyWritable() {
        final FwdStore st = p.store;
        StringBuilder sb = new StringBuilder();
        int v = 0;
        while (v != FwdStore.NONE) { // pre-order walk: down to the first child, else the next sibling up the tree
            io.spectrum.node.api.VertexSchema sc = st.schema(v);
            if (v != 0 && sc != null && sc.allows(io.spectrum.wire.AccessMask.WRITE)) {
                sb.append(sb.length() > 0 ? ", " : "")
                        .append(io.spectrum.node.api.NodePath.render(st.keys(v), st.keyOffset(v), st.keyLen(v)));
            }
            int next = st.firstChild(v);
            while (next == FwdStore.NONE && v != FwdStore.NONE) {
                next = st.nextSibling(v);
                v = st.parent(v);
            }
            v = next;
        }
        if (sb.length() == 0) {
            sb.append("none");
        }
        if (p.config.remoteWritesToUndeclared()) {
            sb.append(" and every undeclared vertex (not / or a $ one)");
        }
        final io.spectrum.node.route.MountTable m = p.router.mounts();
        final byte[] run = new byte[256];
        StringBuilder under = new StringBuilder();
        for (int i = 0; i < m.capacity(); i++) {
            if (m.kind(i) == io.spectrum.node.route.MountTable.SINGLE) {
                under.append(under.length() > 0 ? ", " : "")
                        .append(io.spectrum.node.api.NodePath.render(run, 0, m.copyRun(i, run, 0)));
            }
        }
        if (under.length() > 0) {
            sb.append(", and under ").append(under).append(" whatever the node mounted there lets it write");
        }
        return sb.toString();
    }

    /** The client side of remote subscriptions and requests. */
    public RemoteClient remote() {
        return p.client;
    }

    /** Keys the holder tokens this node mints (see NarrowNode#seedHoldTokens). */
    public void seedHoldTokens(long k0, long k1) {
        p.links.extensions.seed(k0, k1);
    }

    /** Slots (link index, peer) holds now. */
    public int slotsHeldBy(int li, int peer) {
        return li < 0 ? 0 : p.shares.slotsOf(li, peer);
    }

    /** Awaits (link index, peer) holds now against its share; 0 for the owner. */
    public int awaitsHeldBy(int li, int peer) {
        return li < 0 ? 0 : p.shares.awaitsOf(li, peer);
    }

    /** Subscriber appends refused since start because the caller's slot share was used up. */
    public long slotShareRefused() {
        return p.shares.slotRefused();
    }

    /** AWAITs refused since start because the caller's await share was used up. */
    public long awaitShareRefused() {
        return p.shares.awaitRefused();
    }

    /** Deliveries not sent since start because their peer was over its outbound rate. */
    public long deliveriesDropped() {
        return p.shares.deliveriesDropped();
    }

    /** Links, awaits, remote subscriptions and requests, announced peers, peer shares, mounts, routed peers. */
    public BoundedResource[] resources() {
        return new BoundedResource[] {p.awaits.resource, p.links.resource, p.client.resource(),
            p.client.requestResource(), p.links.extensions.resource, p.shares.resource, p.mounts.mountResource(),
            p.mounts.peerResource()};
    }
}
