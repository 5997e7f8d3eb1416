package io.spectrum.bench.host;

import io.spectrum.host.history.HistorySettings;
import io.spectrum.host.history.HistoryStore;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Sustained ingest into the host's embedded history store (docs/benchmarks.md, "Ingest with the
 * history store on and off"): {@code vertices} host vertices each written {@code hz} times a second
 * by one producer thread (paced in 1 ms steps; each step's values are handed to the node thread
 * together, as a link's frame brings several, and written there through {@link HostRuntime#write}), with one live subscriber ({@link HostRuntime#watch} of the
 * whole subtree, a callback on the node thread). Measured: the node's delivery latency to that
 * subscriber, from the moment each value was due (its place in the 10 Hz schedule) to the callback, with the history store on (every value
 * copied and queued by the node thread for the store's writer thread, which renders it and commits it to SQLite) and off, in
 * {@code rounds} interleaved rounds (each a fresh host; the order alternates). With the store on,
 * the disk bytes per stored value: the file (with its WAL) over the rows of {@code raw} after the run.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.host.HistoryIngestBench
 * [vertices=1000] [hz=10] [seconds=20] [warmup=5] [rounds=5] [dir=/tmp]}
 */
public final class HistoryIngestBench {
    private HistoryIngestBench() {
    }

    /** One run's figures: latencies in µs (median, p99, max) and what was sent, delivered and stored. */
    public record Run(boolean store, long sent, long delivered, long samples, double p50us, double p99us, double maxUs,
                      double rate, long written, long dropped, long rows, long fileBytes) {
        double bytesPerRow() {
            return rows == 0 ? 0 : fileBytes / (double) rows;
        }
    }

