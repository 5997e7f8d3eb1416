package io.spectrum.host.runtime;

import io.spectrum.client.Requests;
import io.spectrum.link.Link;
import io.spectrum.node.ServingNode;
import io.spectrum.node.RemoteClient;
import io.spectrum.node.route.FwdRouter;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.WireError;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The declarations of the board vertices the host holds (those with an upstream edge,
 * {@link Upstream}): for each (mount, board path → host path) one READ of
 * {@code board path:settings.app} through the node's own remote client,
 * parsed with {@link VertexSchema#fromSettings} and kept until the board's peer goes down (which
 * the liveness probe also reports for a board that restarted faster than the link timeout, by its
 * changed {@code spectrum.boot}); then it is read again once the board answers. A board without
 * declarations (an older board, a plain v1 node) answers a refusal or an empty SETTINGS: the
 * vertex then has none and its values render raw. This copy is what the host's own views render by,
 * it is {@link io.spectrum.node.api.Node#report reported} on the host vertex, and while it is
 * current (read from the board since the board last went away) it is what a client's READ of the
 * board vertex's {@code :settings.app} through the host gets: the router answers it from the host's
 * vertex rather than asking the board ({@link FwdRouter.HeldDeclarations}, docs/routing.md
 * "Declarations under a mount"). Node thread only.
 */
final class Declarations implements FwdRouter.HeldDeclarations {
    private static final byte[] SETTINGS_APP = Requests.settingsApp();
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(5);
    /**
     * Declaration reads in flight at once: a host that starts following a board of 1,000 vertices
     * asked all 1,000 at once, which with the 1,000 upstream edges filled the remote client's table
     * (refusals counted in {@code node.remoteRequests}, warned) and delayed the walk's own listings.
     */
    static final int WINDOW = 64;

    private static final class Entry {
        final Link link;
        final int peer;
        final NodePath remote;
        VertexSchema schema;
        boolean known;
        /**
         * The schema was read from the board since it last went away, and is reported on the host
         * vertex: what the router answers a client's declaration READ with.
         */
        boolean current;
        int request = -1;
        long sentAt;
        long triedAt = Long.MIN_VALUE / 2;

        Entry(Link link, int peer, NodePath remote) {
            this.link = link;
            this.peer = peer;
            this.remote = remote;
        }
    }

    private final ServingNode node;
    /** How long an unanswered request keeps its slot after it was given up ({@link #abandon}). */
    private static final long ABANDON_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final Map<String, Entry> byLocal = new HashMap<>();
    /**
     * The copies that allow READ, by host path, current or kept from before the board went away (as
     * {@link #schema}), published for a client of the host in its own process on another thread
     * (the MQTT bridge, {@link #copy}). Written on the node thread only, with {@link Entry#schema}.
     */
    private final Map<String, VertexSchema> copies = new ConcurrentHashMap<>();
    private final List<Integer> abandonedRequest = new ArrayList<>();
    private final List<Long> abandonedAt = new ArrayList<>();
    private final byte[] result = new byte[4096];

    Declarations(ServingNode node) {
        this.node = node;
        node.server().answerDeclarationsHere(this); // the router asks this table, on the node thread
    }

    /**
     * The router's question: the host holds a current copy of the declaration of the vertex it keeps
     * at PATH body {@code b[off, off + len)} for the board on (link, peer), one that lets a caller
     * READ (the board refuses a declaration READ of a vertex without the READ right: that refusal
     * stays the board's). No copy yet, none since the board went away or restarted, a board without
     * declarations: false, and the READ is forwarded to the board as any other.
     */
    @Override
    public boolean holds(Link link, int peer, byte[] b, int off, int len) {
        if (copies.isEmpty()) {
            return false;
        }
        Entry e = byLocal.get(NodePath.render(b, off, len));
        return e != null && e.current && e.link == link && e.peer == peer && e.schema != null
                && e.schema.allows(AccessMask.READ);
    }

    /** Reads the declaration of board vertex {@code remote} on {@code mount}, held at host path {@code local}. */
    void watch(Mount mount, String remote, String local) {
        Entry e = byLocal.get(local);
        if (e == null || e.link != mount.link() || e.peer != mount.peer() || !e.remote.toString().equals(remote)) {
            if (e != null) {
                release(e);
                copies.remove(local);
            }
            byLocal.put(local, new Entry(mount.link(), mount.peer(), NodePath.of(remote)));
        }
    }

    /** Stops following {@code local}'s declaration; the last one read stays for its last value. */
    void unwatch(String local) {
        Entry e = byLocal.get(local);
        if (e != null) {
            release(e);
            e.known = true; // nothing more is asked; the schema stays
        }
    }

    /**
     * The host's copy of the declaration of the board vertex it keeps at {@code local}, the one its
     * own views render by ({@link #schema}): current, or kept from before the board went away until
     * it is read again (the board's last values stay, stale, and render by it). Null when there is
     * none, or it does not let a caller READ. Any thread.
     */
    VertexSchema copy(String local) {
        return copies.get(local);
    }

    /** The declaration of the board vertex held at {@code local}, or null (none, not yet read, not a board's). */
    VertexSchema schema(String local) {
        Entry e = byLocal.get(local);
        return e == null ? null : e.schema;
    }

    /** Remembers a declaration read by someone else (a view's own read). */
    void learned(String local, Mount mount, String remote, VertexSchema schema) {
        Entry e = byLocal.get(local);
        if (e == null) {
            e = new Entry(mount.link(), mount.peer(), NodePath.of(remote));
            byLocal.put(local, e);
        }
        e.schema = schema;
        e.known = true;
        if (schema != null && schema.allows(AccessMask.READ)) {
            copies.put(local, schema);
        } else {
            copies.remove(local);
        }
    }

    /**
     * The board on (link, peer) went away (or restarted): read its declarations again once it
     * answers. The last one stays meanwhile, so its last (stale) values still show with their unit.
     * The host's copy of each of its declared vertices is marked stale now, with the reason
     * {@link StaleReason#BOARD_AWAY}, before the node's own mark (call this before the node hears of
     * the peer): it is the board's last known state, kept while the mount exists and fresh again
     * with the board's next delivery (docs/host.md, "A board that goes away").
     */
    void peerDown(Link link, int peer) {
        for (Map.Entry<String, Entry> m : byLocal.entrySet()) {
            Entry e = m.getValue();
            if (e.link == link && e.peer == peer) {
                if (e.schema != null) { // a copy that holds no value answers PATH_NOT_FOUND: nothing to mark
                    node.markStale(NodePath.of(m.getKey()), StaleReason.BOARD_AWAY);
                }
                release(e);
                e.known = false;
                e.current = false; // the board may come back declaring anew: asked again, meanwhile forwarded
                e.triedAt = Long.MIN_VALUE / 2;
            }
        }
    }

    /** Sends what is unknown, takes in answers; returns true when a declaration changed. */
    boolean poll(long now) {
        RemoteClient client = node.remote();
        boolean changed = false;
        int inFlight = 0;
        for (Entry e : byLocal.values()) {
            if (!e.known && e.request >= 0) {
                inFlight++;
            }
        }
        for (Map.Entry<String, Entry> m : byLocal.entrySet()) {
            Entry e = m.getValue();
            if (e.known) {
                continue;
            }
            if (e.request < 0) {
                if (inFlight < WINDOW && now - e.triedAt >= RETRY_NANOS) {
                    inFlight++;
                    e.triedAt = now;
                    int k = client.readField(e.link, e.peer, e.remote, SETTINGS_APP);
                    e.request = k;
                    e.sentAt = now;
                }
                continue;
            }
            if (client.requestState(e.request) == RemoteClient.DONE) {
                int code = client.requestError(e.request);
                if (transientFailure(code)) {
                    release(e); // no answer about the vertex (timed out, link busy or down): ask again later
                    continue;
                }
                VertexSchema before = e.schema;
                if (code == WireError.OK) {
                    int n = client.requestResult(e.request, result, 0);
                    e.schema = n > 0 ? VertexSchema.fromSettings(result, 0, n) : null;
                } else {
                    e.schema = null; // the board answered that the vertex has no declaration
                }
                e.known = true;
                changed |= e.schema != before;
                // readers of the host vertex's :settings.app / :schema learn what the board declared
                e.current = node.report(NodePath.of(m.getKey()), e.schema) == WireError.OK;
                if (e.schema != null && e.schema.allows(AccessMask.READ)) {
                    copies.put(m.getKey(), e.schema);
                } else {
                    copies.remove(m.getKey());
                }
                release(e);
            } else if (now - e.sentAt > GIVE_UP_NANOS) {
                abandon(e, now); // unanswered: ask again after RETRY_NANOS
            }
        }
        releaseAbandoned(now);
        return changed;
    }

    /**
     * Gives up waiting for {@code e}'s answer without freeing its request yet. A request's reply
     * endpoint is its slot number, and a freed slot is the next one taken: a late answer (a serial
     * board still starting reads a backlog of requests) would then be taken for the next request's,
     * the declaration of one vertex landing on another (seen in the demo: /board1/temp shown raw
     * with the counter's declaration). The slot is freed once its own answer came, or after
     * {@link #ABANDON_NANOS}.
     */
    private void abandon(Entry e, long now) {
        abandon(e.request, now);
        e.request = -1;
    }

    /** Gives up on any remote request of the host node (a write nobody answered), as above. Node thread. */
    void abandon(int request, long now) {
        abandonedRequest.add(request);
        abandonedAt.add(now);
    }

    private void releaseAbandoned(long now) {
        RemoteClient client = node.remote();
        for (int i = abandonedRequest.size() - 1; i >= 0; i--) {
            int k = abandonedRequest.get(i);
            if (client.requestState(k) == RemoteClient.DONE || now - abandonedAt.get(i) > ABANDON_NANOS) {
                client.release(k);
                abandonedRequest.remove(i);
                abandonedAt.remove(i);
            }
        }
    }

    /**
     * A failure that says nothing about the vertex's declaration (the request timed out, the link was
     * busy or down, the frame was damaged): the declaration is asked for again, not taken to be none.
     */
    static boolean transientFailure(int code) {
        return switch (code) {
            case WireError.FLOW_TIMEOUT, WireError.FLOW_BACKPRESSURE, WireError.TRANSPORT_DOWN,
                 WireError.FRAME_TRUNCATED, WireError.FRAME_INVALID, WireError.FRAME_CRC_FAIL -> true;
            default -> false;
        };
    }

    private void release(Entry e) {
        if (e.request >= 0) {
            node.remote().release(e.request);
            e.request = -1;
        }
    }
}
