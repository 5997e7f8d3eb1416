package io.spectrum.wide;

/**
 * Vertices by canonical key (the PATH body bytes): an open-addressed hash (linear probing) over
 * {@link Vertex} references that doubles when half full. A lookup hashes and compares the caller's
 * bytes in place, so it allocates nothing; only growth allocates.
 */
final class VertexIndex {
    private Vertex[] table = new Vertex[64];
    private int mask = 63;
    private int size;

    static int hash(byte[] b, int off, int len) {
        int h = 0x811C9DC5;
        for (int i = 0; i < len; i++) {
            h = (h ^ (b[off + i] & 0xFF)) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }

    int size() {
        return size;
    }

    /** The vertex whose key is {@code b[off, off+len)}, or null. */
    Vertex find(byte[] b, int off, int len) {
        int i = hash(b, off, len) & mask;
        while (true) {
            Vertex v = table[i];
            if (v == null) {
                return null;
            }
            if (v.key.length == len && sameKey(v.key, b, off, len)) {
                return v;
            }
            i = (i + 1) & mask;
        }
    }

    private static boolean sameKey(byte[] k, byte[] b, int off, int len) {
        for (int i = 0; i < len; i++) {
            if (k[i] != b[off + i]) {
                return false;
            }
        }
        return true;
    }

    /** Adds a vertex whose key is not present yet. */
    void insert(Vertex v) {
        if ((size + 1) * 2 > table.length) {
            grow();
        }
        put(table, mask, v);
        size++;
    }

    /** Removes a vertex that is present (backward-shift deletion: probe chains stay intact without tombstones). */
    void remove(Vertex v) {
        int i = v.hash & mask;
        while (table[i] != v) {
            i = (i + 1) & mask;
        }
        int j = i;
        while (true) {
            table[i] = null;
            Vertex moved;
            while (true) {
                j = (j + 1) & mask;
                moved = table[j];
                if (moved == null) {
                    size--;
                    return;
                }
                int k = moved.hash & mask;
                if (i <= j ? (i >= k || k > j) : (i >= k && k > j)) {
                    break; // its home is at or before the hole: it moves into it
                }
            }
            table[i] = moved;
            i = j;
        }
    }

    private static void put(Vertex[] t, int m, Vertex v) {
        int i = v.hash & m;
        while (t[i] != null) {
            i = (i + 1) & m;
        }
        t[i] = v;
    }

    private void grow() {
        Vertex[] bigger = new Vertex[table.length * 2];
        int m = bigger.length - 1;
        for (Vertex v : table) {
            if (v != null) {
                put(bigger, m, v);
            }
        }
        table = bigger;
        mask = m;
    }
}
