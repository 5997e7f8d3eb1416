package io.spectrum.host.history;

import io.spectrum.client.ValueFormat;
import io.spectrum.client.ValueText;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.node.api.VertexValue;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The host's history: every value it keeps ({@link HistorySettings}) appended to an SQLite file in
 * the host's state directory or to a PostgreSQL server several hosts share (each row carries the
 * host's name, {@link HistorySchema}), summarised per minute (min, mean, max, last) and thinned by age
 * (docs/host.md, "History").
 *
 * <p>The node thread only {@link #offer}s a value to a bounded queue and never waits: it copies the
 * value's TLV as it arrived, with its path, declaration, time, sequence and stale mark, into a pooled
 * record (at most as many as the queue holds, made as they are first needed and then reused), and
 * the writer renders it by the declaration ({@link ValueFormat}). When the queue is full the value
 * is dropped and counted. One writer thread of the store's own takes what is queued, renders it
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
    /** The largest TLV of a number (a 64-bit value with its header): a numeric value is always kept. */
    private static final int NUMBER_TLV_BYTES = 16;
    static final long MINUTE_MS = 60_000L;
    /** The shortest time between two warnings that rows were dropped (host clock). */
    private static final long DROP_WARNING_MS = 10_000L;

    /** What the store has done: rows written, dropped (queue full) and lost (the file refused them). */
    public record Stats(long written, long dropped, long failed, int queued) { }

    private record Maintain(long nowMs) { }

    private record Flush(CountDownLatch done) { }

    private static final Object STOP = new Object();
    private static final byte[] NO_REASON = new byte[0];

    /**
     * A value as the node thread hands it over: its TLV copied into a buffer of the record's own,
     * rendered on the writer thread. Pooled: the writer gives it back once rendered.
     */
    private static final class Pending {
        final byte[] tlv;
        int length;
        String path;
        VertexSchema schema;
        long t;
        long seq;
        boolean stale;
        /** The stale reason's UTF-8 bytes ({@code reasonLength} of them), or none when negative; made on a first reason. */
        byte[] reason = NO_REASON;
        int reasonLength = -1;

        Pending(int bytes) {
            tlv = new byte[bytes];
        }
    }

    private final HistorySettings settings;
    private final HistorySchema schema;
    private final Clock clock;
    private final Consumer<String> warnings;
    private final BlockingQueue<Object> queue;
    /**
     * Wakes the writer: a value alone does not. The writer wakes on the host's {@link #tick} (each step
     * of its node loop, at most every 100 ms), when {@link #wakeAt} values wait, and for a flush,
     * maintenance or stop; then it writes all that waits in as few transactions as it can. Waking for
     * every value made thousands of one-row transactions a second, whose CPU the node thread felt.
     */
    private final java.util.concurrent.Semaphore wake = new java.util.concurrent.Semaphore(0);
    /** Values waiting at which the writer is woken without waiting for the next tick. */
    private final int wakeAt;
    private final Thread writer;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    /** The records a value is copied into: as many as the queue holds at most, made when first needed. */
    private final BlockingQueue<Pending> free;
    private final AtomicInteger made = new AtomicInteger();
    /** The largest TLV a record holds: a number's, or the largest text kept. */
    private final int valueBytes;
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
        this.free = new ArrayBlockingQueue<>(settings.queueCapacity());
        this.wakeAt = Math.max(1, Math.min(BATCH, settings.queueCapacity() / 4));
        this.valueBytes = Math.max(settings.maxValueBytes(), NUMBER_TLV_BYTES);
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
        s.wake.release();
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
            queued();
            return true;
        }
        dropped.incrementAndGet();
        return false;
    }

    /**
     * True when a value TLV of {@code bytes} may be kept: a number's (at most 16 bytes) always, a text
     * up to {@link HistorySettings#maxValueBytes}; a bigger one, a blob, never. Whether a value that
     * fits is a number is known once the writer renders it: a text bigger than the settings' limit is
     * not written then.
     */
    public boolean fits(int bytes) {
        return bytes > 0 && bytes <= valueBytes;
    }

    /**
     * Queues a vertex's value as the node assigned it; never waits, renders nothing: the TLV and
     * {@code reason} are copied (the flyweight and the array may be reused after the call), the
     * writer renders it by {@code schema} ({@link ValueFormat}). The row's time, sequence and stale
     * mark are the caller's ({@link HistoryRow}).
     *
     * @return false when the value does not {@link #fits fit} (not kept), or when the queue is full
     *     (dropped and counted, as {@link #offer(HistoryRow)})
     */
    public boolean offer(String path, VertexSchema schema, VertexValue value, long t, long seq, boolean stale, byte[] reason) {
        int n = value.length();
        if (!fits(n)) {
            return false;
        }
        Pending p = claim();
        if (p == null) {
            return false;
        }
        value.copyTo(p.tlv, 0);
        p.length = n;
        return submit(p, path, schema, t, seq, stale, reason);
    }

    /**
     * Queues the value TLV {@code tlv[off, off+len)} of {@code path} (a board's backfill answer) as
     * {@link #offer(String, VertexSchema, VertexValue, long, long, boolean, byte[])} does: copied,
     * rendered by the writer, never waiting.
     */
    public boolean offer(String path, VertexSchema schema, byte[] tlv, int off, int len, long t, long seq) {
        if (!fits(len)) {
            return false;
        }
        Pending p = claim();
        if (p == null) {
            return false;
        }
        System.arraycopy(tlv, off, p.tlv, 0, len);
        p.length = len;
        return submit(p, path, schema, t, seq, false, null);
    }

    /** A free record, or a new one while fewer than the queue holds were made; null (counted dropped) when none. */
    private Pending claim() {
        Pending p = free.poll();
        if (p != null) {
            return p;
        }
        if (made.incrementAndGet() <= settings.queueCapacity()) {
            return new Pending(valueBytes);
        }
        made.decrementAndGet();
        dropped.incrementAndGet(); // every record is queued: the queue is full
        return null;
    }

    private boolean submit(Pending p, String path, VertexSchema schema, long t, long seq, boolean stale, byte[] reason) {
        p.path = path;
        p.schema = schema;
        p.t = t;
        p.seq = seq;
        p.stale = stale;
        if (reason == null) {
            p.reasonLength = -1;
        } else {
            if (reason.length > p.reason.length) {
                p.reason = new byte[Math.max(reason.length, 64)]; // a longer reason than this record held yet
            }
            System.arraycopy(reason, 0, p.reason, 0, reason.length);
            p.reasonLength = reason.length;
        }
        if (queue.offer(p)) {
            queued();
            return true;
        }
        release(p);
        dropped.incrementAndGet();
        return false;
    }

    /** Wakes the writer once enough values wait; otherwise the next {@link #tick} does. */
    private void queued() {
        if (queue.size() >= wakeAt && wake.availablePermits() == 0) {
            wake.release();
        }
    }

    /**
     * Lets the writer write what waits: the host calls it at each step of its node loop (at most every
     * 100 ms of its clock). Never waits.
     */
    public void tick() {
        if (!queue.isEmpty() && wake.availablePermits() == 0) {
            wake.release();
        }
    }

    private void release(Pending p) {
        p.path = null;
        p.schema = null;
        free.offer(p);
    }

    /**
     * The row of a value the node handed over, rendered here on the writer thread; null when it is a
     * text bigger than the settings keep. The record goes back to the pool.
     */
    private HistoryRow rendered(Pending p) {
        try {
            ValueText text = ValueFormat.render(p.tlv, 0, p.length, p.schema);
            if (!text.numeric() && p.length > settings.maxValueBytes()) {
                return null;
            }
            return new HistoryRow(p.path, p.t, text, p.seq, p.stale,
                    p.reasonLength < 0 ? null : new String(p.reason, 0, p.reasonLength, java.nio.charset.StandardCharsets.UTF_8));
        } finally {
            release(p);
        }
    }

    /** Asks the writer to roll up finished minutes and drop what is older than the retentions at {@code nowMs}. */
    public void maintain(long nowMs) {
        if (!queue.offer(new Maintain(nowMs))) {
            dropped.incrementAndGet(); // the next minute asks again
        }
        wake.release();
    }

    /** Waits until everything queued before the call is written (or failed); tests and shutdown. */
    public void flush() throws InterruptedException {
        if (!writer.isAlive()) {
            return;
        }
        CountDownLatch done = new CountDownLatch(1);
        queue.put(new Flush(done));
        wake.release();
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
            wake.release();
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
                wake.acquire();
                wake.drainPermits();
                batch.clear();
                queue.drainTo(batch, BATCH);
                if (batch.isEmpty()) {
                    continue;
                }
                if (batch.size() == BATCH) {
                    wake.release(); // more waits: the next round takes it
                }
                for (Object o : batch) {
                    if (o instanceof HistoryRow r) {
                        rows.add(r);
                        continue;
                    }
                    if (o instanceof Pending p) {
                        HistoryRow r = renderedOrLost(p);
                        if (r != null) {
                            rows.add(r);
                        }
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

    /** A value that cannot be rendered (a bug) is counted lost, with a warning, never the writer thread. */
    private HistoryRow renderedOrLost(Pending p) {
        try {
            return rendered(p);
        } catch (RuntimeException e) {
            problem("render a value for", e, 1);
            return null;
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
