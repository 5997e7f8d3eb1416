package io.spectrum.node;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.pool.BlockPool;
import io.spectrum.node.route.FwdRouter;
import io.spectrum.node.route.MountTable;
import io.spectrum.time.Clock;
import io.spectrum.wire.TlvIndex;

/**
 * The node's parts, built once by {@link NarrowNode} from its {@link NodeConfig} and shared by
 * reference: first the state every part works on (tables, pools, links, frame buffers, the decode
 * index), then the parts themselves in dependency order. A part's constructor takes this context
 * and copies into its own final fields the members it uses, which must be declared (and built)
 * above it here; nothing is looked up through the context after construction.
 */
final class NodeParts {
    // ------------------------------------------------------------------ state
    final NodeConfig config;
    final Clock clock;
    final VertexTable vt;
    final SlotTable st;
    final BlockPool values;
    final BlockPool records;
    final LinkTable links;
    /** Each remote peer's share of slots, awaits and delivery rate. */
    final PeerShares shares;
    /** The decoded request of the frame being handled. */
    final TlvIndex rx;
    final FrameBuffers buffers;
    final FieldSelector sel;
    /** The mounts FWD frames are routed under, and the router that forwards them. */
    final MountTable mounts;
    final FwdRouter router;

    // ------------------------------------------------------------------ parts, in build order
    final TopicState topic;
    final AwaitTable awaits;
    final ListenerCounts counts;
    final SubscriberSlots slots;
    final Fanout fanout;
    final RemoteClient client;
    final FwdRequest req;
    final ChildOrder order;
    final SubscribersField subscribers;
    final ChildrenField children;
    final SettingsField settings;
    final ComposedRead composed;
    final FwdTerminus terminus;

    NodeParts(NodeConfig cfg, NarrowNode node) {
        config = cfg;
        clock = cfg.clock();
        vt = new VertexTable(cfg.maxVertices(), cfg.maxKeyBytes());
        st = new SlotTable(cfg.maxSubscribers());
        values = new BlockPool("node.values", cfg.valueBytes());
        records = new BlockPool("node.records", cfg.recordBytes());
        links = new LinkTable(cfg.maxLinks(), cfg.frameBytes());
        shares = new PeerShares(cfg, links, clock);
        rx = new TlvIndex(cfg.maxTlvsPerFrame(), 16);
        // FWD + top POINT + one POINT per level below it (a level adds >= 2 key bytes) + slack
        buffers = new FrameBuffers(cfg.frameBytes(), Math.max(16, cfg.maxKeyBytes() / 2 + 4));
        sel = new FieldSelector();
        mounts = new MountTable(cfg.maxMounts(), cfg.maxMounts() == 0 ? 0 : cfg.sharePeers());
        router = new FwdRouter(mounts, cfg.frameBytes(), cfg.serveSubscriptionsUnderMounts());

        topic = new TopicState(this);
        awaits = new AwaitTable(this);
        counts = new ListenerCounts(this);
        slots = new SubscriberSlots(this);
        fanout = new Fanout(this);
        client = new RemoteClient(node, cfg.maxRemoteSubscriptions(), cfg.remoteResultBytes());
        req = new FwdRequest(this);
        order = new ChildOrder(this);
        subscribers = new SubscribersField(this);
        children = new ChildrenField(this);
        settings = new SettingsField(this);
        composed = new ComposedRead(this);
        terminus = new FwdTerminus(this);
    }
}
