package io.spectrum.host.runtime;

import io.spectrum.host.view.LinkView;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.node.ServingNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The host's links and mounts: each attached link with its peer count and the peer listener that
 * tells the board walk, the declarations and the backfill when a board comes or goes; each board
 * mounted by name, and which mount a path lies under.
 *
 * <p>Threading: node thread only (the runtime calls it from node-thread tasks, and the links call
 * the peer listeners from the loop); it holds no lock and nothing here is read from another thread.
 */
final class Mounts {
    private final ServingNode node;
    private final NodeThread loop;
    private final BoardTree tree;
    private final Declarations declarations;
    private final HistoryBackfill backfill;
    /** Marks the snapshot changed (the runtime's dirty flag). */
    private final Runnable changed;
    private final List<LinkEntry> links = new ArrayList<>();
    private final Map<String, Mount> mounts = new LinkedHashMap<>();
    private int listenerMounts;

    /** The links and mounts of a host over {@code node}, attached to {@code loop}; {@code changed} marks the snapshot changed. */
    Mounts(ServingNode node, NodeThread loop, BoardTree tree, Declarations declarations, HistoryBackfill backfill,
           Runnable changed) {
        this.node = node;
        this.loop = loop;
        this.tree = tree;
        this.declarations = declarations;
        this.backfill = backfill;
        this.changed = changed;
    }

    private final class LinkEntry implements PeerListener {
        final Link link;
        final PeerListener node;
        final String board;
        final boolean listener;
        int peersUp;

        LinkEntry(Link link, PeerListener node, String board, boolean listener) {
            this.link = link;
            this.node = node;
            this.board = board;
            this.listener = listener;
        }

        @Override
        public void onPeerUp(Link l, int peer) {
            peersUp++;
            node.onPeerUp(l, peer);
            if (!board.isEmpty()) {
                tree.rewalk(board); // a board that comes (back) may have other vertices
            }
        }

        @Override
        public void onPeerDown(Link l, int peer) {
            peersUp = Math.max(0, peersUp - 1);
            declarations.peerDown(l, peer); // its declared copies: stale, "board away"; it may declare anew
            backfill.peerDown(l); // what it offers is read again when it is back
            changed.run();
            node.onPeerDown(l, peer);
        }
    }

    /** Mounts a board's link (peer 0) under {@code /name}, {@code top} naming its top-level vertices if any. */
    void mount(Link link, String name, List<String> top) {
        attach(link, name, false);
        int code = node.mount(name, link, 0);
        if (code != WireError.OK) {
            throw new IllegalArgumentException("cannot mount " + link.name() + " as /" + name + ": "
                    + WireError.identity(code));
        }
        Mount m = new Mount(name, link, 0, top);
        mounts.put(name, m);
        tree.add(m);
        touch(m.root()); // the host root's :children[] lists the mount
        if (!top.isEmpty()) {
            for (String t : top) {
                touch(m.root() + "/" + t);
            }
            node.listMountHere(name); // :children[] of /name answered from those
        }
    }

    /**
     * Creates a vertex without a value or a subscriber (a suspended subscription taken and given
     * back: no activity, nothing delivered), so that the node's own {@code :children[]} lists it.
     */
    private void touch(String path) {
        Subscription s = node.subscribe(NodePath.of(path), DeliveryPolicy.SUSPENDED, (sub, v, seq, stale) -> { });
        if (s.error() != WireError.OK) {
            throw new IllegalArgumentException("cannot create " + path + " on the host: " + WireError.identity(s.error()));
        }
        s.close();
    }

    /** The mounts, in the order given. */
    List<Mount> mounts() {
        return List.copyOf(mounts.values());
    }

    /** Attaches and mounts a link clients connect to as a listener ("clients", "clients2", …). */
    void attachListener(Link link) {
        attach(link, "", true);
        String mount = "clients" + (listenerMounts++ == 0 ? "" : String.valueOf(listenerMounts));
        int code = node.mountListener(mount, link);
        if (code != WireError.OK) {
            throw new IllegalArgumentException("cannot mount the client listener " + link.name() + ": "
                    + WireError.identity(code));
        }
    }

    /** Attaches {@code link} to the loop, counting its peers for the link view ({@code board}: its mount, or ""). */
    void attach(Link link, String board, boolean listener) {
        loop.attach(link);        // node, liveness probe (a READ of /$node/caps), wake-on-input
        LinkEntry e = new LinkEntry(link, node, board, listener);
        link.setPeerListener(e); // count peers for the link view, then let the node handle it
        links.add(e);
        changed.run();
    }

    /** The mount {@code path} lies under, or null. */
    Mount mountOf(String path) {
        int second = path.indexOf('/', 1);
        Mount m = mounts.get(second < 0 ? path.substring(1) : path.substring(1, second));
        return m != null && m.covers(path) ? m : null;
    }

    /** The links panel's rows: each link with whether a peer is up and its counters. */
    List<LinkView> linkViews() {
        List<LinkView> lv = new ArrayList<>(links.size());
        for (LinkEntry l : links) {
            lv.add(new LinkView(l.link.name(), l.peersUp > 0, HostRuntime.counters(l.link, node.linkStats(l.link)), l.board, l.listener));
        }
        return lv;
    }
}
