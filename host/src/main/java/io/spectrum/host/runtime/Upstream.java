package io.spectrum.host.runtime;

import io.spectrum.node.ServingNode;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.api.ActivityListener;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexPath;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.StaleReason;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Subscriptions terminate at the host (docs/host.md): a client's subscription to
 * {@code /board1/sensor/temp} is a slot on the host's own vertex of that path, and this class keeps
 * the one upstream edge per vertex that feeds it. It hears the node's activity notices (a vertex's
 * delivering subscribers, its own and its ancestors', going 0 -> more and more -> 0) and keeps an
 * upstream subscription ({@code subscribeRemote}: the board's path without the mount name, landing
 * on the host vertex of the whole path) for every active vertex under a mount that holds a value of
 * its own. An active vertex the board walk knows to have children (or a mount root) is fed through
 * its leaves instead, each on its own edge: every board value lands on its own host vertex, and the
 * host's subtree subscribers see each write once. An edge nobody needs any more is cleared on the
 * board ({@code unsubscribe}). So a board sees one edge per vertex however many clients the host
 * serves.
 *
 * <p>An append the board did not answer within {@link #RESEND_NANOS} (a board still starting) is
 * sent again; a refused one (a path the board does not have) is tried again after
 * {@link #RETRY_REFUSED_NANOS} while a client still wants it. Refusals are never silent: the host's
 * own (its remote-subscription table full, counted in {@code node.remoteSubscriptions}) and the
 * board's (e.g. {@code flow::backpressure}: the host over the board's slots per peer) are told to
 * the operator in one line per {@link #WARN_NANOS}, with how many and the first path and reason.
 * Node thread only.
 */
final class Upstream implements ActivityListener {
    static final long RESEND_NANOS = TimeUnit.SECONDS.toNanos(2);
    static final long RETRY_REFUSED_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final long WARN_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** One upstream edge: the host vertex it feeds, its mount, the client-table handle. */
    static final class Edge {
        final String local;
        final Mount mount;
        final String remote;
        int handle = -1;
        long since;
        int refusal;

        Edge(String local, Mount mount, String remote) {
            this.local = local;
            this.mount = mount;
            this.remote = remote;
        }
    }

    /** Where a mount's requests go, as the host runtime registered it. */
    interface Mounts {
        /** The mount {@code path} lies under ({@code /name} or below), or null. */
        Mount of(String path);
    }

    /** What the board walks found. */
    interface Tree {
        /**
         * The leaves below {@code path} (host paths) when it is a mount root or a vertex found with
         * children; null when it is a leaf or not known.
         */
        List<String> leavesUnder(String path);
    }

    private final ServingNode node;
    private final Mounts mounts;
    private final Tree tree;
    private final Runnable wake;
    private final Declarations declarations;
    /** Vertices with delivering subscribers now (from the activity notices). */
    private final TreeSet<String> active = new TreeSet<>();
    private final Map<String, Edge> edges = new HashMap<>();
    private boolean changed;
    private final java.util.function.Consumer<String> warnings;
    /** Refusals since the last warning line: how many, and the first one's words. */
    private long refusedSinceWarning;
    private String firstRefusal;
    private long warnedAt = Long.MIN_VALUE / 2;

    /**
     * @param wake asks for {@link #reconcile} soon on the node thread (the notice arrives inside the
     *     node's own bookkeeping, where no remote request is sent)
     */
    Upstream(ServingNode node, Mounts mounts, Tree tree, Declarations declarations, Runnable wake,
             java.util.function.Consumer<String> warnings) {
        this.warnings = warnings;
        this.node = node;
        this.mounts = mounts;
        this.tree = tree;
        this.declarations = declarations;
        this.wake = wake;
    }

    @Override
    public void onActivity(VertexPath path, boolean on, int subscribers) {
        String p = path.path();
        if (on ? active.add(p) : active.remove(p)) {
            changed = true;
            wake.run();
        }
    }

    /** The walks found another tree: the edges of active interior vertices are worked out again. */
    void treeChanged() {
        changed = true;
    }

    /** The upstream edges now (for views and tests). */
    List<Edge> edges() {
        return new ArrayList<>(edges.values());
    }

    /** The edge feeding {@code local}, or null. */
    Edge edge(String local) {
        return edges.get(local);
    }

    /**
     * Makes the upstream edges match what is active: adds the missing ones, clears the ones nobody
     * needs, re-sends unanswered appends and retries refused ones. Returns true when an edge changed.
     */
    boolean reconcile(long now) {
        boolean any = changed;
        changed = false;
        RemoteClient client = node.remote();
        Map<String, Mount> wanted = new HashMap<>();
        for (String p : active) {
            Mount m = mounts.of(p);
            if (m == null) {
                continue;
            }
            List<String> leaves = tree.leavesUnder(p);
            if (leaves == null) {
                wanted.put(p, m);
            } else {
                for (String leaf : leaves) {
                    wanted.put(leaf, m);
                }
            }
        }
        for (var it = edges.entrySet().iterator(); it.hasNext(); ) {
            Edge e = it.next().getValue();
            if (wanted.get(e.local) != e.mount) {
                drop(client, e);
                it.remove();
                any = true;
            }
        }
        for (Map.Entry<String, Mount> w : wanted.entrySet()) {
            Edge e = edges.get(w.getKey());
            if (e == null) {
                e = new Edge(w.getKey(), w.getValue(), w.getValue().remote(w.getKey()));
                edges.put(e.local, e);
                subscribe(e, now);
                any = true;
            } else {
                any |= keep(client, e, now);
            }
        }
        if (refusedSinceWarning > 0 && now - warnedAt >= WARN_NANOS) {
            warnings.accept(refusedSinceWarning + " upstream subscription" + (refusedSinceWarning == 1 ? "" : "s")
                    + " refused (first: " + firstRefusal + "); retried every "
                    + TimeUnit.NANOSECONDS.toSeconds(RETRY_REFUSED_NANOS) + " s while someone listens");
            refusedSinceWarning = 0;
            firstRefusal = null;
            warnedAt = now;
        }
        return any;
    }

    private void subscribe(Edge e, long now) {
        e.since = now;
        e.refusal = 0;
        e.handle = node.subscribeRemote(e.mount.link(), e.mount.peer(), NodePath.of(e.remote), NodePath.of(e.local),
                DeliveryPolicy.DURABILITY_REQUEST);
        if (e.handle < 0) {
            e.refusal = -e.handle;
            refused(e, "by this host: " + io.spectrum.wire.WireError.identity(e.refusal)
                    + (e.refusal == io.spectrum.wire.WireError.FLOW_BACKPRESSURE
                    ? " (its remote-subscription table is full: maxRemoteSubscriptions)" : ""));
        }
        declarations.watch(e.mount, e.remote, e.local);
    }

    /** Re-sends what is unanswered, retries what was refused. True when the edge's state changed. */
    private boolean keep(RemoteClient client, Edge e, long now) {
        int state = e.handle < 0 ? RemoteClient.REFUSED : client.state(e.handle);
        if (state == RemoteClient.REFUSED) {
            if (e.handle >= 0) {
                e.refusal = client.error(e.handle);
                if (e.refusal != io.spectrum.wire.WireError.PATH_NOT_FOUND) { // a path the board lacks is no ceiling
                    refused(e, "by the board: " + io.spectrum.wire.WireError.identity(e.refusal)
                            + (e.refusal == io.spectrum.wire.WireError.FLOW_BACKPRESSURE
                            ? " (the host is over the board's share of slots per peer, or the board's table is full)" : ""));
                }
                client.forget(e.handle);
                e.handle = -1;
                e.since = now;
                notFollowed(e);
                return true;
            }
            if (now - e.since > RETRY_REFUSED_NANOS) {
                subscribe(e, now);
            }
        } else if (state == RemoteClient.SENT && now - e.since > RESEND_NANOS) {
            client.forget(e.handle);
            subscribe(e, now);
        }
        return false;
    }

    private void refused(Edge e, String why) {
        if (refusedSinceWarning++ == 0) {
            firstRefusal = e.local + " " + why;
        }
    }

    private void drop(RemoteClient client, Edge e) {
        if (e.handle >= 0) {
            int k = client.unsubscribe(e.handle); // clears the board's slot, forgets the record
            if (k >= 0) {
                declarations.abandon(k, node.clock().nanoTime()); // freed once answered (or after a while)
            }
            e.handle = -1;
        }
        notFollowed(e);
        declarations.unwatch(e.local);
    }

    /**
     * The host's copy at the edge's vertex is current only while the edge feeds it (docs/host.md,
     * "Freshness"): once it does not, the copy is marked stale with the reason {@code not followed},
     * so a later subscriber's replay says so, and the next value the edge brings (the board's
     * current one, by the append's durability latch) clears the mark. A vertex without a value
     * answers PATH_NOT_FOUND and is left alone.
     */
    private void notFollowed(Edge e) {
        node.markStale(NodePath.of(e.local), StaleReason.NOT_FOLLOWED);
    }

    /** The board refused the edge feeding {@code local} with this code, or 0. */
    int refusal(String local) {
        Edge e = edges.get(local);
        return e == null ? 0 : e.refusal;
    }
}
