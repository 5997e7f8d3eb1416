package io.spectrum.bench.host;

import io.spectrum.client.ValueText;
import io.spectrum.host.history.HistoryRow;
import io.spectrum.host.history.HistorySettings;
import io.spectrum.host.history.HistoryStore;
import io.spectrum.time.SystemClock;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The host's history store's write throughput (docs/benchmarks.md, "History store"): {@code rows}
 * values of {@code paths} vertices (a declared °C value each, as a board's delivery renders) offered
 * as the node thread offers them, then flushed; rows per second from the first offer until the last
 * row is committed (batches of up to {@link HistoryStore}'s 4,096 per transaction, WAL, synchronous=NORMAL),
 * and the node thread's cost per offer. The queue holds every row, so none is dropped here; the
 * product's queue (65,536) drops and counts instead of waiting.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.host.HistoryWriteBench [rows=500000] [paths=100] [rounds=3] [dir=/tmp]}
 */
public final class HistoryWriteBench {
    private HistoryWriteBench() {
    }

    /** Runs the bench: {@code rows=N rounds=R} as {@code key=value} arguments (see the class comment for the defaults). */
    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (String s : args) {
            int eq = s.indexOf('=');
            a.put(s.substring(0, eq), s.substring(eq + 1));
        }
        int rows = Integer.parseInt(a.getOrDefault("rows", "500000"));
        int paths = Integer.parseInt(a.getOrDefault("paths", "100"));
        int rounds = Integer.parseInt(a.getOrDefault("rounds", "3"));
        Path base = Path.of(a.getOrDefault("dir", System.getProperty("java.io.tmpdir")));
        String[] names = new String[paths];
        for (int p = 0; p < paths; p++) {
            names[p] = "/board" + (p % 8 + 1) + "/sensor/t" + p;
        }
        for (int r = 1; r <= rounds; r++) {
            Path dir = Files.createTempDirectory(base, "history-bench");
            try {
                HistorySettings s = HistorySettings.of(dir.resolve(HistorySettings.FILE_NAME)).withQueue(rows + 16);
                try (HistoryStore store = HistoryStore.open(s, SystemClock.INSTANCE, System.err::println)) {
                    store.flush(); // opened, tables made
                    long t0 = System.nanoTime();
                    long now = System.currentTimeMillis();
                    for (int i = 0; i < rows; i++) {
                        long raw = 2000 + i % 500;
                        BigDecimal v = BigDecimal.valueOf(raw, 2);
                        store.offer(new HistoryRow(names[i % paths], now + i / paths,
                                new ValueText(v.toPlainString() + " °C", v, BigInteger.valueOf(raw), "°C", "Cel"), i / paths + 1, false, null));
                    }
                    long offered = System.nanoTime();
                    store.flush();
                    long done = System.nanoTime();
                    HistoryStore.Stats st = store.stats();
                    System.out.printf("round %d: %,d rows of %d paths: %,.0f rows/s written (%.2f s); offer %.0f ns/row on the caller; "
                                    + "written %,d dropped %d failed %d; file %,d bytes%n", r, rows, paths,
                            rows / ((done - t0) / 1e9), (done - t0) / 1e9, (offered - t0) / (double) rows, st.written(), st.dropped(),
                            st.failed(), Files.size(dir.resolve(HistorySettings.FILE_NAME))
                                    + sizeOr0(dir.resolve(HistorySettings.FILE_NAME + "-wal")));
                }
            } finally {
                delete(dir);
            }
        }
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
