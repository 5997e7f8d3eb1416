package io.spectrum.node.table;

import io.spectrum.wire.Backfill;
import io.spectrum.wire.TlvWriter;

/**
 * Store and forward (docs/board.md "Store and forward"): the last {@code depth} values of each
 * declared vertex, with the sequence each was published with, its origin time (0: none) and the
 * node's clock at the publish, so a host that missed them while its link was down can ask for them
 * (docs/extensions.md "Backfill").
 *
 * <p>One fixed ring per declared vertex, made when the vertex is first declared (configuration time)
 * and never grown: {@code depth} entries of at most {@link #VALUE_BYTES} bytes of value TLV each.
 * Pushing a value and answering a request allocate nothing. A value pushed into a full ring
 * overwrites the oldest, whose sequence becomes the ring's {@code evicted} mark; a value larger than
 * {@link #VALUE_BYTES} is not kept and marks its own sequence evicted, so an answer never pretends
 * to be complete. Node thread only.
 */
public final class BackfillRing {
    /** The largest value TLV a ring entry holds: any VALUE (12 bytes at most) and short NAMEs. */
    static final int VALUE_BYTES = 32;

    private final int depth;
    /** Each vertex row's ring, or null (not declared, or backfill off). */
    private final Ring[] rings;

    private static final class Ring {
        final long[] seq;
        final long[] origin;
        final long[] at;
        final int[] len;
        final byte[] values;
        /** Where the next value goes; with {@code count == depth} also the oldest entry. */
        int head;
        int count;
        /** The highest sequence pushed out or not kept, 0 for none. */
        long evicted;

        Ring(int depth) {
            seq = new long[depth];
            origin = new long[depth];
            at = new long[depth];
            len = new int[depth];
            values = new byte[depth * VALUE_BYTES];
        }
    }

    /** Rings of {@code depth} values for up to {@code maxVertices} vertices (none when {@code depth} is 0). */
    public BackfillRing(int maxVertices, int depth) {
        this.depth = depth;
        this.rings = new Ring[depth > 0 ? maxVertices : 0];
    }

    /** How many values a ring keeps (0: off). */
    public int depth() {
        return depth;
    }

    /** Gives vertex row v a ring (its declaration; configuration time): once, kept while the row is. */
    public void declared(int v) {
        if (depth > 0 && rings[v] == null) {
            rings[v] = new Ring(depth);
        }
    }

    /** Row v is retired: its ring forgets what it held (a later vertex in the row starts empty). */
    public void retired(int v) {
        if (depth > 0 && rings[v] != null) {
            Ring r = rings[v];
            r.head = 0;
            r.count = 0;
            r.evicted = 0;
        }
    }

    /** Keeps the value v was just assigned (seq, origin, clock now) when v has a ring. Allocation-free. */
    public void push(int v, long seq, long origin, long nowNanos, byte[] b, int off, int len) {
        if (depth == 0) {
            return;
        }
        final Ring r = rings[v];
        if (r == null) {
            return;
        }
        if (len > VALUE_BYTES) {
            r.evicted = Math.max(r.evicted, seq); // not kept: an answer says so rather than skipping it
            return;
        }
        final int i = r.head;
        if (r.count == depth) {
            r.evicted = Math.max(r.evicted, r.seq[i]);
        } else {
            r.count++;
        }
        r.seq[i] = seq;
        r.origin[i] = origin;
        r.at[i] = nowNanos;
        r.len[i] = len;
        System.arraycopy(b, off, r.values, i * VALUE_BYTES, len);
        r.head = i + 1 == depth ? 0 : i + 1;
    }

    /**
     * The highest sequence of v that its ring no longer holds: its evicted mark, or {@code last}
     * (everything) when v keeps none.
     */
    public long evicted(int v, long last) {
        final Ring r = depth == 0 ? null : rings[v];
        return r == null ? last : r.evicted;
    }

    /**
     * Writes v's entries with a sequence above {@code after}, oldest first, while they fit in
     * {@code budget} bytes ({@link Backfill#entry}). Returns the entries written. Allocation-free.
     */
    public int answer(int v, long after, long nowNanos, TlvWriter w, int budget) {
        final Ring r = depth == 0 ? null : rings[v];
        if (r == null) {
            return 0;
        }
        int n = 0;
        int used = 0;
        int i = r.count == depth ? r.head : 0; // the oldest
        for (int k = 0; k < r.count; k++, i = i + 1 == depth ? 0 : i + 1) {
            if (r.seq[i] <= after) {
                continue;
            }
            final int bytes = Backfill.entryBytes(r.len[i], r.origin[i]);
            if (used + bytes > budget) {
                break;
            }
            used += bytes;
            Backfill.entry(w, r.seq[i], Math.max(0, (nowNanos - r.at[i]) / 1_000_000L), r.origin[i],
                    r.values, i * VALUE_BYTES, r.len[i]);
            n++;
        }
        return n;
    }
}
