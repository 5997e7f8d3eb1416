package io.spectrum.host.history;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The history file's tables (one owner: the writer creates them, the reader reads them):
 * {@code paths} (id, path), {@code raw} (one row per value: path id, t in epoch ms, the value in its
 * unit or null (and exactly, as decimal text, with the declaration's decimals), the raw integer, unit, UCUM unit, the text, seq, stale, reason) and {@code minute}
 * (per path and minute: unit, min, mean, max, last, n), and {@code meta} (how far the minutes are summarised).
 * The file is in WAL mode, so a reader (the dashboard, {@code spectrum history}) never blocks the writer.
 */
final class HistorySchema {
    /** How long a statement waits for another process's lock before it fails (on the writer thread). */
    static final int BUSY_TIMEOUT_MS = 1000;

    private HistorySchema() { }

    /** The SQLite driver (org.xerial:sqlite-jdbc), by name: the host knows JDBC only. */
    private static Connection connect(Path file) throws SQLException {
        try {
            Class.forName("org.sqlite.JDBC");
        } catch (ClassNotFoundException e) {
            throw new SQLException("the SQLite driver (sqlite-jdbc) is not on the class path");
        }
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MS);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    static Connection openForWriting(Path file) throws SQLException {
        Connection c = connect(file);
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode = WAL");
            s.execute("PRAGMA synchronous = NORMAL");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS paths(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL)");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS raw(path_id INTEGER NOT NULL, t INTEGER NOT NULL, value REAL, "
                    + "exact TEXT, raw TEXT, unit TEXT, ucum TEXT, text TEXT NOT NULL, seq INTEGER NOT NULL, stale INTEGER NOT NULL, reason TEXT)");
            s.executeUpdate("CREATE INDEX IF NOT EXISTS raw_path_t ON raw(path_id, t)");
            s.executeUpdate("CREATE INDEX IF NOT EXISTS raw_t ON raw(t)");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS minute(path_id INTEGER NOT NULL, t INTEGER NOT NULL, unit TEXT, "
                    + "min REAL, mean REAL, max REAL, last REAL, n INTEGER, PRIMARY KEY(path_id, t)) WITHOUT ROWID");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v INTEGER)");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    static Connection openForReading(Path file) throws SQLException {
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new SQLException("no history file " + file + " (is the host run with --state-dir or --history?)");
        }
        Connection c = connect(file);
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA query_only = 1"); // a reader never writes the host's file
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }
}
