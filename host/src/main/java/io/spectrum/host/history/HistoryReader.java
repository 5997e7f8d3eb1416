package io.spectrum.host.history;

import io.spectrum.bridge.PathGlob;
import io.spectrum.client.ValueText;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads a history file ({@link HistoryStore}) on a read-only connection of its own: the stored rows
 * of some paths in a time range, or their numeric values downsampled to one bucket per
 * {@code every} (from the raw rows where they are still kept, from the one-minute summaries before
 * that). The dashboard's {@code GET /api/history} and {@code spectrum history} both read through it.
 */
public final class HistoryReader implements AutoCloseable {
    private final Connection db;
    private final HistorySchema schema;

    private HistoryReader(Connection db, HistorySchema schema) {
        this.db = db;
        this.schema = schema;
    }

    /** @throws SQLException the file is not there or not a history file (the message says which) */
    public static HistoryReader open(Path file) throws SQLException {
        return open(HistorySettings.of(file));
    }

    /**
     * The database of {@code settings}: its file, or its server (then the rows of {@code settings.host()}).
     *
     * @throws SQLException the file is not there, the server cannot be reached, … (the message says which)
     */
    public static HistoryReader open(HistorySettings settings) throws SQLException {
        HistorySchema schema = HistorySchema.of(settings);
        return new HistoryReader(schema.openForReading(), schema);
    }

