package io.spectrum.node.topic;

import io.spectrum.node.api.ActivityListener;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.fwd.Deliveries;
import io.spectrum.node.fwd.FwdServer;
import io.spectrum.node.pool.BlockPool;
import io.spectrum.node.table.VertexTable;

/**
 * The delivering-edge counts: a vertex's own count and the listener count of every vertex in its
 * subtree, and the active / idle notice to the vertex's last publisher when a listener count
 * leaves or reaches zero.
 */
public final class ListenerCounts {
    private final VertexTable vt;
    private final BlockPool records;
    private final Deliveries deliveries;
    private ActivityListener activity;
    /**
     * A host serving subscriptions under its mounts hears every vertex's notices itself: the
     * vertices it feeds from its boards are published by their deliveries, not by its own host.
     */
    private final boolean allLocal;
    /** The read-only path view handed to the activity listener. */
    private final ValueView path = new ValueView();

    /** Listener counts over the node's vertex table and record pool, noticing through {@code deliveries}. */
    public ListenerCounts(NodeConfig config, VertexTable vt, BlockPool records, Deliveries deliveries) {
        this.vt = vt;
        this.records = records;
        this.deliveries = deliveries;
        this.allLocal = config.serveSubscriptionsUnderMounts();
    }

    /** The local host's receiver of active / idle notices (null: none). */
    public void setActivityListener(ActivityListener listener) {
        activity = listener;
    }

    /** Changes the delivering count of v's own edges and every listener count in its subtree. */
    public void adjust(int v, int delta) {
        vt.addOwnSubs(v, delta);
        for (int d = v; d != VertexTable.NONE; d = vt.nextInSubtree(d, v)) {
            int old = vt.listeners(d);
            int now = old + delta;
            vt.setListeners(d, now);
            if (old == 0 && now > 0) {
                notice(d, true, now);
            } else if (old > 0 && now == 0) {
                notice(d, false, 0);
            }
        }
    }

    /** Active / idle notice to the vertex's last publisher. */
    private void notice(int v, boolean active, int n) {
        final int pl = vt.pubLink(v);
        if (pl == FwdServer.OWNER || allLocal) {
            if (activity != null) {
                activity.onActivity(path.wrapPath(vt.keys(), vt.keyOffset(v), vt.keyLen(v)), active, n);
            }
        } else if (pl >= 0 && vt.publisherNotify(v) && vt.pubRouteOff(v) >= 0) {
            deliveries.notice(pl, vt.pubPeer(v), records.memory(), vt.pubRouteOff(v), vt.pubRouteLen(v), active,
                    vt.keys(), vt.keyOffset(v), vt.keyLen(v), n);
        }
    }
}
