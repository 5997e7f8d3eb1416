package io.spectrum.cli;

import io.spectrum.client.ValueText;
import io.spectrum.host.history.HistoryRow;
import io.spectrum.host.history.HistoryServer;
import io.spectrum.host.history.HistorySettings;
import io.spectrum.host.history.HistoryStore;
import io.spectrum.testing.PostgresCluster;
import io.spectrum.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code spectrum history --db postgresql://…} reads one host's rows from a server several hosts
 * write to, against a real server the test starts ({@link PostgresCluster}; skipped, naming it,
 * where PostgreSQL is not installed).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HistoryPostgresCommandTest {
    @TempDir
    Path dir;

    private static HistoryRow temp(long t, long raw, long seq) {
        BigDecimal v = BigDecimal.valueOf(raw, 2);
        return new HistoryRow("/board1/temp", t, new ValueText(v.toPlainString() + " °C", v, BigInteger.valueOf(raw), "°C", "Cel"),
                seq, false, null);
    }

    @Test
    void readsTheNamedHostsRowsFromTheServer() throws Exception {
        try (PostgresCluster pg = PostgresCluster.start()) {
            try (Connection c = DriverManager.getConnection(pg.jdbc("postgres")); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE spectrum");
            }
            Path creds = dir.resolve("pg.credentials");
            Files.writeString(creds, "username=postgres\n");
            String url = pg.url("spectrum");
            long t0 = System.currentTimeMillis() - 60_000L;
            for (String host : List.of("alpha", "beta")) {
                HistorySettings s = HistorySettings.of(HistoryServer.parse(url, creds, Map.of())).withHost(host);
                try (HistoryStore store = HistoryStore.open(s, new ManualClock(0), w -> { })) {
                    store.offer(temp(t0, host.equals("alpha") ? 2100 : 3500, 1));
                    store.flush();
                }
            }
            Cli.Run r = Cli.run("history", "--db", url, "--host", "beta", "--history-credentials", creds.toString(),
                    "/board1/temp", "--since", "1h");
            assertEquals(0, r.code(), r.all());
            List<String> lines = r.out().lines().toList();
            assertEquals(1, lines.size(), r.out());
            assertTrue(lines.get(0).endsWith(" /board1/temp = 35.00 °C  (seq 1)"), lines.get(0));

            Cli.Run none = Cli.run("history", "--db", url, "--host", "gamma", "--history-credentials", creds.toString(), "/board1/temp");
            assertEquals(1, none.code(), none.all());
            assertTrue(none.err().contains(url + " (host gamma) holds nothing"), none.err());
        }
    }
}