    /** Runs the bench: {@code key=value} arguments (see the class comment for the defaults). */
    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (String s : args) {
            int eq = s.indexOf('=');
            a.put(s.substring(0, eq), s.substring(eq + 1));
        }
        int vertices = Integer.parseInt(a.getOrDefault("vertices", "1000"));
        int hz = Integer.parseInt(a.getOrDefault("hz", "10"));
        double seconds = Double.parseDouble(a.getOrDefault("seconds", "20"));
        double warmup = Double.parseDouble(a.getOrDefault("warmup", "5"));
        int rounds = Integer.parseInt(a.getOrDefault("rounds", "5"));
        Path base = Path.of(a.getOrDefault("dir", System.getProperty("java.io.tmpdir")));
        System.out.printf("%d vertices x %d Hz = %,d values/s, %.0f s measured after %.0f s, %d interleaved rounds; "
                + "load average %.1f at the start%n", vertices, hz, vertices * hz, seconds, warmup, rounds, loadAverage());
        List<Run> off = new ArrayList<>();
        List<Run> on = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            boolean storeFirst = r % 2 == 0;
            for (int k = 0; k < 2; k++) {
                boolean store = (k == 0) == storeFirst;
                Run x = run(store, vertices, hz, seconds, warmup, base);
                (store ? on : off).add(x);
                System.out.printf("round %d store %-3s: sent %,d delivered %,d (%,.0f values/s); latency p50 %.1f µs p99 %.1f µs "
                                + "max %.0f µs%s; load %.1f%n", r, store ? "on" : "off", x.sent(), x.delivered(), x.rate(), x.p50us(),
                        x.p99us(), x.maxUs(), store ? String.format("; stored %,d (dropped %d), %,d rows in %,d bytes = %.1f bytes/value",
                                x.written(), x.dropped(), x.rows(), x.fileBytes(), x.bytesPerRow()) : "", loadAverage());
            }
        }
        summary("median latency (µs)", off, on, Run::p50us);
        summary("p99 latency (µs)", off, on, Run::p99us);
        double[] bytes = on.stream().mapToDouble(Run::bytesPerRow).sorted().toArray();
        System.out.printf("disk: %.1f – %.1f bytes per stored value (file + WAL over the rows of raw)%n", bytes[0], bytes[bytes.length - 1]);
    }

    private static void summary(String what, List<Run> off, List<Run> on, java.util.function.ToDoubleFunction<Run> f) {
        double[] o = off.stream().mapToDouble(f).sorted().toArray();
        double[] n = on.stream().mapToDouble(f).sorted().toArray();
        double onMedian = median(n);
        System.out.printf("%s: off %.1f – %.1f – %.1f (min – max – median), on %.1f – %.1f – %.1f; on's median %s off's min–max%n",
                what, o[0], o[o.length - 1], median(o), n[0], n[n.length - 1], onMedian,
                onMedian >= o[0] && onMedian <= o[o.length - 1] ? "lies within" : "lies outside");
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double loadAverage() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static byte[] value(long v) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 4);
        return Arrays.copyOf(b, w.length());
    }

    /** One run on a fresh host: the store on or off. */
    public static Run run(boolean store, int vertices, int hz, double seconds, double warmup, Path base) throws Exception {
        Path dir = Files.createTempDirectory(base, "history-ingest");
        try {
            Path file = dir.resolve(HistorySettings.FILE_NAME);
            String[] paths = new String[vertices];
            for (int i = 0; i < vertices; i++) {
                paths[i] = "/v/" + i;
            }
            byte[][] values = new byte[1000][];
            for (int i = 0; i < values.length; i++) {
                values[i] = value(i);
            }
            int capacity = (int) Math.min(Integer.MAX_VALUE - 8, (long) (vertices * (double) hz * seconds * 1.5) + 1024);
            long[] latency = new long[capacity];
            int[] samples = {0};
            long[] delivered = {0};
            AtomicLongArray sentAt = new AtomicLongArray(vertices);
            boolean[] measuring = {false}; // read and written on the node thread only
            long sent = 0;
            Run result;
            HistoryStore.Stats stats = null;
            HostRuntime host = new HostRuntime("bench", new WideNode(HostRuntime.HOST_CONFIG));
            try {
                host.onWarning(w -> System.err.println(w));
                if (store) {
                    host.record(HistorySettings.of(file));
                }
                host.start();
                for (int i = 0; i < vertices; i++) {
                    check(host.write(paths[i], values[0]));
                }
                host.watch("/v", "bench", d -> {
                    delivered[0]++;
                    if (!measuring[0]) {
                        return;
                    }
                    int i = Integer.parseInt(d.path(), 3, d.path().length(), 10);
                    long t = System.nanoTime() - sentAt.get(i);
                    if (samples[0] < latency.length) {
                        latency[samples[0]++] = t;
                    }
                });
                long stepNs = 1_000_000L; // writes are paced in 1 ms steps
                double rate = vertices * (double) hz;
                long t0 = System.nanoTime();
                long measureFrom = t0 + (long) (warmup * 1e9);
                long end = measureFrom + (long) (seconds * 1e9);
                long sentBeforeMeasuring = -1;
                long deliveredAtStart = 0;
                int next = 0;
                long measuredSent = 0;
                for (long step = 0; ; step++) {
                    long now = System.nanoTime();
                    if (now >= end) {
                        break;
                    }
                    if (sentBeforeMeasuring < 0 && now >= measureFrom) {
                        sentBeforeMeasuring = sent;
                        deliveredAtStart = host.onNodeThread(() -> {
                            measuring[0] = true;
                            return delivered[0];
                        });
                    }
                    // what is due by now: a step that came late (the machine is shared) hands over more
                    int n = (int) Math.min(10L * vertices, (long) ((now - t0) / 1e9 * rate) - sent);
                    if (n > 0) {
                        // this step's values, handed to the node thread together (as a link's frame brings several);
                        // each one's latency counts from when it was due, so a late hand-over is in the figure
                        int first = next;
                        long from = sent;
                        for (int k = 0, i = first; k < n; k++, i = i + 1 == vertices ? 0 : i + 1) {
                            sentAt.set(i, t0 + (long) ((from + k + 1) * 1e9 / rate));
                        }
                        host.onNodeThread(() -> {
                            for (int k = 0, i = first; k < n; k++, i = i + 1 == vertices ? 0 : i + 1) {
                                check(host.write(paths[i], values[(int) ((from + k) % values.length)]));
                            }
                            return null;
                        });
                        sent += n;
                        next = (int) ((first + (long) n) % vertices);
                    }
                    long wake = t0 + (step + 1) * stepNs;
                    long wait = wake - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                }
                long elapsed = System.nanoTime() - measureFrom;
                long deliveredMeasured = host.onNodeThread(() -> {
                    measuring[0] = false;
                    return delivered[0];
                }) - deliveredAtStart;
                measuredSent = sent - Math.max(0, sentBeforeMeasuring);
                if (store) {
                    host.historyStore().flush();
                    stats = host.historyStore().stats();
                }
                long[] sorted = Arrays.copyOf(latency, samples[0]);
                Arrays.sort(sorted);
                result = new Run(store, measuredSent, deliveredMeasured, sorted.length, pct(sorted, 0.50), pct(sorted, 0.99),
                        sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1000.0, measuredSent / (elapsed / 1e9),
                        stats == null ? 0 : stats.written(), stats == null ? 0 : stats.dropped(), 0, 0);
            } finally {
                host.close();
            }
            if (store) {
                long rows;
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                     Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM raw")) {
                    rs.next();
                    rows = rs.getLong(1);
                }
                long bytes = Files.size(file) + sizeOr0(dir.resolve(HistorySettings.FILE_NAME + "-wal"));
                result = new Run(true, result.sent(), result.delivered(), result.samples(), result.p50us(), result.p99us(),
                        result.maxUs(), result.rate(), result.written(), result.dropped(), rows, bytes);
            }
            return result;
        } finally {
            delete(dir);
        }
    }

    private static void check(int code) {
        if (code != WireError.OK) {
            throw new IllegalStateException("write refused: " + WireError.identity(code));
        }
    }

    private static double pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))] / 1000.0;
    }

    private static long sizeOr0(Path p) throws IOException {
        return Files.exists(p) ? Files.size(p) : 0;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
