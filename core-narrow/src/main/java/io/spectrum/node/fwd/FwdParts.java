package io.spectrum.node.fwd;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.route.FwdRouter;
import io.spectrum.node.route.MountTable;
import io.spectrum.time.Clock;
import io.spectrum.wire.TlvIndex;

/**
 * The shared FWD side's parts, built once by {@link FwdServer} over a core's {@link FwdStore}, in
 * dependency order: the state first (links, shares, the decode index, frame buffers), then the
 * parts. Like {@code NodeParts}, a part's constructor copies what it uses into its own final fields.
 */
public final class FwdParts {
    final NodeConfig config;
    final Clock clock;
    final FwdStore store;
    /** The attached links. */
    public final LinkTable links;
    /** Each remote peer's share of slots, awaits and delivery rate. */
    public final PeerShares shares;
    final TlvIndex rx;
    final FrameBuffers buffers;
    final FieldSelector sel;
    /** The mounts FWD frames are routed under, and the router that forwards them (docs/routing.md). */
    public final MountTable mounts;
    /** The router that forwards FWD frames under the mounts. */
    public final FwdRouter router;

    final GoneHolders gone;
    /** Routed deliveries and activity notices. */
    public final Deliveries deliveries;
    /** The pending remote awaits. */
    public final AwaitTable awaits;
    final FwdRequest req;
    final ChildOrder order;
    final SubscribersField subscribers;
    final ChildrenField children;
    final SettingsField settings;
    /** The composed READ of a vertex with children. */
    public final ComposedRead composed;
    /** The client side of this node's remote subscriptions and requests. */
    public final RemoteClient client;
    final FwdTerminus terminus;

    FwdParts(NodeConfig cfg, FwdStore store, FwdServer server, int linkCapacity) {
        config = cfg;
        clock = cfg.clock();
        this.store = store;
        links = new LinkTable(linkCapacity, cfg.maxLinks(), cfg.frameBytes(), cfg.maxAnnouncedPeers());
        shares = new PeerShares(cfg, links, clock);
        rx = new TlvIndex(cfg.maxTlvsPerFrame(), 16);
        // FWD + top POINT + one POINT per level below it (a level adds >= 2 key bytes) + slack
        buffers = new FrameBuffers(cfg.frameBytes(), Math.max(16, cfg.maxKeyBytes() / 2 + 4));
        sel = new FieldSelector();
        mounts = new MountTable(cfg.maxMounts(), cfg.maxMounts() == 0 ? 0 : cfg.sharePeers());
        router = new FwdRouter(mounts, cfg.frameBytes(), cfg.serveSubscriptionsUnderMounts());

        gone = new GoneHolders(links, shares, store);
        deliveries = new Deliveries(this);
        awaits = new AwaitTable(this);
        req = new FwdRequest(this);
        order = new ChildOrder(this);
        subscribers = new SubscribersField(this);
        children = new ChildrenField(this);
        settings = new SettingsField(this);
        composed = new ComposedRead(this);
        client = new RemoteClient(server, store, cfg.maxRemoteSubscriptions(), cfg.remoteResultBytes(), clock);
        router.heldTokens(client); // a forwarded AWAIT is held at the next hop with this node's token
        terminus = new FwdTerminus(this);
    }
}
