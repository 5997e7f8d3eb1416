package io.spectrum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.client.ValueText;
import io.spectrum.host.history.HistoryRow;
import io.spectrum.host.history.HistorySettings;
import io.spectrum.host.history.HistoryStore;
import io.spectrum.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code spectrum history} prints the rows a host's history store kept, as text, JSON lines and CSV. */
class HistoryCommandTest {
    @TempDir
    Path dir;

    /** Three rows of /board1/temp (°C, raw × 0.01) in the last minutes, the last stale, and one of /board1/mode. */
    private Path storeWithRows() throws Exception {
        long now = System.currentTimeMillis();
        long t0 = now - 10 * 60_000L;
        HistoryStore store = HistoryStore.open(HistorySettings.of(dir.resolve("history.db")), new ManualClock(0), w -> { });
        try (store) {
            store.offer(temp(t0, 2300, 1, false, null));
            store.offer(temp(t0 + 1000, 2350, 2, false, null));
            store.offer(temp(t0 + 2000, 2350, 2, true, "board away"));
            store.offer(new HistoryRow("/board1/mode", t0 + 500, new ValueText("eco", null, null, "", null), 7, false, null));
            store.flush();
        }
        return dir.resolve("history.db");
    }

    private static HistoryRow temp(long t, long raw, long seq, boolean stale, String reason) {
        BigDecimal v = BigDecimal.valueOf(raw, 2);
        return new HistoryRow("/board1/temp", t, new ValueText(v.toPlainString() + " °C", v, BigInteger.valueOf(raw), "°C", "Cel"),
                seq, stale, reason);
    }

    @Test
    void textLinesShowTheValueInItsUnitWithTheStamp() throws Exception {
        Path db = storeWithRows();
        Cli.Run r = Cli.run("history", "--db", db.toString(), "/board1/temp", "--since", "1h");
        assertEquals(0, r.code(), r.all());
        List<String> lines = r.out().lines().toList();
        assertEquals(3, lines.size(), r.out());
        assertTrue(lines.get(0).endsWith(" /board1/temp = 23.00 °C  (seq 1)"), lines.get(0));
        assertTrue(lines.get(2).endsWith(" /board1/temp = 23.50 °C  (seq 2, stale: board away)"), lines.get(2));
        Instant.parse(lines.get(0).substring(0, lines.get(0).indexOf(' '))); // an ISO-8601 time first
    }

    @Test
    void jsonLinesCarryTheCommonValueKeys() throws Exception {
        Path db = storeWithRows();
        Cli.Run r = Cli.run("history", "--db", db.toString(), "/board1/**", "--since", "1h", "--format", "json");
        assertEquals(0, r.code(), r.all());
        List<JsonNode> rows = new ArrayList<>();
        for (String l : r.out().lines().toList()) {
            rows.add(new ObjectMapper().readTree(l));
        }
        assertEquals(4, rows.size(), r.out());
        JsonNode mode = rows.get(0);
        assertEquals("/board1/mode", mode.path("path").asText());
        assertEquals("eco", mode.path("value").asText());
        JsonNode first = rows.get(1);
        assertEquals(23.00, first.path("value").asDouble());
        assertEquals("°C", first.path("unit").asText());
        assertEquals("Cel", first.path("ucum").asText());
        assertEquals(2300, first.path("raw").asInt());
        assertEquals(1, first.path("seq").asInt());
        assertEquals(false, first.path("stale").asBoolean());
        assertEquals("board away", rows.get(3).path("reason").asText());
    }

    @Test
    void csvHasAHeaderAndOneRowPerStoredValue() throws Exception {
        Path db = storeWithRows();
        Cli.Run r = Cli.run("history", "--db", db.toString(), "/board1/temp", "--since", "1h", "-F", "csv");
        assertEquals(0, r.code(), r.all());
        List<String> lines = r.out().lines().toList();
        assertEquals("ts,path,value,unit,raw,seq,stale,reason", lines.get(0));
        assertEquals(4, lines.size(), r.out());
        assertTrue(lines.get(1).endsWith(",/board1/temp,23.00,°C,2300,1,false,"), lines.get(1));
        assertTrue(lines.get(3).endsWith(",/board1/temp,23.50,°C,2350,2,true,board away"), lines.get(3));
    }

    @Test
    void everyPrintsOneSummaryPerIntervalOfTheCurrentValues() throws Exception {
        Path db = storeWithRows();
        Cli.Run r = Cli.run("history", "--db", db.toString(), "/board1/temp", "--since", "1h", "--every", "1h", "-F", "csv");
        assertEquals(0, r.code(), r.all());
        List<String> lines = r.out().lines().toList();
        assertEquals("ts,path,value,unit,min,mean,max,last,n", lines.get(0));
        assertTrue(lines.size() == 2 || lines.size() == 3, "one bucket, two when the hour turned between the rows: " + r.out());
        long n = lines.stream().skip(1).mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(',') + 1))).sum();
        assertEquals(2, n, "the stale mark is not a value of its own: " + r.out());
    }

    @Test
    void aMissingFileOrNoFileGivenIsOneLine() {
        Cli.Run r = Cli.run("history", "--db", dir.resolve("none.db").toString(), "/x");
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().startsWith("spectrum history: cannot read "), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        Cli.Run none = Cli.run("history", "/x");
        assertEquals(2, none.code(), none.all());
        assertTrue(none.err().contains("give the history file: --db FILE"), none.err());
    }

    /**
     * Without --every the rows are printed as they are read: a range whose rows would take several
     * times the heap prints whole in a JVM of 16 MB (read whole into a list first, it ran out of memory).
     */
    @Test
    void aRangeLargerThanTheHeapIsPrintedAsItIsRead() throws Exception {
        Path db = storeWithRows();
        int rows = 60_000;
        String text = "x".repeat(600); // held per row by a reader that keeps them all: ~40 MB of text
        long t0 = System.currentTimeMillis() - 30 * 60_000L;
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.setAutoCommit(false);
            long id;
            try (java.sql.Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("SELECT id FROM paths WHERE path = '/board1/temp'")) {
                rs.next();
                id = rs.getLong(1);
            }
            try (java.sql.PreparedStatement q = c.prepareStatement("INSERT INTO raw(path_id, t, value, exact, raw, unit, ucum, "
                    + "text, seq, stale, reason) VALUES (?,?,?,?,?,?,?,?,?,0,NULL)")) {
                for (int i = 0; i < rows; i++) {
                    q.setLong(1, id);
                    q.setLong(2, t0 + i);
                    q.setDouble(3, i);
                    q.setString(4, Integer.toString(i));
                    q.setString(5, Integer.toString(i));
                    q.setString(6, "°C");
                    q.setString(7, "Cel");
                    q.setString(8, text);
                    q.setLong(9, 100 + i);
                    q.addBatch();
                }
                q.executeBatch();
            }
            c.commit();
        }
        Cli.Run r = Cli.exec(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx16m",
                "-cp", Cli.mainClasspathOption(), "io.spectrum.cli.SpectrumCommand",
                "history", "--db", db.toString(), "/board1/temp", "--since", "1h", "--format", "csv"), java.util.Map.of(), dir);
        assertEquals(0, r.code(), r.out().length() > 2000 ? r.out().substring(0, 2000) : r.out());
        long printed = r.out().lines().filter(l -> l.contains("/board1/temp")).count();
        assertEquals(rows + 3, printed); // the three rows of storeWithRows too
    }
}
