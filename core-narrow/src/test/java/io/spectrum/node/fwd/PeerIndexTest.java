package io.spectrum.node.fwd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The (link, peer) → entry index of the per-peer tables, against a plain map over random churn. */
class PeerIndexTest {

    /** A packed table like the node's: swap-remove, and the index told about the moved entry. */
    private static final class Table {
        final PeerIndex index;
        final List<long[]> entries = new ArrayList<>();
        final Map<Long, Integer> model = new HashMap<>();

        Table(int capacity) {
            index = new PeerIndex(capacity);
        }

        void add(int li, int p) {
            int e = entries.size();
            entries.add(new long[] {li, p});
            index.put(li, p, e);
            model.put(key(li, p), e);
        }

        void remove(int e) {
            long[] gone = entries.get(e);
            int last = entries.size() - 1;
            index.remove((int) gone[0], (int) gone[1]);
            model.remove(key((int) gone[0], (int) gone[1]));
            if (e != last) {
                long[] moved = entries.get(last);
                entries.set(e, moved);
                index.moved((int) moved[0], (int) moved[1], e);
                model.put(key((int) moved[0], (int) moved[1]), e);
            }
            entries.remove(last);
        }

        static long key(int li, int p) {
            return ((long) li << 32) | (p & 0xFFFFFFFFL);
        }
    }

    @Test
    void findsEveryEntry_afterRandomAddsAndSwapRemoves_andNothingElse() {
        Random r = new Random(42);
        for (int capacity : new int[] {1, 2, 7, 64, 1000}) {
            Table t = new Table(capacity);
            for (int step = 0; step < 20_000; step++) {
                boolean add = t.entries.isEmpty() || t.entries.size() < capacity && r.nextBoolean();
                if (add) {
                    int li = r.nextInt(4);
                    int p = r.nextInt(capacity * 3 + 1) - 1; // -1 is a peer number too
                    if (t.model.containsKey(Table.key(li, p))) {
                        continue;
                    }
                    t.add(li, p);
                } else {
                    t.remove(r.nextInt(t.entries.size()));
                }
                if (step % 97 == 0 || capacity <= 7) {
                    for (int li = 0; li < 4; li++) {
                        for (int p = -1; p < capacity * 3; p++) {
                            Integer want = t.model.get(Table.key(li, p));
                            assertEquals(want == null ? -1 : want, t.index.find(li, p),
                                    "capacity " + capacity + " step " + step + " (" + li + ", " + p + ")");
                        }
                    }
                }
            }
        }
    }

    @Test
    void aFullTable_ofPeersThatCollide_isStillFoundAfterRemovals() {
        Table t = new Table(16);
        for (int p = 0; p < 16; p++) {
            t.add(0, p << 20); // far apart in the key, close in nothing
        }
        for (int e = 15; e >= 0; e -= 2) {
            t.remove(e);
        }
        for (int p = 0; p < 16; p++) {
            Integer want = t.model.get(Table.key(0, p << 20));
            assertEquals(want == null ? -1 : want, t.index.find(0, p << 20));
        }
    }
}
