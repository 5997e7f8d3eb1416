package io.spectrum.host.history;

import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.testing.PostgresCluster;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The history on a PostgreSQL server several hosts share (docs/host.md, "History"), against a real
 * server the test starts ({@link PostgresCluster}; skipped, naming it, where PostgreSQL is not
 * installed): hosts on a {@link ManualClock} with their loop on the test's thread, writing their own
 * vertices; each test in a database of its own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PostgresHistoryTest {
    /** docs/host.md's example query for Grafana's PostgreSQL data source, as printed there. */
    private static final String GRAFANA_QUERY = """
            SELECT to_timestamp(r.t / 1000.0) AS time, p.host || p.path AS metric, r.value
            FROM raw r JOIN paths p ON p.id = r.path_id
            WHERE p.path = '/board1/sensor/temp' AND r.stale = 0 AND r.value IS NOT NULL
              AND r.t BETWEEN $__unixEpochFrom() * 1000 AND $__unixEpochTo() * 1000
            ORDER BY 1
            """;
    private static PostgresCluster pg;
    private static int databases;

    private final ManualClock clock = new ManualClock(1_000_000_000L);
    private final List<AutoCloseable> closing = new ArrayList<>();
    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() throws Exception {
        pg = PostgresCluster.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    /** A new database on the server, for one test. */
    private static String database() throws Exception {
        String name = "t" + (++databases);
        try (Connection c = DriverManager.getConnection(pg.jdbc("postgres")); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return name;
    }

    private HostRuntime host(String name, HistorySettings settings, List<String> warnings) {
        HostRuntime host = new HostRuntime(name, new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(clock).build()));
        host.onWarning(warnings::add);
        closing.add(host);
        host.record(settings);
        host.startOnCallerThread();
        return host;
    }

    /** Credentials from the environment, as the host reads them without a credentials file. */
    private static HistorySettings fromEnv(String url) {
        return HistorySettings.of(HistoryServer.parse(url, null, Map.of(HistoryServer.ENV_USERNAME, "postgres")));
    }

    private static byte[] value(long v) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 4);
        return java.util.Arrays.copyOf(b, w.length());
    }

    private static List<Double> numbers(HistoryStore store, String path) throws Exception {
        store.flush();
        try (HistoryReader r = store.reader()) {
            return r.rows(path, 0, Long.MAX_VALUE, 100).stream().map(row -> row.value().number()).toList();
        }
    }

    private static List<String> query(String db, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(pg.jdbc(db)); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                List<String> cols = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    cols.add(rs.getString(i));
                }
                out.add(String.join(" ", cols));
            }
        }
        return out;
    }

    @Test
    void twoHostsWriteOneDatabase_theirSamePathsStayApartByHost() throws Exception {
        String db = database();
        Path creds = dir.resolve("history.credentials");
        Files.writeString(creds, "username=postgres\npassword=unused-with-trust\n");
        List<String> warnings = new CopyOnWriteArrayList<>();
        HostRuntime alpha = host("alpha", HistorySettings.of(HistoryServer.parse(pg.url(db), creds, Map.of())), warnings);
        HostRuntime beta = host("beta", fromEnv(pg.url(db)), warnings);

        assertEquals(WireError.OK, alpha.write("/board1/temp", value(21)));
        assertEquals(WireError.OK, beta.write("/board1/temp", value(35)));
        assertEquals(WireError.OK, beta.write("/board1/temp", value(36)));

        assertEquals(List.of(21.0), numbers(alpha.historyStore(), "/board1/temp"), "alpha reads its own rows");
        assertEquals(List.of(35.0, 36.0), numbers(beta.historyStore(), "/board1/temp"), "beta reads its own rows");
        // the Grafana query of docs/host.md, its time macros given all time (one instant here: sorted without the time)
        String grafana = GRAFANA_QUERY.replace("/board1/sensor/temp", "/board1/temp")
                .replace("$__unixEpochFrom()", "0").replace("$__unixEpochTo()", "4102444800");
        assertEquals(List.of("alpha/board1/temp 21", "beta/board1/temp 35", "beta/board1/temp 36"),
                query(db, grafana).stream().map(l -> l.substring(l.indexOf(' ', l.indexOf(' ') + 1) + 1)).sorted().toList());
        assertEquals(List.of(), warnings);
    }

    @Test
    void retentionOnTheHostsClock_deletesOnlyThatHostsOldRows() throws Exception {
        String db = database();
        List<String> warnings = new CopyOnWriteArrayList<>();
        HistorySettings twoMinutes = fromEnv(pg.url(db)).withRetention(2 * HistoryStore.MINUTE_MS, 365L * 24 * 3600_000L);
        HostRuntime alpha = host("alpha", twoMinutes, warnings);
        HostRuntime beta = host("beta", twoMinutes, warnings);
        alpha.write("/board1/temp", value(1));
        beta.write("/board1/temp", value(1));
        alpha.historyStore().flush();
        beta.historyStore().flush();

        clock.advanceMillis(10 * HistoryStore.MINUTE_MS);
        alpha.write("/board1/temp", value(2));
        beta.write("/board1/temp", value(2));
        alpha.historyStore().maintain(clock.epochNanos() / 1_000_000L); // only alpha's retention runs

        assertEquals(List.of(2.0), numbers(alpha.historyStore(), "/board1/temp"), "alpha's old row is gone, its new one kept");
        assertEquals(List.of(1.0, 2.0), numbers(beta.historyStore(), "/board1/temp"), "beta's rows are beta's retention's");
        assertEquals(List.of("alpha 1 1"), query(db, "SELECT p.host, m.n, m.mean FROM minute m JOIN paths p ON p.id = m.path_id"),
                "alpha's old minute is summarised before its raw row goes");
        assertEquals(List.of(), warnings);
    }

    @Test
    void aStoppedServer_isOneWarning_theHostGoesOn_andRowsResumeWhenItIsBack() throws Exception {
        String db = database();
        List<String> warnings = new CopyOnWriteArrayList<>();
        HostRuntime gamma = host("gamma", fromEnv(pg.url(db)), warnings);
        HistoryStore store = gamma.historyStore();
        gamma.write("/here/x", value(1));
        assertEquals(List.of(1.0), numbers(store, "/here/x"));

        pg.stopServer();
        try {
            for (int v = 2; v <= 4; v++) { // three batches: the lost connection, then connecting refused twice
                assertEquals(WireError.OK, gamma.write("/here/x", value(v)), "the host goes on serving");
                store.flush();
            }
            assertEquals(3, store.stats().failed(), "the rows lost while the server was down are counted");
            assertEquals(1, warnings.stream().filter(w -> w.contains("history: cannot")).count(), "one warning: " + warnings);
            assertTrue(warnings.get(0).contains(pg.url(db)) && warnings.get(0).contains("the host goes on"), warnings.get(0));
        } finally {
            pg.startServer();
        }

        gamma.write("/here/x", value(5));
        assertEquals(List.of(1.0, 5.0), numbers(store, "/here/x"), "writing resumed on a new connection");
        assertEquals(2, warnings.size(), "" + warnings);
        assertTrue(warnings.get(1).contains("history: writing " + pg.url(db) + " again (3 values lost in all)"), warnings.get(1));
    }
}
