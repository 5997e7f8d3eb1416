package io.spectrum.wide;

import io.spectrum.node.api.VertexSchema;

/**
 * One vertex of a {@link WideNode}: its canonical key (the PATH body), its place in the tree, the
 * retained value (a trailer-less copy, {@code valLen} -1 when none), the topic bookkeeping
 * (sequence, last publisher, stale) and its subscriber edges by position, holes included.
 * Package-private state for the node's single thread.
 */
final class Vertex {
    private static final Vertex[] NO_CHILDREN = {};
    private static final Edge[] NO_EDGES = {};

    final byte[] key;
    final int hash;
    final Vertex parent;
    /** Offset in {@link #key} of the last segment record ({@code [len][bytes]}); 0 for the root. */
    final int segOff;
    /** A {@code $} segment on the way here: node-internal, refused to identified peers. */
    final boolean reserved;

    /**
     * The handle the shared FWD side knows it by (its index in the node's vertex array; the root is
     * 0); -1 once the vertex is removed (its handle may then name another vertex).
     */
    int id;
    /** Its index in the parent's {@link #children}. */
    int childIndex;
    Vertex[] children = NO_CHILDREN;
    int childCount;
    /** Pending FWD AWAITs on this vertex. */
    int awaits;
    /** The route a remote publisher asked its active / idle notices at (a PATH TLV), or null. */
    byte[] noticeRoute;

    byte[] value;
    int valLen = -1;
    /** Publish sequence; never goes back while the node runs, not even across a clear or purge. */
    long seq;
    /**
     * The sequence of the publish that left the held value: {@link #seq} unless non-retained
     * publishes came after it (they spend a number and leave the value alone).
     */
    long valueSeq;
    /** Last publisher, null when never published. */
    WidePeer publisher;
    /** Who published the held value (a non-retained publish changes {@link #publisher} only), or null. */
    WidePeer valuePublisher;
    boolean stale;
    /** The value's origin time, ms since the Unix epoch, 0: none (docs/extensions.md "Origin time"). */
    long origin;
    /** The sequence the value's upstream stamped on it (its board's own), 0 when it came from none. */
    long sourceSeq;
    long staleSince;
    /** Why it is stale (UTF-8, at most StaleReason.MAX_BYTES; replaced, never written into), or null. */
    byte[] staleReason;
    /** The owner's stale mark (Node#markStale): held until the next publish, never purged. */
    boolean staleKept;
    VertexSchema schema;
    /** Another node's declaration this vertex mirrors (Node#report); gates nothing. */
    VertexSchema reported;

    /**
     * The remote peer whose subscription under a mount created this vertex, while it is only that
     * request's (no value, declaration or reported one ever, no child that has one): it counts
     * against that peer's vertex share and goes when it holds nothing again (VertexTree#prune). Null
     * for every other vertex, and for this one once something of its own settles it. A vertex whose
     * creator is null has no ancestor with one.
     */
    WidePeer creator;

    /** Delivering edges held by this vertex. */
    int ownSubs;
    /** Delivering edges that see a write here: own plus every ancestor's. */
    int listeners;
    /** Edges by position; null entries are holes. {@code edgeEnd} is one past the highest used position. */
    Edge[] edges = NO_EDGES;
    int edgeEnd;
    int edgeCount;
    /** Admissions so far: the generation of the next edge. */
    int admissions;

    Vertex(byte[] key, int hash, Vertex parent, int segOff, boolean reserved) {
        this.key = key;
        this.hash = hash;
        this.parent = parent;
        this.segOff = segOff;
        this.reserved = reserved;
    }

    boolean hasValue() {
        return valLen >= 0;
    }

    void addChild(Vertex c) {
        if (childCount == children.length) {
            children = java.util.Arrays.copyOf(children, Math.max(4, childCount * 2));
        }
        c.childIndex = childCount;
        children[childCount++] = c;
    }

    /** Removes child c (its siblings after it move up one place). */
    void removeChild(Vertex c) {
        for (int i = c.childIndex + 1; i < childCount; i++) {
            children[i - 1] = children[i];
            children[i - 1].childIndex = i - 1;
        }
        children[--childCount] = null;
    }

    /** Holds nothing a request could have left: no value, child, edge, await, declaration or publisher. */
    boolean bare() {
        return valLen < 0 && childCount == 0 && edgeEnd == 0 && awaits == 0 && schema == null && reported == null
                && publisher == null && seq == 0;
    }

    /** Places an edge at the lowest free position; returns the position. */
    int place(Edge e) {
        int pos = edgeCount == edgeEnd ? edgeEnd : lowestHole();
        if (pos == edges.length) {
            edges = java.util.Arrays.copyOf(edges, Math.max(4, pos * 2));
        }
        edges[pos] = e;
        if (pos == edgeEnd) {
            edgeEnd++;
        }
        edgeCount++;
        return pos;
    }

    private int lowestHole() {
        for (int i = 0; i < edgeEnd; i++) {
            if (edges[i] == null) {
                return i;
            }
        }
        return edgeEnd;
    }

    void unplace(int pos) {
        edges[pos] = null;
        edgeCount--;
        while (edgeEnd > 0 && edges[edgeEnd - 1] == null) {
            edgeEnd--;
        }
    }

    /** The last segment's name bytes start at {@code key[segOff + 1]}, {@code segLen()} long. */
    int segLen() {
        return key.length == 0 ? 0 : key[segOff] & 0xFF;
    }

    /** Unsigned byte order of two siblings' last segments (a proper prefix sorts first). */
    static int compareSegments(Vertex a, Vertex b) {
        final int al = a.segLen();
        final int bl = b.segLen();
        final int n = Math.min(al, bl);
        for (int i = 1; i <= n; i++) {
            int d = (a.key[a.segOff + i] & 0xFF) - (b.key[b.segOff + i] & 0xFF);
            if (d != 0) {
                return d;
            }
        }
        return al - bl;
    }
}
