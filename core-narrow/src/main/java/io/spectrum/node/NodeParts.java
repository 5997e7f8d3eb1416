package io.spectrum.node;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.pool.BlockPool;
import io.spectrum.node.route.FwdRouter;
import io.spectrum.node.route.MountTable;
import io.spectrum.time.Clock;

/**
 * The node's parts, built once by {@link NarrowNode} from its {@link NodeConfig} and shared by
 * reference: first the state every part works on (tables, pools, and the shared FWD side,
 * {@link FwdServer}, over them through {@link NarrowStore}: links, shares, awaits, deliveries, the
 * terminus), then the node's own parts in dependency order. A part's constructor takes this context
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
    /** The last values of each declared vertex, for backfill (docs/board.md "Store and forward"). */
    final BackfillRing ring;
    final LinkTable links;
    /** Each remote peer's share of slots, awaits and delivery rate. */
    final PeerShares shares;
    /** The mounts FWD frames are routed under, and the router that forwards them (shared FWD side). */
    final MountTable mounts;
    final FwdRouter router;

    // ------------------------------------------------------------------ parts, in build order
    final AwaitTable awaits;
    final TopicState topic;
    final ListenerCounts counts;
    final SubscriberSlots slots;
    final Fanout fanout;
    final Deliveries deliveries;
    final RemoteClient client;
    final ComposedRead composed;
    /** The shared FWD side, over this node's tables. */
    final FwdServer server;

    NodeParts(NodeConfig cfg, NarrowNode node) {
        config = cfg;
        clock = cfg.clock();
        vt = new VertexTable(cfg.maxVertices(), cfg.maxKeyBytes());
        st = new SlotTable(cfg.maxSubscribers());
        values = new BlockPool("node.values", cfg.valueBytes());
        records = new BlockPool("node.records", cfg.recordBytes());
        ring = new BackfillRing(cfg.maxVertices(), cfg.backfillDepth());
        NarrowStore store = new NarrowStore(vt, st, values, records, ring);
        server = new FwdServer(cfg, store, cfg.maxLinks()); // sized once: the link table never grows
        FwdParts f = server.parts();
        links = f.links;
        shares = f.shares;
        awaits = f.awaits;
        deliveries = f.deliveries;
        client = f.client;
        composed = f.composed;
        mounts = f.mounts;
        router = f.router;

        topic = new TopicState(this);
        counts = new ListenerCounts(this);
        slots = new SubscriberSlots(this);
        fanout = new Fanout(this);
        store.wire(topic, fanout, slots, counts, node);
    }
}
