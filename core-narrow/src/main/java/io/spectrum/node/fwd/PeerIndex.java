package io.spectrum.node.fwd;

/**
 * Where a remote caller (link index, peer) sits in a fixed per-peer table: an open-addressing hash
 * (linear probing, backward-shift deletion) from the pair to the table's entry number, sized once
 * for the table's capacity, so finding a peer costs the same with 8 peers or 4,000. The tables keep
 * their entries packed (a removed entry's place is taken by the last one), so a removal here is
 * followed by {@link #moved} for the entry that filled the gap. {@code java.lang} only and
 * allocation-free after construction, like every NARROW table.
 */
final class PeerIndex {
    private static final int EMPTY = -1;
    /** The pair at each hash slot (valid where {@link #entry} is not {@link #EMPTY}). */
    private final long[] keys;
    /** The table entry at each hash slot, or {@link #EMPTY}. */
    private final int[] entry;
    private final int mask;

    /** An index for a table of {@code capacity} entries (the hash has at least twice as many slots). */
    PeerIndex(int capacity) {
        int n = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) << 1;
        keys = new long[n];
        entry = new int[n];
        mask = n - 1;
        for (int i = 0; i < n; i++) {
            entry[i] = EMPTY;
        }
    }

    /** The table entry of (li, p), or -1 when it has none. */
    int find(int li, int p) {
        final long k = key(li, p);
        for (int s = slot(k); ; s = (s + 1) & mask) {
            final int e = entry[s];
            if (e == EMPTY) {
                return -1;
            }
            if (keys[s] == k) {
                return e;
            }
        }
    }

    /** Records that (li, p) is table entry {@code e} (the pair has no entry yet). */
    void put(int li, int p, int e) {
        final long k = key(li, p);
        int s = slot(k);
        while (entry[s] != EMPTY) {
            s = (s + 1) & mask;
        }
        keys[s] = k;
        entry[s] = e;
    }

    /** Forgets (li, p)'s entry, if it has one. */
    void remove(int li, int p) {
        final long k = key(li, p);
        int s = slot(k);
        while (entry[s] != EMPTY && keys[s] != k) {
            s = (s + 1) & mask;
        }
        if (entry[s] == EMPTY) {
            return;
        }
        // backward shift: pull later members of the probe run into the hole, so no search stops early
        int hole = s;
        for (int n = (hole + 1) & mask; entry[n] != EMPTY; n = (n + 1) & mask) {
            final int home = slot(keys[n]);
            final boolean movable = hole <= n ? home <= hole || home > n : home <= hole && home > n;
            if (movable) {
                keys[hole] = keys[n];
                entry[hole] = entry[n];
                hole = n;
            }
        }
        entry[hole] = EMPTY;
    }

    /** The pair (li, p) now sits at table entry {@code e} (the table moved its last entry into a gap). */
    void moved(int li, int p, int e) {
        final long k = key(li, p);
        for (int s = slot(k); entry[s] != EMPTY; s = (s + 1) & mask) {
            if (keys[s] == k) {
                entry[s] = e;
                return;
            }
        }
    }

    private static long key(int li, int p) {
        return ((long) li << 32) | (p & 0xFFFFFFFFL);
    }

    private int slot(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 33) & mask;
    }
}
