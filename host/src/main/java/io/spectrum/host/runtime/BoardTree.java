package io.spectrum.host.runtime;

import io.spectrum.client.Requests;
import io.spectrum.client.TreeWalk;
import io.spectrum.node.ServingNode;
import io.spectrum.node.RemoteClient;
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
 * a board whose root cannot be listed. One request per mount in flight; a mount is walked when its
 * board comes up and again every {@link #REWALK_NANOS}. {@code $} names (the node's own) are
 * skipped. Node thread only.
 */
final class BoardTree {
    static final long REWALK_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final int MAX_DEPTH = 8;
    private static final int MAX_VERTICES = 2048;
    private static final byte[] CHILDREN = Requests.children();

    private static final class Item {
        final String remote;
        final int depth;
        boolean composed; // the :children[] read was refused as unknown: asking the composed READ

        Item(String remote, int depth) {
            this.remote = remote;
            this.depth = depth;
        }
    }

    private static final class Walk {
        final Mount mount;
        final Deque<Item> pending = new ArrayDeque<>();
        /** board path -> leaf (no children found) */
        final Map<String, Boolean> found = new TreeMap<>();
        /** The last complete walk's, in path order. */
        Map<String, Boolean> last = new TreeMap<>();
        int request = -1;
        long sentAt;
        long startedAt = Long.MIN_VALUE / 2;
        boolean due = true;

        Walk(Mount mount) {
            this.mount = mount;
        }
    }

    private final ServingNode node;
    private final Declarations declarations;
    private final Map<String, Walk> walks = new HashMap<>();
    private final byte[] result;

    BoardTree(ServingNode node, Declarations declarations, int resultBytes) {
        this.node = node;
        this.declarations = declarations;
        this.result = new byte[resultBytes];
    }

    void add(Mount m) {
        walks.put(m.name(), new Walk(m));
    }

    /** Walks the mount again soon (its board came up). */
    void rewalk(String mount) {
        Walk w = walks.get(mount);
        if (w != null) {
            w.due = true;
        }
    }

    /**
     * The vertices found on each mount, as host paths ({@code /board1/board/temp}) to "leaf", in
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
        if (w.request >= 0) {
            if (client.requestState(w.request) != RemoteClient.DONE) {
                if (now - w.sentAt > GIVE_UP_NANOS) {
                    declarations.abandon(w.request, now); // a late answer must not land on another request
                    w.request = -1;
                    w.pending.clear(); // the board is busy or gone: try again later
                    w.found.clear();
                    w.startedAt = now;
                }
                return false;
            }
            Item item = w.pending.peekFirst();
            int code = client.requestError(w.request);
            int n = code == WireError.OK ? client.requestResult(w.request, result, 0) : 0;
            client.release(w.request);
            w.request = -1;
            answered(w, item, code, n);
        } else if (w.pending.isEmpty()) {
            if (!w.due && now - w.startedAt < REWALK_NANOS) {
                return false;
            }
            w.due = false;
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
        if (w.pending.isEmpty()) { // the walk is complete
            if (!w.found.equals(w.last)) {
                w.last = new TreeMap<>(w.found);
                return true;
            }
            return false;
        }
        Item next = w.pending.peekFirst();
        NodePath p = NodePath.of(next.remote);
        int k = next.composed ? client.read(w.mount.link(), w.mount.peer(), p)
                : client.readField(w.mount.link(), w.mount.peer(), p, CHILDREN);
        if (k >= 0) {
            w.request = k;
            w.sentAt = now;
        }
        return false;
    }

    private void answered(Walk w, Item item, int code, int n) {
        if (code == WireError.SCHEMA_NOT_FOUND && !item.composed) {
            item.composed = true; // no :children field there: the composed READ lists them
            return;
        }
        w.pending.removeFirst();
        List<String> names = null;
        if (code == WireError.OK) {
            byte[] v = java.util.Arrays.copyOf(result, n);
            names = item.composed ? TreeWalk.composedNames(v) : TreeWalk.names(v);
            if (names == null) {
                names = List.of(); // a plain value: a leaf
            }
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
