package io.spectrum.cli;

import io.spectrum.client.PeerClient;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code ls} walk: from a start vertex down through {@code :children[]} reads (digest §5.4,
 * answered {@code POINT{ POINT{NAME seg} … }}), depth first, in the order the node lists them,
 * reading each vertex's value and {@code :subscribers[]} on the way. Bounded by a depth; every
 * vertex is handed to a visitor as soon as it is read, so text output streams.
 */
final class LsTree {
    /** One vertex as {@code ls} shows it. */
    static final class Vertex {
        final String path;
        final String name;
        final int depth;
        final PeerClient.Reply value;
        final PeerClient.Reply subscribers;
        final int[] counts;
        final List<Vertex> children = new ArrayList<>();
        /** The :children[] read's refusal (0: listed or not asked). */
        int childrenError;
        /** The depth bound stopped the walk here; this many children were not walked. */
        int notWalked;
        boolean walked;

        Vertex(String path, String name, int depth, PeerClient.Reply value, PeerClient.Reply subscribers) {
            this.path = path;
            this.name = name;
            this.depth = depth;
            this.value = value;
            this.subscribers = subscribers;
            this.counts = subscribers.ok() ? LsCommand.count(subscribers.payload()) : new int[] {0, 0};
        }

        /** The node answered for this vertex (it exists, with or without a value). */
        boolean answered() {
            return value.ok() || subscribers.ok();
        }
    }

    /** Sees each vertex after its own reads and before its children. */
    interface Visitor {
        void vertex(Vertex v);
    }

    private static final byte[] CHILDREN_LIST = childrenField();

    private final PeerClient client;
    private final int maxDepth;
    private final Visitor visitor;

    LsTree(PeerClient client, int maxDepth, Visitor visitor) {
        this.client = client;
        this.maxDepth = maxDepth;
        this.visitor = visitor;
    }

    /**
     * Reads {@code path} and, within the depth bound, its subtree.
     *
     * @throws IllegalArgumentException when {@code path} is not a valid path
     */
    Vertex walk(String path) {
        return visit(path, path, 0);
    }

    private Vertex visit(String path, String name, int depth) {
        Vertex v = new Vertex(path, name, depth, ownValue(client.read(path)), client.subscribers(path));
        PeerClient.Reply listing = maxDepth > 0 && v.subscribers.code() != WireError.FLOW_TIMEOUT
                ? client.call(FwdView.OP_READ, path, CHILDREN_LIST, null) : null;
        List<String> names = List.of();
        if (listing != null && listing.ok()) {
            names = names(listing.payload());
        } else if (listing != null) {
            v.childrenError = listing.code();
        }
        v.walked = depth < maxDepth && listing != null && listing.ok();
        if (!v.walked) {
            v.notWalked = names.size();
        }
        visitor.vertex(v);
        if (v.walked) {
            for (String n : names) {
                String child = "/".equals(path) ? "/" + n : path + "/" + n;
                try {
                    v.children.add(visit(child, n, depth + 1));
                } catch (IllegalArgumentException e) {
                    v.childrenError = WireError.PATH_INVALID; // a name this client cannot spell back
                }
            }
        }
        return v;
    }

    /**
     * The vertex's own value from its READ answer. A node answers a vertex with children with the
     * composed tree {@code POINT{NAME seg, [own value], POINT…}} (digest §6); {@code ls} walks the
     * children itself, so its VALUE column keeps the vertex's own value: the child after the NAME
     * when it is not a POINT, else "no value" (not_found, shown as "-"). Any other answer is kept.
     */
    static PeerClient.Reply ownValue(PeerClient.Reply r) {
        byte[] p = r.payload();
        if (!r.ok() || p == null || p.length < 4 || (p[0] & 0xFF) != TlvType.POINT) {
            return r;
        }
        TlvIndex x = new TlvIndex(Math.max(16, p.length / 4 + 1), 256);
        if (new FrameDecoder().decode(p, 0, p.length, x) != WireError.OK) {
            return r;
        }
        int n = x.firstChild(0);
        if (n == TlvIndex.NONE || x.type(n) != TlvType.NAME) {
            return r; // not a composed tree: a stored POINT value
        }
        int own = x.nextSibling(n);
        if (own == TlvIndex.NONE || x.type(own) == TlvType.POINT) {
            return new PeerClient.Reply(WireError.PATH_NOT_FOUND, null);
        }
        return new PeerClient.Reply(WireError.OK, Arrays.copyOfRange(p, x.start(own), x.end(own)));
    }

    /** The segment names in a {@code POINT{ POINT{NAME seg} … }} listing, in order. */
    static List<String> names(byte[] point) {
        List<String> out = new ArrayList<>();
        if (point == null) {
            return out;
        }
        TlvIndex x = new TlvIndex(Math.max(16, point.length / 4 + 1), 8);
        if (new FrameDecoder().decode(point, 0, point.length, x) != WireError.OK || x.type(0) != TlvType.POINT) {
            return out;
        }
        for (int p = x.firstChild(0); p != TlvIndex.NONE; p = x.nextSibling(p)) {
            int n = x.type(p) == TlvType.POINT ? x.firstChild(p) : TlvIndex.NONE;
            if (n != TlvIndex.NONE && x.type(n) == TlvType.NAME && x.bodyLength(n) > 0) {
                out.add(new String(point, x.bodyOffset(n), x.bodyLength(n), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    /** FIELD{NAME children, VALUE u8 1}: {@code :children[]}. */
    private static byte[] childrenField() {
        byte[] b = new byte[32];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD).leaf(TlvType.NAME, Names.CHILDREN).value(1, 1).end();
        return Arrays.copyOf(b, w.length());
    }
}
