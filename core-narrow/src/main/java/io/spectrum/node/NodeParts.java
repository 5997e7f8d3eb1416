package io.spectrum.node;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.fwd.AwaitTable;
import io.spectrum.node.fwd.ComposedRead;
import io.spectrum.node.fwd.Deliveries;
import io.spectrum.node.fwd.FwdParts;
import io.spectrum.node.fwd.FwdServer;
import io.spectrum.node.fwd.LinkTable;
import io.spectrum.node.fwd.PeerShares;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.pool.BlockPool;
import io.spectrum.node.route.FwdRouter;
import io.spectrum.node.route.MountTable;
import io.spectrum.node.table.BackfillRing;
import io.spectrum.node.table.SlotTable;
import io.spectrum.node.table.VertexTable;
import io.spectrum.node.topic.Fanout;
import io.spectrum.node.topic.ListenerCounts;
import io.spectrum.node.topic.SubscriberSlots;
import io.spectrum.node.topic.TopicState;
import io.spectrum.time.Clock;

/**
 * The node's parts, built once by {@link NarrowNode} from its {@link NodeConfig} and shared by
 * reference: first the state every part works on (tables, pools, and the shared FWD side,
 * {@link FwdServer}, over them through {@link NarrowStore}: links, shares, awaits, deliveries, the
 * terminus), then the node's own topic parts in dependency order. A topic part's constructor takes
 * the members it uses (declared and built above it here) and keeps them in its own final fields; it
 * lives in {@code io.spectrum.node.topic}, which knows nothing of this class.
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
    final NarrowStore store;

    NodeParts(NodeConfig cfg, NarrowNode node) {
        config = cfg;
        clock = cfg.clock();
        vt = new VertexTable(cfg.maxVertices(), cfg.maxKeyBytes());
        st = new SlotTable(cfg.maxSubscribers());
        values = new BlockPool("node.values", cfg.valueBytes());
        records = new BlockPool("node.records", cfg.recordBytes());
        ring = new BackfillRing(cfg.maxVertices(), cfg.backfillDepth());
        store = new NarrowStore(vt, st, values, records, ring);
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

        topic = new TopicState(cfg, clock, vt, values, records, links, ring);
        counts = new ListenerCounts(cfg, vt, records, deliveries);
        slots = new SubscriberSlots(vt, st, records, counts, shares);
        fanout = new Fanout(vt, st, values, records, deliveries, topic, awaits, slots, shares);
        store.wire(topic, fanout, slots, counts, node);
    }
}
