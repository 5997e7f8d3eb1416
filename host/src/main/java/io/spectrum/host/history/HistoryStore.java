package io.spectrum.host.history;

import io.spectrum.client.ValueText;
import io.spectrum.time.Clock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The host's history: every value it keeps ({@link HistorySettings}) appended to an SQLite file in
 * the host's state directory or to a PostgreSQL server several hosts share (each row carries the
 * host's name, {@link HistorySchema}), summarised per minute (min, mean, max, last) and thinned by age
 * (docs/host.md, "History").
 *
 * <p>The node thread only {@link #offer}s a row to a bounded queue and never waits: when the queue
 * is full the row is dropped and counted. One writer thread of the store's own takes what is queued
 * and writes it in one transaction per batch. A file that cannot be opened or written (a full disk,
 * another process holding its lock) costs the rows of that batch, counted, and one warning line
 * until a batch is written again; the writer keeps going, and so does the host. A server's lost
 * connection is closed and opened again for the next batch, so writing resumes when the server is back.
 *
 * <p>Retention and the one-minute summaries are enforced by the writer when it is asked
 * ({@link #maintain}, with the time on the host's clock: the host asks once a minute of its clock),
 * never on the node thread.
 */
public final class HistoryStore implements AutoCloseable {
    /** Rows written in one transaction at most. */
    static final int BATCH = 4096;
    static final long MINUTE_MS = 60_000L;
    /** The shortest time between two warnings that rows were dropped (host clock). */
    private static final long DROP_WARNING_MS = 10_000L;

    /** What the store has done: rows written, dropped (queue full) and lost (the file refused them). */
    public record Stats(long written, long dropped, long failed, int queued) { }

    private record Maintain(long nowMs) { }

    private record Flush(CountDownLatch done) { }

    private static final Object STOP = new Object();

    private final HistorySettings settings;
    private final HistorySchema schema;
    private final Clock clock;
    private final Consumer<String> warnings;
    private final BlockingQueue<Object> queue;
    private final Thread writer;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    // writer thread only
    private Connection db;
    private final Map<String, Long> pathIds = new HashMap<>();
    private boolean failing;
    private long droppedTold;
    private long dropWarnedAt = Long.MIN_VALUE;

    private HistoryStore(HistorySettings settings, Clock clock, Consumer<String> warnings) {
        this.settings = settings;
        this.schema = HistorySchema.of(settings);
        this.clock = clock;
        this.warnings = warnings;
        this.queue = new ArrayBlockingQueue<>(settings.queueCapacity());
        this.writer = new Thread(this::run, "history " + (settings.file() != null ? settings.file().getFileName() : settings.host()));
        this.writer.setDaemon(true);
    }

    /**
     * Opens (creates) the file and starts the writer. Never throws for the file: one that cannot be
     * opened is a warning, and the writer tries again at each {@link #maintain}.
     *
     * @param warnings one line per problem ({@code history: …}), called on the writer thread
     */
    public static HistoryStore open(HistorySettings settings, Clock clock, Consumer<String> warnings) {
        HistoryStore s = new HistoryStore(settings, clock, warnings);
        s.writer.start();
        s.queue.offer(new Maintain(clock.epochNanos() / 1_000_000L)); // opens the file, catches up after a restart
        return s;
    }

    /** The settings this store was opened with. */
    public HistorySettings settings() {
        return settings;
    }

    /** The SQLite file the store writes (null: it writes to a server). */
    public Path file() {
        return settings.file();
    }

    /** Where the store writes, as told to the operator: the file or the server's URL. */
    public String where() {
        return settings.where();
    }

    /** Queues a row; never waits. False when the queue is full (the row is dropped and counted). */
    public boolean offer(HistoryRow row) {
        if (queue.offer(row)) {
            return true;
        }
        dropped.incrementAndGet();
        return false;
    }

    /** Asks the writer to roll up finished minutes and drop what is older than the retentions at {@code nowMs}. */
    public void maintain(long nowMs) {
        if (!queue.offer(new Maintain(nowMs))) {
            dropped.incrementAndGet(); // the next minute asks again
        }
    }

    /** Waits until everything queued before the call is written (or failed); tests and shutdown. */
    public void flush() throws InterruptedException {
        if (!writer.isAlive()) {
            return;
        }
        CountDownLatch done = new CountDownLatch(1);
        queue.put(new Flush(done));
        done.await();
    }

    /** Rows written, dropped on a full queue, lost to a failed batch, and queued now (a consistent-enough read: each figure is read once). */
    public Stats stats() {
        return new Stats(written.get(), dropped.get(), failed.get(), queue.size());
    }

    /** A reader of the same database on a connection of its own (the dashboard's queries): this host's rows. */
    public HistoryReader reader() throws SQLException {
        return HistoryReader.open(settings);
    }

    /** Writes what is queued, stops the writer and closes the file. */
    @Override
    public void close() {
        if (!writer.isAlive()) {
            return;
        }
        try {
            queue.put(STOP);
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            writer.interrupt();
        }
    }

    // ------------------------------------------------------------------ writer thread

    private void run() {
        List<Object> batch = new ArrayList<>(BATCH);
        List<HistoryRow> rows = new ArrayList<>(BATCH);
        try {
            while (true) {
                batch.clear();
                batch.add(queue.take());
                queue.drainTo(batch, BATCH - 1);
                for (Object o : batch) {
                    if (o instanceof HistoryRow r) {
                        rows.add(r);
                        continue;
                    }
                    guarded(rows, () -> write(rows));
                    if (o == STOP) {
                        return;
                    } else if (o instanceof Maintain m) {
                        guarded(rows, () -> maintainNow(m.nowMs()));
                    } else if (o instanceof Flush f) {
                        f.done().countDown();
                    }
                }
                guarded(rows, () -> write(rows));
                tellDrops();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeDb();
            for (Object o : queue) { // nobody waits forever on a store that stopped
                if (o instanceof Flush f) {
                    f.done().countDown();
                }
            }
        }
    }

    /** A fault of the driver or a bug costs the batch (counted, one warning), never the writer thread. */
    private void guarded(List<HistoryRow> rows, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            int lost = rows.size();
            rows.clear();
            rollback();
            problem("write", e, lost);
        }
    }

    private void tellDrops() {
        long d = dropped.get();
        if (d == droppedTold) {
            return;
        }
        long now = clock.epochNanos() / 1_000_000L;
        if (dropWarnedAt == Long.MIN_VALUE || now - dropWarnedAt >= DROP_WARNING_MS) {
            warnings.accept("history: " + d + " values dropped in all (the writer's queue of "
                    + settings.queueCapacity() + " was full; the disk is slower than the values come)");
            droppedTold = d;
            dropWarnedAt = now;
        }
    }

    /** One warning per episode of failures; the rows of the batch are counted lost. */
    private void problem(String what, Exception e, int lost) {
        failed.addAndGet(lost);
        if (!failing) {
            failing = true;
            String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            warnings.accept("history: cannot " + what + " " + settings.where() + ": " + why
                    + " (values are not recorded until it can; the host goes on)");
        }
    }

    private boolean ensureOpen() {
        if (db != null) {
            return true;
        }
        try {
            Path parent = settings.file() == null ? null : settings.file().toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            db = schema.openForWriting();
            return true;
        } catch (Exception e) {
            closeDb();
            problem("open", e, 0);
            return false;
        }
    }

    private void write(List<HistoryRow> rows) {
        if (rows.isEmpty()) {
            return;
        }
        int n = rows.size();
        if (!ensureOpen()) {
            failed.addAndGet(n);
            rows.clear();
            return;
        }
        try {
            db.setAutoCommit(false);
            try (PreparedStatement ins = db.prepareStatement(
                    "INSERT INTO raw(path_id, t, value, exact, raw, unit, ucum, text, seq, stale, reason) VALUES (?,?,?,?,?,?,?,?,?,?,?)")) {
                for (HistoryRow r : rows) {
                    ValueText v = r.value();
                    ins.setLong(1, pathId(r.path()));
                    ins.setLong(2, r.t());
                    if (v.numeric()) {
                        ins.setDouble(3, v.number());
                    } else {
                        ins.setNull(3, java.sql.Types.DOUBLE);
                    }
                    ins.setString(4, v.numeric() ? v.value().toPlainString() : null);
                    ins.setString(5, v.raw() == null ? null : v.raw().toString());
                    ins.setString(6, v.unit().isEmpty() ? null : v.unit());
                    ins.setString(7, v.ucum());
                    ins.setString(8, v.text());
                    ins.setLong(9, r.seq());
                    ins.setInt(10, r.stale() ? 1 : 0);
                    ins.setString(11, r.reason());
                    ins.addBatch();
                }
                ins.executeBatch();
            }
            db.commit();
            written.addAndGet(n);
            recovered();
        } catch (SQLException e) {
            rollback();
            problem("write", e, n);
        } finally {
            rows.clear();
        }
    }

    private void recovered() {
        if (failing) {
            failing = false;
            warnings.accept("history: writing " + settings.where() + " again (" + failed.get() + " values lost in all)");
        }
    }

    private long pathId(String path) throws SQLException {
        Long id = pathIds.get(path);
        if (id != null) {
            return id;
        }
        try (PreparedStatement ins = db.prepareStatement(schema.insertPath());
             PreparedStatement sel = db.prepareStatement("SELECT id FROM " + schema.paths() + " p WHERE path = ?")) {
            ins.setString(1, path);
            ins.executeUpdate();
            sel.setString(1, path);
            try (ResultSet rs = sel.executeQuery()) {
                rs.next();
                id = rs.getLong(1);
            }
        }
        if (pathIds.size() >= 65_536) {
            pathIds.clear(); // bounded: a host with more paths looks some up again
        }
        pathIds.put(path, id);
        return id;
    }

    private void rollback() {
        pathIds.clear(); // ids made in the failed transaction are gone
        try {
            if (db != null && !db.getAutoCommit()) {
                db.rollback();
            }
        } catch (SQLException ignored) {
            // the connection is unusable: the next write reopens it
            closeDb();
        }
        if (schema.server()) {
            closeDb(); // a server that failed a batch may be gone: the next batch connects again
        }
    }

    /**
     * Summarises every finished minute not summarised yet (per path: min, mean, max, last of its
     * current numeric values, n), then drops the raw rows older than the raw retention (whole
     * minutes, summarised ones only) and the summaries older than theirs.
     */
    private void maintainNow(long nowMs) {
        if (!ensureOpen()) {
            return;
        }
        try {
            db.setAutoCommit(false);
            long until = Math.floorDiv(nowMs, MINUTE_MS) * MINUTE_MS;
            long from = rolledUntil();
            if (from < until) {
                rollUp(from, until);
                setRolledUntil(until);
            }
            long rawCut = Math.min(Math.floorDiv(nowMs - settings.rawRetentionMs(), MINUTE_MS) * MINUTE_MS,
                    Math.max(from, until));
            try (PreparedStatement d = db.prepareStatement("DELETE FROM raw WHERE t < ?" + schema.andMine())) {
                d.setLong(1, rawCut);
                d.executeUpdate();
            }
            try (PreparedStatement d = db.prepareStatement("DELETE FROM minute WHERE t < ?" + schema.andMine())) {
                d.setLong(1, nowMs - settings.rollupRetentionMs());
                d.executeUpdate();
            }
            db.commit();
            recovered();
        } catch (SQLException e) {
            rollback();
            problem("maintain", e, 0);
        }
    }

    /** Where summarising goes on from: the mark, else the oldest raw row's minute, else "nothing yet". */
    private long rolledUntil() throws SQLException {
        try (Statement s = db.createStatement();
             ResultSet rs = s.executeQuery(schema.rolledUntil())) {
            if (rs.next()) {
                return rs.getLong(1);
            }
        }
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT min(t) FROM raw WHERE t IS NOT NULL" + schema.andMine())) {
            if (rs.next()) {
                long t = rs.getLong(1);
                if (!rs.wasNull()) {
                    return Math.floorDiv(t, MINUTE_MS) * MINUTE_MS;
                }
            }
        }
        return Long.MAX_VALUE;
    }

    private void setRolledUntil(long t) throws SQLException {
        try (PreparedStatement p = db.prepareStatement(schema.setRolledUntil())) {
            p.setLong(1, t);
            p.executeUpdate();
        }
    }

    private void rollUp(long from, long until) throws SQLException {
        Map<Long, Map<Long, Summary>> byPath = new LinkedHashMap<>();
        try (PreparedStatement q = db.prepareStatement("SELECT path_id, t, value, unit FROM raw "
                + "WHERE t >= ? AND t < ? AND value IS NOT NULL AND stale = 0" + schema.andMine() + " ORDER BY path_id, t, "
                + schema.order())) {
            q.setLong(1, from);
            q.setLong(2, until);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    long minute = Math.floorDiv(rs.getLong(2), MINUTE_MS) * MINUTE_MS;
                    byPath.computeIfAbsent(rs.getLong(1), k -> new LinkedHashMap<>())
                            .computeIfAbsent(minute, k -> new Summary()).add(rs.getDouble(3), rs.getString(4));
                }
            }
        }
        try (PreparedStatement ins = db.prepareStatement(schema.putMinute())) {
            for (Map.Entry<Long, Map<Long, Summary>> p : byPath.entrySet()) {
                for (Map.Entry<Long, Summary> m : p.getValue().entrySet()) {
                    Summary s = m.getValue();
                    ins.setLong(1, p.getKey());
                    ins.setLong(2, m.getKey());
                    ins.setString(3, s.unit);
                    ins.setDouble(4, s.min);
                    ins.setDouble(5, s.sum / s.n);
                    ins.setDouble(6, s.max);
                    ins.setDouble(7, s.last);
                    ins.setLong(8, s.n);
                    ins.addBatch();
                }
            }
            ins.executeBatch();
        }
    }

    /** A running min / mean / max / last (also the reader's buckets). */
    static final class Summary {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double sum;
        double last;
        long n;
        long lastT = Long.MIN_VALUE;
        String unit;

        void add(double v, String u) {
            min = Math.min(min, v);
            max = Math.max(max, v);
            sum += v;
            n++;
            last = v;
            unit = u;
        }

        /** A minute's summary merged in (in time order). */
        void merge(double mn, double mean, double mx, double lst, long count, String u) {
            min = Math.min(min, mn);
            max = Math.max(max, mx);
            sum += mean * count;
            n += count;
            last = lst;
            unit = u;
        }
    }

    private void closeDb() {
        if (db != null) {
            try {
                db.close();
            } catch (SQLException ignored) {
                // closing: nothing more to do with it
            }
            db = null;
        }
        pathIds.clear();
    }
}
