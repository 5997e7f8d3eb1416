package io.spectrum.host.view;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The last minutes of every numeric vertex, kept by the host so a reloaded page or a second browser
 * draws the same charts: per vertex a bounded ring of (time, value) samples. A sample older than
 * {@link #WINDOW_MS} is dropped when the next one arrives; at most {@link #CAPACITY} are kept per
 * vertex (a vertex published faster than that keeps fewer minutes). Thread-safe (guarded by {@code this}).
 */
public final class VertexHistory {
    /** The longest window the dashboard offers: 15 minutes. */
    public static final long WINDOW_MS = 15 * 60_000L;
    /** Samples kept per vertex: 15 minutes at five a second. */
    public static final int CAPACITY = 4500;

    /** One recorded value: epoch milliseconds, the value in its unit and the vertex's seq for it. */
    public record Sample(long ts, double value, long seq) { }

    private static final class Ring {
        final long[] ts = new long[CAPACITY];
        final double[] value = new double[CAPACITY];
        final long[] seq = new long[CAPACITY];
        int start;
        int size;

        void add(long t, double v, long n) {
            while (size > 0 && t - ts[start] > WINDOW_MS) {
                start = (start + 1) % CAPACITY;
                size--;
            }
            int at = (start + size) % CAPACITY;
            ts[at] = t;
            value[at] = v;
            seq[at] = n;
            if (size == CAPACITY) {
                start = (start + 1) % CAPACITY;
            } else {
                size++;
            }
        }

        List<Sample> since(long from) {
            List<Sample> out = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                int k = (start + i) % CAPACITY;
                if (ts[k] >= from) {
                    out.add(new Sample(ts[k], value[k], seq[k]));
                }
            }
            return out;
        }
    }

    private final Map<String, Ring> rings = new HashMap<>();

    /** Records the value {@code path} got with {@code seq} at {@code ts} (epoch ms). */
    public synchronized void record(String path, long ts, double value, long seq) {
        rings.computeIfAbsent(path, p -> new Ring()).add(ts, value, seq);
    }

    /** Forgets a vertex (it is gone or no longer numeric). */
    public synchronized void forget(String path) {
        rings.remove(path);
    }

    /** The samples of {@code path} from {@code from} (epoch ms) on, oldest first; empty when none. */
    public synchronized List<Sample> since(String path, long from) {
        Ring r = rings.get(path);
        return r == null ? List.of() : r.since(from);
    }

    /** Every vertex's samples from {@code from} on, by path (sorted). */
    public synchronized Map<String, List<Sample>> all(long from) {
        Map<String, List<Sample>> out = new TreeMap<>();
        for (Map.Entry<String, Ring> e : rings.entrySet()) {
            out.put(e.getKey(), e.getValue().since(from));
        }
        return out;
    }
}
