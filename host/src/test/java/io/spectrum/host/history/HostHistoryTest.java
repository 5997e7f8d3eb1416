package io.spectrum.host.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.host.dashboard.DashboardServer;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host's history store with real parts (docs/host.md, "History"): a NARROW board mounted over a
 * memory link and the host's own vertices, on a {@link ManualClock} with the host's loop on the
 * test's thread; the store's SQLite file in a temporary state directory.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostHistoryTest {
    private final ManualClock clock = new ManualClock(1_000_000_000L);
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> closing = new ArrayList<>();
    @TempDir
    Path dir;

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private static byte[] value(long v) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 4);
        return java.util.Arrays.copyOf(b, w.length());
    }

    private static int write(NarrowNode board, String path, long v) {
        byte[] tlv = value(v);
        return board.write(NodePath.of(path), tlv, 0, tlv.length);
    }

    private static byte[] name(String text) {
        byte[] t = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] b = new byte[t.length + 8];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.leaf(io.spectrum.wire.TlvType.NAME, t);
        return java.util.Arrays.copyOf(b, w.length());
    }

    private HostRuntime host(HistorySettings settings) {
        HostRuntime host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(clock).build()));
        host.onWarning(warnings::add);
        closing.add(host);
        host.record(settings);
        return host;
    }

    private void advance(IntSupplier cycle, long millis) {
        clock.advanceMillis(millis);
        for (int i = 0; i < 100 && cycle.getAsInt() > 0; i++) {
            // this instant's tasks and answers
        }
        cycle.getAsInt();
    }

    private long nowMs() {
        return clock.epochNanos() / 1_000_000L;
    }

    private static List<Double> numbers(List<HistoryRow> rows) {
        return rows.stream().map(r -> r.value().number()).toList();
    }

    @Test
    void aHostRestartedOnTheSameStateDirectoryKeepsItsHistoryAndItsDashboardDrawsIt() throws Exception {
        HistorySettings settings = HistorySettings.of(dir.resolve("state").resolve(HistorySettings.FILE_NAME));
        MemoryLink[] pair = MemoryLink.pair();
        NarrowNode board = new NarrowNode(NodeConfig.builder().clock(clock).build());
        closing.add(board);
        assertEquals(WireError.OK, board.attach(pair[1]));
        assertEquals(WireError.OK, write(board, "/sensor/temp", 21));

        HostRuntime first = host(settings);
        IntSupplier cycle = first.startOnCallerThread();
        first.mount(pair[0], "board1", List.of());
        first.watch("/board1/sensor/temp", "test", null); // the host follows the board's vertex
        for (int i = 0; i < 5; i++) {
            advance(cycle, 100);
            board.poll();
        }
        long t22 = nowMs();
        write(board, "/sensor/temp", 22);
        for (int i = 0; i < 3; i++) {
            board.poll();
            advance(cycle, 100);
        }
        assertEquals(WireError.OK, first.write("/here/setpoint", value(5))); // a host-local vertex
        advance(cycle, 100);
        first.close(); // what was queued is written
        closing.remove(first);

        HostRuntime second = host(settings);
        second.startOnCallerThread();
        second.write("/here/setpoint", value(6));
        second.historyStore().flush();
        try (HistoryReader r = second.historyStore().reader()) {
            List<HistoryRow> temp = r.rows("/board1/sensor/temp", 0, Long.MAX_VALUE, 100);
            assertEquals(List.of(21.0, 22.0), numbers(temp), "the board's values the first host received: " + temp);
            assertTrue(temp.get(1).t() >= t22, "each row is stamped with its receipt time on the host's clock");
            assertTrue(temp.get(1).seq() > temp.get(0).seq());
            assertFalse(temp.get(1).stale());
            assertEquals(List.of(5.0, 6.0), numbers(r.rows("/here/setpoint", 0, Long.MAX_VALUE, 100)),
                    "before and after the restart");
        }

        DashboardServer dash = new DashboardServer(second, new InetSocketAddress("127.0.0.1", 0), 100);
        closing.add(dash::close);
        HttpClient http = HttpClient.newHttpClient();
        JsonNode series = get(http, dash.url() + "api/history?window=900").path("series");
        assertEquals(2, series.path("/board1/sensor/temp").size(), "the chart's points survive the restart: " + series);
        assertEquals(22.0, series.path("/board1/sensor/temp").get(1).get(1).asDouble());
        JsonNode rows = get(http, dash.url() + "api/history?path=/here/**&since=1h").path("rows");
        assertEquals(2, rows.size(), rows.toString());
        assertEquals("/here/setpoint", rows.get(0).path("path").asText());
        assertEquals(6, rows.get(1).path("value").asInt());
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    private static JsonNode get(HttpClient http, String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return new ObjectMapper().readTree(r.body());
    }

    @Test
    void retentionAndOneMinuteSummariesFollowTheHostsClock() throws Exception {
        HistorySettings settings = HistorySettings.of(dir.resolve(HistorySettings.FILE_NAME))
                .withRetention(TimeUnit.MINUTES.toMillis(10), TimeUnit.HOURS.toMillis(1));
        HostRuntime host = host(settings);
        IntSupplier cycle = host.startOnCallerThread();
        advance(cycle, 5 * HistoryStore.MINUTE_MS - Math.floorMod(nowMs(), 5 * HistoryStore.MINUTE_MS)); // buckets align to the epoch
        long start = nowMs();
        for (int i = 0; i < 30; i++) { // 5 minutes, one value every 10 s: minute k holds 6k .. 6k+5
            assertEquals(WireError.OK, host.write("/here/level", value(i)));
            advance(cycle, 10_000);
        }
        advance(cycle, 60_000); // the host asks the store to summarise once a minute of its clock
        HistoryStore store = host.historyStore();
        store.flush();
        try (HistoryReader r = store.reader()) {
            assertEquals(30, r.rows("/here/level", 0, Long.MAX_VALUE, 100).size(), "raw rows kept for 10 min");
        }
        advance(cycle, TimeUnit.MINUTES.toMillis(10)); // past the raw retention
        store.flush();
        try (HistoryReader r = store.reader()) {
            assertEquals(0, r.rows("/here/level", 0, Long.MAX_VALUE, 100).size(), "raw rows older than 10 min are gone");
            List<HistoryBucket> minutes = r.buckets("/here/level", 0, Long.MAX_VALUE, HistoryStore.MINUTE_MS);
            assertEquals(5, minutes.size(), minutes.toString());
            for (int k = 0; k < 5; k++) {
                HistoryBucket b = minutes.get(k);
                assertEquals(start + k * HistoryStore.MINUTE_MS, b.t());
                assertEquals(6 * k, b.min());
                assertEquals(6 * k + 2.5, b.mean(), 1e-9);
                assertEquals(6 * k + 5, b.max());
                assertEquals(6 * k + 5, b.last());
                assertEquals(6, b.n());
            }
            List<HistoryBucket> fiveMinutes = r.buckets("/here/level", 0, Long.MAX_VALUE, 5 * HistoryStore.MINUTE_MS);
            assertEquals(1, fiveMinutes.size(), "minutes merge into a coarser bucket: " + fiveMinutes);
            assertEquals(14.5, fiveMinutes.get(0).mean(), 1e-9);
            assertEquals(30, fiveMinutes.get(0).n());
        }
        advance(cycle, TimeUnit.HOURS.toMillis(1)); // past the summaries' retention
        store.flush();
        try (HistoryReader r = store.reader()) {
            assertEquals(List.of(), r.buckets("/here/level", 0, Long.MAX_VALUE, HistoryStore.MINUTE_MS));
        }
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void aLockedHistoryFileIsOneWarningAndACountWhileTheNodeKeepsServing() throws Exception {
        Path file = dir.resolve(HistorySettings.FILE_NAME);
        HostRuntime host = host(HistorySettings.of(file));
        IntSupplier cycle = host.startOnCallerThread();
        host.write("/here/x", value(1));
        host.historyStore().flush(); // the file exists, one row written
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            try (Statement s = other.createStatement()) {
                s.execute("BEGIN EXCLUSIVE"); // another process holds the file's lock
            }
            for (int i = 2; i <= 4; i++) {
                assertEquals(WireError.OK, host.write("/here/x", value(i)), "the node takes every write");
                advance(cycle, 100);
                host.historyStore().flush(); // one batch each: each fails
            }
            byte[] buf = new byte[16];
            assertEquals(value(4).length, host.node().read(NodePath.of("/here/x"), buf, 0, buf.length), "and serves reads");
            assertEquals(3, host.historyStore().stats().failed());
            assertEquals(1, warnings.size(), "one warning for the episode: " + warnings);
            assertTrue(warnings.get(0).startsWith("warning: host host: history: cannot write " + file), warnings.get(0));
            try (Statement s = other.createStatement()) {
                s.execute("ROLLBACK");
            }
        }
        host.write("/here/x", value(5));
        host.historyStore().flush();
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(1).contains("writing " + file + " again (3 values lost in all)"), warnings.get(1));
        try (HistoryReader r = host.historyStore().reader()) {
            assertEquals(List.of(1.0, 5.0), numbers(r.rows("/here/x", 0, Long.MAX_VALUE, 100)));
        }
    }

    @Test
    void aHistoryFileThatCannotBeCreatedIsOneWarningAndTheHostRuns() throws Exception {
        Path blocker = Files.writeString(dir.resolve("not-a-dir"), "x");
        HostRuntime host = host(HistorySettings.of(blocker.resolve(HistorySettings.FILE_NAME)));
        IntSupplier cycle = host.startOnCallerThread();
        for (int i = 0; i < 3; i++) {
            assertEquals(WireError.OK, host.write("/here/x", value(i)));
            advance(cycle, 100);
            host.historyStore().flush();
        }
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("history: cannot open"), warnings.get(0));
        assertEquals(3, host.historyStore().stats().failed());
        assertEquals(0, host.historyStore().stats().written());
    }

    @Test
    void aFullQueueDropsAndCountsWithoutWaiting() throws Exception {
        HistorySettings settings = HistorySettings.of(dir.resolve(HistorySettings.FILE_NAME)).withQueue(1);
        HistoryStore store = HistoryStore.open(settings, clock, warnings::add);
        closing.add(store);
        int taken = 0;
        for (int i = 0; i < 1000; i++) {
            if (store.offer(new HistoryRow("/a", i, io.spectrum.client.ValueText.NONE, i, false, null))) {
                taken++;
            }
        }
        assertEquals(1000 - taken, store.stats().dropped());
        assertTrue(store.stats().dropped() > 0, "a queue of one overflows");
    }

    @Test
    void blobsAndExcludedPathsAreNotKept() throws Exception {
        HostRuntime host = host(HistorySettings.of(dir.resolve(HistorySettings.FILE_NAME))
                .withPaths(List.of(), List.of("/here/secret/**")));
        host.startOnCallerThread();
        host.write("/here/blob", name("x".repeat(100)));
        host.write("/here/mode", name("on"));
        host.write("/here/secret/pin", value(1234));
        host.historyStore().flush();
        try (HistoryReader r = host.historyStore().reader()) {
            assertEquals(List.of("/here/mode"), r.paths(List.of()));
            assertEquals("on", r.rows("/here/mode", 0, Long.MAX_VALUE, 10).get(0).value().text());
        }
    }

    /**
     * The node thread copies each value into one of the store's pooled records and renders nothing:
     * the writer renders it later, so what the caller's arrays hold after the offer does not matter,
     * the row reads as {@code ValueFormat} renders the value by its declaration, a stale mark keeps
     * its reason, and a text the settings do not keep is not written (nor counted dropped).
     */
    @Test
    void theWriterRendersWhatTheNodeThreadCopied() throws Exception {
        HistorySettings settings = HistorySettings.of(dir.resolve(HistorySettings.FILE_NAME)).withMaxValueBytes(4);
        HistoryStore store = HistoryStore.open(settings, clock, warnings::add);
        closing.add(store);
        io.spectrum.node.api.VertexSchema celsius = io.spectrum.node.api.VertexSchema.value(4, true).unit("Cel").scale(0.01).build();
        byte[] tlv = value(2328);
        byte[] reason = "board away".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(store.offer("/b/temp", celsius, tlv, 0, tlv.length, 1_000L, 41));
        java.util.Arrays.fill(tlv, (byte) 0); // the caller's buffer is its own again at once
        byte[] again = value(2331);
        assertTrue(store.offer("/b/temp", celsius, again, 0, again.length, 2_000L, 42));
        byte[] mark = value(2331);
        assertTrue(store.offer("/b/temp", celsius, mark, 0, mark.length, 3_000L, 42)); // the same value...
        assertTrue(offerStale(store, celsius, mark, reason), "...then its stale mark, as the node's value tap hands it");
        java.util.Arrays.fill(reason, (byte) '?');
        byte[] word = name("hello"); // a text: fits a record (a number's 16 bytes) but is over the 4 bytes kept
        assertTrue(store.offer("/b/mode", null, word, 0, word.length, 5_000L, 1), "queued: only the writer knows it is a text");
        byte[] blob = name("x".repeat(40));
        assertFalse(store.offer("/b/blob", null, blob, 0, blob.length, 5_000L, 1), "a blob is not even copied");
        store.flush();
        assertEquals(0, store.stats().dropped(), "nothing was dropped");
        try (HistoryReader r = store.reader()) {
            List<HistoryRow> rows = r.rows("/b/temp", 0, Long.MAX_VALUE, 10);
            assertEquals(4, rows.size(), rows.toString());
            assertEquals(io.spectrum.client.ValueFormat.render(value(2328), celsius).text(), rows.get(0).value().text());
            assertEquals("23.28 °C", rows.get(0).value().text(), "rendered by the declaration, from the bytes as offered");
            assertEquals(41, rows.get(0).seq());
            assertEquals(1_000L, rows.get(0).t());
            assertEquals("23.31 °C", rows.get(1).value().text());
            HistoryRow stale = rows.get(3);
            assertTrue(stale.stale());
            assertEquals("board away", stale.reason(), "the reason as it was when offered");
            assertEquals("23.31 °C", stale.value().text());
            assertEquals(List.of("/b/temp"), r.paths(List.of()), "the long text and the blob are not kept");
        }
    }

    private static boolean offerStale(HistoryStore store, io.spectrum.node.api.VertexSchema schema, byte[] tlv, byte[] reason) {
        io.spectrum.node.api.VertexValue v = new io.spectrum.node.api.VertexValue() {
            @Override
            public int length() {
                return tlv.length;
            }

            @Override
            public byte getByte(int i) {
                return tlv[i];
            }

            @Override
            public int copyTo(byte[] dst, int off) {
                System.arraycopy(tlv, 0, dst, off, tlv.length);
                return tlv.length;
            }

            @Override
            public boolean deleted() {
                return false;
            }

            @Override
            public int pathLength() {
                return 0;
            }

            @Override
            public byte pathByte(int i) {
                throw new IndexOutOfBoundsException(i);
            }

            @Override
            public int copyPathTo(byte[] dst, int off) {
                return 0;
            }

            @Override
            public NodePath nodePath() {
                return NodePath.of("/b/temp");
            }

            @Override
            public String path() {
                return "/b/temp";
            }
        };
        return store.offer("/b/temp", schema, v, 4_000L, 42, true, reason);
    }

    /**
     * With the writer held up (here: inside its warning that the file cannot be opened), the node
     * thread's values fill the queue's records and the rest are dropped and counted at once: every
     * write returns, the node serves on, one warning says how many were dropped, and the records
     * are reused once the writer goes on.
     */
    @Test
    void aWriterHeldUpNeverHoldsUpTheNodeThreadItsDropsAreCountedAndToldOnce() throws Exception {
        java.util.concurrent.CountDownLatch inWarning = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch goOn = new java.util.concurrent.CountDownLatch(1);
        Path blocker = Files.writeString(dir.resolve("not-a-dir"), "x");
        HistorySettings settings = HistorySettings.of(blocker.resolve(HistorySettings.FILE_NAME)).withQueue(4);
        HostRuntime host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(clock).build()));
        closing.add(host);
        host.onWarning(line -> {
            warnings.add(line);
            if (line.contains("cannot open") && inWarning.getCount() > 0) {
                inWarning.countDown();
                try {
                    goOn.await(); // the writer thread stays here until the test lets it go
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        host.record(settings);
        assertTrue(inWarning.await(30, TimeUnit.SECONDS), "the writer tried the file");
        IntSupplier cycle = host.startOnCallerThread(); // this thread is the node thread
        for (int i = 0; i < 10; i++) {
            assertEquals(WireError.OK, host.write("/here/x", value(i)), "the node takes every write");
        }
        byte[] buf = new byte[16];
        assertEquals(value(9).length, host.node().read(NodePath.of("/here/x"), buf, 0, buf.length), "and serves reads");
        HistoryStore.Stats held = host.historyStore().stats();
        assertEquals(4, held.queued(), "the queue holds four");
        assertEquals(6, held.dropped(), "the other six are dropped and counted: " + held);
        goOn.countDown();
        host.historyStore().flush();
        for (int i = 0; i < 4; i++) {
            assertEquals(WireError.OK, host.write("/here/x", value(10 + i)));
            advance(cycle, 100);
        }
        host.historyStore().flush();
        HistoryStore.Stats after = host.historyStore().stats();
        assertEquals(6, after.dropped(), "the records came back: the next four were queued " + after);
        assertEquals(8, after.failed(), "and lost to the file that cannot be opened, counted " + after);
        assertEquals(1, warnings.stream().filter(w -> w.contains("history: 6 values dropped in all")).count(), warnings.toString());
        assertEquals(1, warnings.stream().filter(w -> w.contains("cannot open")).count(), warnings.toString());
    }
}
