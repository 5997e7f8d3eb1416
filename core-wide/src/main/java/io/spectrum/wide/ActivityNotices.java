package io.spectrum.wide;

import io.spectrum.node.api.ActivityListener;
import io.spectrum.node.fwd.FwdServer;

/**
 * The delivering counts of a {@link WideNode}'s vertices and the active / idle notices their
 * transitions send: each vertex counts its own delivering edges ({@link Vertex#ownSubs}) and the
 * delivering edges at or above it ({@link Vertex#listeners}); when the latter goes from 0 or to 0
 * the vertex's last publisher is told, if it is still connected (a remote one at the notice route
 * it gave, an in-process one through its listener, the owner through the node's).
 */
final class ActivityNotices {
    /**
     * A host serving subscriptions under its mounts hears the notices of the vertices under them
     * itself: those it feeds from its boards are published by their deliveries, not by a publisher
     * of its own. Every other vertex's go to its last publisher (a bus connection, an announcing
     * client), as on any node.
     */
    private final boolean allLocal;
    private final WidePeer owner;
    private final FwdServer server;
    private final ValueView pathView = new ValueView();
    /** The owner's listener ({@link WideNode#setActivityListener}), or null. */
    ActivityListener listener;

    ActivityNotices(boolean allLocal, WidePeer owner, FwdServer server) {
        this.allLocal = allLocal;
        this.owner = owner;
        this.server = server;
    }

    /** Changes the delivering count of v's own edges and every listener count in its subtree. */
    void adjust(Vertex v, int delta) {
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
    void notice(Vertex v, boolean active, int n) {
        if (allLocal && server.underMount(v.key, 0, v.key.length)) {
            if (listener != null) {
                listener.onActivity(pathView.wrap(null, 0, v.key, false), active, n);
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
        final ActivityListener to = p == owner ? listener : p.activity;
        if (to != null) {
            to.onActivity(pathView.wrap(null, 0, v.key, false), active, n);
        }
    }
}
