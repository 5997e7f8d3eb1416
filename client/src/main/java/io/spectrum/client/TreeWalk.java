package io.spectrum.client;

import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The tree walk: from a start vertex down, depth first, reading each vertex's value and
 * {@code :subscribers[]} on the way. A vertex's children are its {@code :children[]} listing
 * (answered {@code POINT{ POINT{NAME seg} … }}) in the order the node gives them; a
 * node without that field ({@code schema::not_found}) is walked through the composed READ of the
 * parent instead ({@code POINT{NAME seg, [own value], POINT{NAME child …} …}}). Bounded
 * by a depth; each vertex goes to the visitor as soon as it is read, so output can stream.
 */
public final class TreeWalk {
    /** One vertex as the walk read it. */
    public static final class Vertex {
        private final String path;
        private final String name;
        private final int depth;
        private final Reply value;
        private final SubscriberList subscribers;
        private final List<Vertex> children = new ArrayList<>();
        private int childrenError;
        private int notWalked;
        private boolean walked;

        Vertex(String path, String name, int depth, Reply value, SubscriberList subscribers) {
            this.path = path;
            this.name = name;
            this.depth = depth;
            this.value = value;
            this.subscribers = subscribers;
        }

        /** The vertex's whole path, e.g. {@code /board/temp}. */
        public String path() {
            return path;
        }

        /** The last segment ({@code path} itself for the start vertex). */
        public String name() {
            return name;
        }

        /** 0 for the start vertex. */
        public int depth() {
            return depth;
        }

        /** The vertex's own value (the composed tree's own-value child, not_found when it has none). */
        public Reply value() {
            return value;
        }

        /** The vertex's {@code :subscribers[]} list (a refused read when it has none or the node would not tell). */
        public SubscriberList subscribers() {
            return subscribers;
        }

        /** The children walked (empty unless {@link #walked()}). */
        public List<Vertex> children() {
            return List.copyOf(children);
        }

        /** The {@code :children[]} read's refusal, {@link WireError#OK} when listed or not asked. */
        public int childrenError() {
            return childrenError;
        }

        /** The depth bound stopped the walk here; this many children were not walked. */
        public int notWalked() {
            return notWalked;
        }

        /** True when the children were listed and walked. */
        public boolean walked() {
            return walked;
        }

        /** The node answered for this vertex (it exists, with or without a value). */
        public boolean answered() {
            return value.ok() || subscribers.ok();
        }
    }

    /** Sees each vertex after its own reads and before its children. */
    public interface Visitor {
        /** Called once per vertex, in pre-order. */
        void vertex(Vertex v);
    }

    private final PeerClient client;
    private final int maxDepth;
    private final Visitor visitor;

    /**
     * A walk through {@code client} down to {@code maxDepth} levels below the start (0: the start vertex only),
     * handing each vertex to {@code visitor}.
     */
    public TreeWalk(PeerClient client, int maxDepth, Visitor visitor) {
        this.client = client;
        this.maxDepth = maxDepth;
        this.visitor = visitor;
    }

    /**
     * Reads {@code path} and, within the depth bound, its subtree.
     *
     * @throws IllegalArgumentException when {@code path} is not a valid path
     */
    public Vertex walk(String path) {
        return visit(path, path, 0);
    }

    private Vertex visit(String path, String name, int depth) {
        Reply read = client.read(path);
        Vertex v = new Vertex(path, name, depth, ownValue(read), client.subscribers(path));
        Reply listing = maxDepth > 0 && v.subscribers.reply().code() != WireError.FLOW_TIMEOUT
                ? client.read(path, Requests.children()) : null;
        List<String> names = List.of();
        boolean listed = false;
        if (listing != null && listing.ok()) {
            names = names(listing.value());
            listed = true;
        } else if (listing != null) {
            v.childrenError = listing.code();
            if (listing.code() == WireError.SCHEMA_NOT_FOUND && isComposed(read)) {
                names = composedChildren(read.value()); // no :children field: the composed READ lists them
                listed = true;
            }
        }
        v.walked = depth < maxDepth && listed;
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
     * composed tree {@code POINT{NAME seg, [own value], POINT…}}; the walk lists the
     * children itself, so the value is the vertex's own: the child after the NAME when it is not a
     * POINT, else "no value" (not_found). Any other answer is returned as is.
     */
    public static Reply ownValue(Reply r) {
        if (!isComposed(r)) {
            return r;
        }
        byte[] p = r.value();
        TlvIndex x = index(p);
        int own = x.nextSibling(x.firstChild(0));
        if (own == TlvIndex.NONE || x.type(own) == TlvType.POINT) {
            return Reply.error(WireError.PATH_NOT_FOUND, r.frame());
        }
        return Reply.result(Arrays.copyOfRange(p, x.start(own), x.end(own)), r.frame());
    }

    /** A RESULT that is a composed tree: a POINT whose first child is a NAME. */
    static boolean isComposed(Reply r) {
        byte[] p = r.value();
        if (!r.ok() || p == null || p.length == 0 || (p[0] & 0xFF) != TlvType.POINT) {
            return false;
        }
        TlvIndex x = index(p);
        if (x == null) {
            return false;
        }
        int n = x.firstChild(0);
        return n != TlvIndex.NONE && x.type(n) == TlvType.NAME;
    }

    /** The segment names in a {@code POINT{ POINT{NAME seg} … }} listing, in order. */
    public static List<String> names(byte[] point) {
        TlvIndex x = point == null ? null : index(point);
        return x == null || x.type(0) != TlvType.POINT ? new ArrayList<>() : pointNames(x, x.firstChild(0));
    }

    /**
     * The child names of a READ answer's value when it is a composed tree
     * ({@code POINT{NAME seg, [own value], POINT{NAME child …} …}}), or null when it is a plain value:
     * the fallback of a walker for a node without {@code :children[]}.
     */
    public static List<String> composedNames(byte[] value) {
        return value == null || !isComposed(Reply.result(value, null)) ? null : composedChildren(value);
    }

    /** The child names of a composed tree: the POINTs after its NAME and own value. */
    static List<String> composedChildren(byte[] composed) {
        TlvIndex x = index(composed);
        return x == null ? new ArrayList<>() : pointNames(x, x.nextSibling(x.firstChild(0)));
    }

    private static List<String> pointNames(TlvIndex x, int from) {
        List<String> out = new ArrayList<>();
        for (int p = from; p != TlvIndex.NONE; p = x.nextSibling(p)) {
            int n = x.type(p) == TlvType.POINT ? x.firstChild(p) : TlvIndex.NONE;
            if (n != TlvIndex.NONE && x.type(n) == TlvType.NAME && x.bodyLength(n) > 0) {
                out.add(Utf8.toString(x.buffer(), x.bodyOffset(n), x.bodyLength(n)));
            }
        }
        return out;
    }

    private static TlvIndex index(byte[] b) {
        TlvIndex x = new TlvIndex(Math.max(16, b.length / 4 + 1), 256);
        return new FrameDecoder(256, FrameDecoder.MAX_TLV_BYTES).decode(b, 0, b.length, x) == WireError.OK ? x : null;
    }
}