    /**
     * The stored paths matching any of {@code patterns} (a path, or a glob: {@code *} one segment,
     * {@code **} any: {@link PathGlob}), sorted; every stored path for none.
     */
    public List<String> paths(List<String> patterns) throws SQLException {
        List<PathGlob> globs = patterns.stream().map(PathGlob::of).toList();
        TreeSet<String> out = new TreeSet<>();
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT path FROM " + schema.paths() + " p")) {
            while (rs.next()) {
                String p = rs.getString(1);
                if (globs.isEmpty() || PathGlob.any(globs, p)) {
                    out.add(p);
                }
            }
        }
        return List.copyOf(out);
    }

    /** The raw rows of {@code path} with {@code since <= t < until}, oldest first, at most {@code limit}. */
    public List<HistoryRow> rows(String path, long since, long until, int limit) throws SQLException {
        List<HistoryRow> out = new ArrayList<>();
        eachRow(path, since, until, limit, out::add);
        return out;
    }

    /** Takes rows one at a time, as they are read; may throw what its caller handles. */
    @FunctionalInterface
    public interface RowSink {
        /** Takes one row; a thrown exception stops the reading and reaches the caller of {@link #eachRow}. */
        void accept(HistoryRow row) throws SQLException;
    }

    /**
     * Hands the raw rows of {@code path} with {@code since <= t < until} to {@code sink} one at a time,
     * oldest first, at most {@code limit}, as the database returns them: none is kept here, so a range
     * of any length is read in constant memory (on PostgreSQL through a cursor of
     * {@link #FETCH_ROWS} rows). Returns how many were handed over.
     */
    public long eachRow(String path, long since, long until, long limit, RowSink sink) throws SQLException {
        boolean cursor = schema.isServer() && db.getAutoCommit(); // PostgreSQL's driver streams only inside a transaction
        if (cursor) {
            db.setAutoCommit(false);
        }
        long n = 0;
        try (PreparedStatement q = db.prepareStatement("SELECT r.t, r.exact, r.raw, r.unit, r.ucum, r.text, r.seq, r.stale, "
                + "r.reason FROM raw r JOIN " + schema.paths() + " p ON p.id = r.path_id WHERE p.path = ? AND r.t >= ? AND r.t < ? "
                + "ORDER BY r.t, r." + schema.order() + " LIMIT ?")) {
            q.setFetchSize(FETCH_ROWS);
            q.setString(1, path);
            q.setLong(2, since);
            q.setLong(3, until);
            q.setLong(4, limit);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    String exact = rs.getString(2);
                    BigDecimal value = exact == null ? null : new BigDecimal(exact);
                    String raw = rs.getString(3);
                    String unit = rs.getString(4);
                    ValueText v = new ValueText(rs.getString(6), value, raw == null ? null : new BigInteger(raw),
                            unit == null ? "" : unit, rs.getString(5));
                    sink.accept(new HistoryRow(path, rs.getLong(1), v, rs.getLong(7), rs.getInt(8) != 0, rs.getString(9)));
                    n++;
                }
            }
        } finally {
            if (cursor) {
                db.rollback(); // read only: nothing to keep
                db.setAutoCommit(true);
            }
        }
        return n;
    }

    /** Rows fetched from the database at a time while {@link #eachRow} streams. */
    static final int FETCH_ROWS = 1_000;

    /**
     * The numeric values of {@code path} with {@code since <= t < until} in buckets of {@code everyMs}
     * (aligned to multiples of it since the epoch), oldest first: the one-minute summaries for the
     * minutes whose raw rows are gone, the raw rows (current values, not the stale marks) after that.
     */
    public List<HistoryBucket> buckets(String path, long since, long until, long everyMs) throws SQLException {
        if (everyMs <= 0) {
            throw new IllegalArgumentException("every must be positive");
        }
        long id;
        try (PreparedStatement q = db.prepareStatement("SELECT id FROM " + schema.paths() + " p WHERE path = ?")) {
            q.setString(1, path);
            try (ResultSet rs = q.executeQuery()) {
                if (!rs.next()) {
                    return List.of();
                }
                id = rs.getLong(1);
            }
        }
        long rawFrom = Long.MAX_VALUE; // the first minute still held raw
        try (PreparedStatement q = db.prepareStatement("SELECT min(t) FROM raw WHERE path_id = ?")) {
            q.setLong(1, id);
            try (ResultSet rs = q.executeQuery()) {
                if (rs.next()) {
                    long t = rs.getLong(1);
                    if (!rs.wasNull()) {
                        rawFrom = Math.floorDiv(t, HistoryStore.MINUTE_MS) * HistoryStore.MINUTE_MS;
                    }
                }
            }
        }
        if (everyMs % HistoryStore.MINUTE_MS == 0) {
            // whole minutes: each bucket is whole summarised minutes up to where the summaries reach,
            // so the raw rows are read only after that (a 7-day chart reads 10,080 summaries, not every value)
            try (Statement s = db.createStatement();
                 ResultSet rs = s.executeQuery(schema.rolledUntil())) {
                if (rs.next()) {
                    rawFrom = rs.getLong(1);
                }
            }
        }
        TreeMap<Long, HistoryStore.Summary> b = new TreeMap<>();
        if (since < rawFrom) {
            try (PreparedStatement q = db.prepareStatement("SELECT t, min, mean, max, last, n, unit FROM minute "
                    + "WHERE path_id = ? AND t >= ? AND t < ? ORDER BY t")) {
                q.setLong(1, id);
                q.setLong(2, since);
                q.setLong(3, Math.min(until, rawFrom));
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        b.computeIfAbsent(Math.floorDiv(rs.getLong(1), everyMs) * everyMs, k -> new HistoryStore.Summary())
                                .merge(rs.getDouble(2), rs.getDouble(3), rs.getDouble(4), rs.getDouble(5), rs.getLong(6),
                                        rs.getString(7));
                    }
                }
            }
        }
        try (PreparedStatement q = db.prepareStatement("SELECT t, value, unit FROM raw WHERE path_id = ? AND t >= ? AND t < ? "
                + "AND value IS NOT NULL AND stale = 0 ORDER BY t, " + schema.order())) {
            q.setLong(1, id);
            q.setLong(2, Math.max(since, rawFrom == Long.MAX_VALUE ? since : rawFrom));
            q.setLong(3, until);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    b.computeIfAbsent(Math.floorDiv(rs.getLong(1), everyMs) * everyMs, k -> new HistoryStore.Summary())
                            .add(rs.getDouble(2), rs.getString(3));
                }
            }
        }
        List<HistoryBucket> out = new ArrayList<>(b.size());
        for (Map.Entry<Long, HistoryStore.Summary> e : b.entrySet()) {
            HistoryStore.Summary s = e.getValue();
            out.add(new HistoryBucket(path, e.getKey(), s.unit == null ? "" : s.unit, s.min, s.sum / s.n, s.max, s.last, s.n));
        }
        return out;
    }

    @Override
    public void close() throws SQLException {
        db.close();
    }
}
