package io.spectrum.host.runtime;

import io.spectrum.client.Requests;
import io.spectrum.client.TreeWalk;
import io.spectrum.node.ServingNode;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.WireError;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * What each mounted board has, for the host's own views (the dashboard shows it; nothing is
 * subscribed because of it): a walk of the board's tree through the node's remote client, the
 * way the client's {@link TreeWalk} walks a node — {@code :children[]} of each vertex, the composed
 * READ of the vertex for a node without that field, and the mount's configured top-level names for
 * a board whose root cannot be listed. Up to {@link #WINDOW} listings per mount in flight; a mount is walked when its
 * board comes up and again every {@link #REWALK_NANOS}. {@code $} names (the node's own) are
 * skipped. Node thread only.
 *
 * <p>A vertex whose listing the board refuses (its answer does not fit the board's frame:
 * {@code flow::backpressure}) or does not answer within {@link #GIVE_UP_NANOS} is not silently taken
 * for a leaf: the operator is told once, in one line naming the vertex and the reason, until its
 * listing works again (a subscription to it is then fed whole, on its own host vertex).
 *
 * <p>One unanswered listing is not a silent board: when the board answered another listing after
 * that one went out (a frame lost on the line, a board answering slowly while it warms up), only that
 * listing is asked again, up to {@link #ASKS} times, and the walk goes on. A walk is given up, and
 * started again after a pause, only when the board answered nothing since the listing went out. A
 * board that comes up (again) is walked at once and its pause starts from {@link #GIVE_UP_NANOS}.
 */
final class BoardTree {
    static final long REWALK_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final int MAX_DEPTH = 8;
    private static final int MAX_VERTICES = 2048;
    /**
     * Listings in flight per mount: a walk asks every vertex, leaves too, so one at a time made a
     * board of 1,000 vertices 1,000 sequential round trips (tens of seconds on a busy host, during
     * which a subscription to the subtree was fed whole, on one host vertex).
     */
    static final int WINDOW = 32;
    /** How many times one listing is asked while the board answers others, before the walk gives up. */
    static final int ASKS = 3;
    private static final byte[] CHILDREN = Requests.children();

    private static final class Item {
        final String remote;
        final int depth;
        boolean composed; // the :children[] read was refused as unknown: asking the composed READ
        int asked; // times this listing went out unanswered and was asked again

        Item(String remote, int depth) {
            this.remote = remote;
            this.depth = depth;
        }
    }

    /** One listing asked: its request handle, its item, when it went out. */
    private record InFlight(int request, Item item, long sentAt) { }

    private static final class Walk {
        final Mount mount;
        final Deque<Item> pending = new ArrayDeque<>();
        /** board path -> leaf (no children found) */
        final Map<String, Boolean> found = new TreeMap<>();
        /** The last complete walk's, in path order. */
        Map<String, Boolean> last = new TreeMap<>();
        /** The listings asked and not answered yet, at most {@link #WINDOW}. */
        final List<InFlight> inFlight = new ArrayList<>();
        boolean walking;
        long startedAt = Long.MIN_VALUE / 2;
        boolean due = true;
        /**
         * How long after a walk gave up the next one starts: {@link #GIVE_UP_NANOS} at first, doubled
         * each time up to {@link #REWALK_NANOS}, back to the start once a walk completes, so a board
         * that is slow to start (a JVM warming up) is listed seconds later, not half a minute.
         */
        long retryNanos = GIVE_UP_NANOS;
        /** When the board last answered one of this walk's listings. */
        long answeredAt = Long.MIN_VALUE / 2;

        Walk(Mount mount) {
            this.mount = mount;
        }
    }

    private final ServingNode node;
    private final Declarations declarations;
    private final Map<String, Walk> walks = new HashMap<>();
    private final byte[] result;
    private final java.util.function.Consumer<String> warnings;
    /** What was warned about, per host path (the code or -1 for no answer): told once until it changes. */
    private final Map<String, Integer> warned = new HashMap<>();

    BoardTree(ServingNode node, Declarations declarations, int resultBytes, java.util.function.Consumer<String> warnings) {
        this.node = node;
        this.declarations = declarations;
        this.result = new byte[resultBytes];
        this.warnings = warnings;
    }

    void add(Mount m) {
        walks.put(m.name(), new Walk(m));
    }

    /** Walks the mount again soon (its board came up). */
    void rewalk(String mount) {
        Walk w = walks.get(mount);
        if (w != null) {
            w.due = true;
            w.retryNanos = GIVE_UP_NANOS; // it is up now: no pause grown while it was starting
        }
    }

    /**
     * The vertices found on each mount, as host paths ({@code /board1/temp}) to "leaf", in
     * path order: the last complete walk's.
     */
    Map<String, Boolean> vertices() {
        Map<String, Boolean> all = new TreeMap<>();
        for (Walk w : walks.values()) {
            for (Map.Entry<String, Boolean> e : w.last.entrySet()) {
                all.put(host(w.mount, e.getKey()), e.getValue());
            }
        }
        return all;
    }

    /**
     * The leaves found below host path {@code path} when it is a mount root or a vertex found with
     * children (empty before the first walk of its mount), null for a leaf or a path not found.
     */
    List<String> leavesUnder(String path) {
        for (Walk w : walks.values()) {
            Mount m = w.mount;
            if (!m.covers(path)) {
                continue;
            }
            String remote = m.remote(path);
            Boolean leaf = w.last.get(remote);
            if (!"/".equals(remote) && (leaf == null || leaf)) {
                return null;
            }
            List<String> out = new ArrayList<>();
            String below = "/".equals(remote) ? "/" : remote + "/";
            for (Map.Entry<String, Boolean> e : w.last.entrySet()) {
                if (e.getValue() && e.getKey().startsWith(below)) {
                    out.add(host(m, e.getKey()));
                }
            }
            return out;
        }
        return null;
    }

    /** One line per vertex and reason, until the reason changes or the listing works. */
    private void warn(Walk w, Item item, int code, String why) {
        String at = host(w.mount, item.remote);
        Integer before = warned.put(at, code);
        if (before == null || before != code) {
            warnings.accept("cannot list the children of " + at + ": " + why);
        }
    }

    private static String host(Mount m, String remote) {
        return "/".equals(remote) ? m.root() : m.root() + remote;
    }

    /** Advances every walk by what has been answered; true when a walk finished with another picture. */
    boolean poll(long now) {
        boolean changed = false;
        for (Walk w : walks.values()) {
            changed |= step(w, now);
        }
        return changed;
    }

    private boolean step(Walk w, long now) {
        RemoteClient client = node.remote();
        for (int i = 0; i < w.inFlight.size(); i++) {
            InFlight f = w.inFlight.get(i);
            if (client.requestState(f.request()) != RemoteClient.DONE) {
                if (now - f.sentAt() > GIVE_UP_NANOS && w.answeredAt > f.sentAt() && f.item().asked < ASKS) {
                    declarations.abandon(f.request(), now); // a late answer must not land on another request
                    w.inFlight.remove(i--);
                    f.item().asked++;
                    w.pending.addFirst(f.item()); // the board answers others: ask this one again
                    continue;
                }
                if (now - f.sentAt() > GIVE_UP_NANOS) {
                    warn(w, f.item(), -1, "the board did not answer the listing within "
                            + TimeUnit.NANOSECONDS.toSeconds(GIVE_UP_NANOS) + " s (the walk starts again in "
                            + TimeUnit.NANOSECONDS.toSeconds(w.retryNanos) + " s)");
                    for (InFlight g : w.inFlight) { // a late answer must not land on another request
                        declarations.abandon(g.request(), now);
                    }
                    w.inFlight.clear();
                    w.pending.clear(); // the board is busy or gone: try again, sooner than a rewalk
                    w.found.clear();
                    w.walking = false;
                    w.startedAt = now - REWALK_NANOS + w.retryNanos;
                    w.retryNanos = Math.min(w.retryNanos * 2, REWALK_NANOS);
                    return false;
                }
                continue;
            }
            int code = client.requestError(f.request());
            int n = code == WireError.OK ? client.requestResult(f.request(), result, 0) : 0;
            client.release(f.request());
            w.inFlight.remove(i--);
            w.answeredAt = now;
            answered(w, f.item(), code, n);
        }
        if (!w.walking) {
            if (!w.due && now - w.startedAt < REWALK_NANOS) {
                return false;
            }
            w.due = false;
            w.walking = true;
            w.startedAt = now;
            w.found.clear();
            if (w.mount.top().isEmpty()) {
                w.pending.add(new Item("/", 0));
            } else {
                for (String t : w.mount.top()) {
                    w.pending.add(new Item("/" + t, 1));
                }
            }
        }
        if (w.pending.isEmpty() && w.inFlight.isEmpty()) { // the walk is complete
            w.walking = false;
            w.retryNanos = GIVE_UP_NANOS;
            if (!w.found.equals(w.last)) {
                w.last = new TreeMap<>(w.found);
                return true;
            }
            return false;
        }
        while (w.inFlight.size() < WINDOW && !w.pending.isEmpty()) {
            Item next = w.pending.peekFirst();
            NodePath p = NodePath.of(next.remote);
            int k = next.composed ? client.read(w.mount.link(), w.mount.peer(), p)
                    : client.readField(w.mount.link(), w.mount.peer(), p, CHILDREN);
            if (k < 0) {
                break; // no request slot now: the next poll asks again
            }
            w.pending.removeFirst();
            w.inFlight.add(new InFlight(k, next, now));
        }
        return false;
    }

    private void answered(Walk w, Item item, int code, int n) {
        if (code == WireError.SCHEMA_NOT_FOUND && !item.composed) {
            item.composed = true; // no :children field there: the composed READ lists them
            w.pending.addFirst(item);
            return;
        }
        List<String> names = null;
        if (code == WireError.OK) {
            byte[] v = java.util.Arrays.copyOf(result, n);
            names = item.composed ? TreeWalk.composedNames(v) : TreeWalk.names(v);
            if (names == null) {
                names = List.of(); // a plain value: a leaf
            }
        }
        if (names == null && code != WireError.PATH_NOT_FOUND && code != WireError.ACCESS_DENIED) {
            warn(w, item, code, "the board refused its listing: " + WireError.identity(code)
                    + (code == WireError.FLOW_BACKPRESSURE ? " (the listing does not fit the board's frame or the host's"
                    + " result buffer)" : "") + "; it is taken for a leaf, so a subscription to it is fed whole");
        } else {
            warned.remove(host(w.mount, item.remote));
        }
        if (names == null) { // refused (absent, denied): a named top still shows, as a leaf
            if (item.depth > 0 && code != WireError.ACCESS_DENIED) {
                w.found.put(item.remote, true);
            }
            return;
        }
        if (item.depth > 0) {
            w.found.put(item.remote, names.isEmpty());
        }
        if (item.depth >= MAX_DEPTH) {
            return;
        }
        List<Item> kids = new ArrayList<>();
        for (String name : names) {
            if (name.startsWith("$") || w.found.size() + kids.size() >= MAX_VERTICES) {
                continue;
            }
            String child = "/".equals(item.remote) ? "/" + name : item.remote + "/" + name;
            try {
                NodePath.of(child);
            } catch (IllegalArgumentException e) {
                continue; // a name this host cannot spell back
            }
            kids.add(new Item(child, item.depth + 1));
        }
        for (int i = kids.size() - 1; i >= 0; i--) {
            w.pending.addFirst(kids.get(i)); // depth first, in the board's order
        }
    }
}
