package io.spectrum.host.history;

import io.spectrum.bridge.PathGlob;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What the host's history store keeps and for how long (docs/host.md, "History"): the database
 * (an SQLite {@code file}, or a PostgreSQL {@code server} several hosts may share: then each row
 * carries the {@code host}'s name, and retention touches only that host's rows), the paths kept ({@code include} globs, none = every path; {@code exclude} globs win), the
 * largest non-numeric value kept ({@code maxValueBytes}: a numeric value is always kept, a text up to
 * this many bytes of TLV, anything bigger, a blob, is not), how long raw rows are kept and how long
 * their one-minute summaries (min, mean, max, last) are, and the writer's queue.
 */
public record HistorySettings(Path file, HistoryServer server, String host, List<String> include, List<String> exclude, int maxValueBytes,
                              long rawRetentionMs, long rollupRetentionMs, int queueCapacity) {
    /** Raw rows: 7 days. */
    public static final long DEFAULT_RAW_MS = 7L * 24 * 3600_000L;
    /** One-minute summaries: 1 year. */
    public static final long DEFAULT_ROLLUP_MS = 365L * 24 * 3600_000L;
    /** A text value of at most 64 bytes (TLV) is kept; bigger ones are not. */
    public static final int DEFAULT_MAX_VALUE_BYTES = 64;
    /** Rows waiting for the writer thread; more are dropped and counted. */
    public static final int DEFAULT_QUEUE = 65_536;
    /** The file's name in the host's state directory. */
    public static final String FILE_NAME = "history.db";

    /** Checks and copies: a file or a server (one of them), the host's name (null: "host"), the path lists copied. */
    public HistorySettings {
        if ((file == null) == (server == null)) {
            throw new IllegalArgumentException("history: give a file or a server, one of them");
        }
        host = host == null ? "host" : host;
        include = List.copyOf(include);
        exclude = List.copyOf(exclude);
        include.forEach(PathGlob::of); // a glob that is not one is refused here
        exclude.forEach(PathGlob::of);
        if (maxValueBytes < 0 || rawRetentionMs <= 0 || rollupRetentionMs <= 0 || queueCapacity <= 0) {
            throw new IllegalArgumentException("history: the retentions and the queue must be positive, the largest value 0 or more bytes");
        }
    }

    /** Every path, the defaults, into {@code file}. */
    public static HistorySettings of(Path file) {
        return new HistorySettings(Objects.requireNonNull(file), null, null, List.of(), List.of(), DEFAULT_MAX_VALUE_BYTES, DEFAULT_RAW_MS, DEFAULT_ROLLUP_MS,
                DEFAULT_QUEUE);
    }

    /** Every path, the defaults, into the PostgreSQL {@code server}. */
    public static HistorySettings of(HistoryServer server) {
        return new HistorySettings(null, Objects.requireNonNull(server), null, List.of(), List.of(), DEFAULT_MAX_VALUE_BYTES,
                DEFAULT_RAW_MS, DEFAULT_ROLLUP_MS, DEFAULT_QUEUE);
    }

    /** These settings with the host's name its rows carry (a server's rows; a file holds one host's). */
    public HistorySettings withHost(String name) {
        return new HistorySettings(file, server, name, include, exclude, maxValueBytes, rawRetentionMs, rollupRetentionMs,
                queueCapacity);
    }

    /** Where the history is, as told to the operator: the file, or the server's URL (never a password). */
    public String where() {
        return file != null ? file.toString() : server.url();
    }

    /** These settings with other include and exclude path globs. */
    public HistorySettings withPaths(List<String> inc, List<String> exc) {
        return new HistorySettings(file, server, host, inc, exc, maxValueBytes, rawRetentionMs, rollupRetentionMs, queueCapacity);
    }

    /** These settings with other retentions, in ms: raw rows, and the one-minute summaries. */
    public HistorySettings withRetention(long rawMs, long rollupMs) {
        return new HistorySettings(file, server, host, include, exclude, maxValueBytes, rawMs, rollupMs, queueCapacity);
    }

    /** These settings with another bound on a non-numeric value's bytes (a longer one is not stored). */
    public HistorySettings withMaxValueBytes(int bytes) {
        return new HistorySettings(file, server, host, include, exclude, bytes, rawRetentionMs, rollupRetentionMs, queueCapacity);
    }

    /** These settings with another writer queue capacity, in rows (beyond it a row is dropped and counted). */
    public HistorySettings withQueue(int rows) {
        return new HistorySettings(file, server, host, include, exclude, maxValueBytes, rawRetentionMs, rollupRetentionMs, rows);
    }

    /** Whether values of a path are kept: not a {@code $} path, included, not excluded (globs compiled once). */
    public Predicate<String> filter() {
        List<PathGlob> inc = include.stream().map(PathGlob::of).toList();
        List<PathGlob> exc = exclude.stream().map(PathGlob::of).toList();
        return path -> !path.contains("/$") && (inc.isEmpty() || PathGlob.any(inc, path)) && !PathGlob.any(exc, path);
    }
}
