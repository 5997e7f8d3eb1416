package io.spectrum.host.history;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * The history database's tables and the SQL that differs between its two dialects (one owner: the
 * writer creates the tables, the writer and the reader ask here for the statements that differ).
 *
 * <p>Tables: {@code paths} (id, path), {@code raw} (one row per value: path id, t in epoch ms, the
 * value in its unit or null (and exactly, as decimal text, with the declaration's decimals), the raw
 * integer, unit, UCUM unit, the text, seq, stale, reason), {@code minute} (per path and minute: unit,
 * min, mean, max, last, n) and {@code meta} (how far the minutes are summarised).
 *
 * <p>SQLite (a file, one host's): WAL mode, so a reader (the dashboard, {@code spectrum history})
 * never blocks the writer. PostgreSQL (a server several hosts write to): {@code paths} and
 * {@code meta} also have a {@code host} column (the host's name), so two hosts' {@code /board1/temp}
 * are two paths; every statement here sees only this host's paths and what hangs off them, so
 * summarising, retention and reading are per host. {@code raw} has an {@code id} (bigserial) for the
 * order of rows of one instant, where SQLite has its {@code rowid}.
 */
final class HistorySchema {
    /** How long a statement waits for another process's lock before it fails (on the writer thread). */
    static final int BUSY_TIMEOUT_MS = 1000;
    /** How long connecting to a server may take, and a statement's answer, before it counts as failed (s). */
    static final int CONNECT_TIMEOUT_S = 5;
    static final int SOCKET_TIMEOUT_S = 30;

    private final HistorySettings settings;
    private final boolean server;
    /** The host's name as an SQL string literal (a server's rows; quotes doubled, the session's strings standard). */
    private final String host;

    private HistorySchema(HistorySettings settings) {
        this.settings = settings;
        this.server = settings.server() != null;
        this.host = "'" + settings.host().replace("'", "''") + "'";
    }

    static HistorySchema of(HistorySettings settings) {
        return new HistorySchema(settings);
    }

    /** Whether the history is on a server (a lost connection is reopened, not retried on). */
    boolean server() {
        return server;
    }

    // ------------------------------------------------------------------ connections

    /** A driver by name: the host knows JDBC only. */
    private static void driver(String className, String what) throws SQLException {
        try {
            Class.forName(className);
        } catch (ClassNotFoundException e) {
            throw new SQLException("the " + what + " driver is not on the class path");
        }
    }

    private Connection connect() throws SQLException {
        if (server) {
            driver("org.postgresql.Driver", "PostgreSQL (org.postgresql:postgresql)");
            HistoryServer s = settings.server();
            Properties p = new Properties();
            if (s.username() != null) {
                p.setProperty("user", s.username());
            }
            if (s.password() != null) {
                p.setProperty("password", s.password());
            }
            p.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_S));
            p.setProperty("loginTimeout", Integer.toString(CONNECT_TIMEOUT_S));
            p.setProperty("socketTimeout", Integer.toString(SOCKET_TIMEOUT_S));
            p.setProperty("tcpKeepAlive", "true");
            p.setProperty("ApplicationName", "spectrum history " + settings.host());
            Connection c = DriverManager.getConnection(s.jdbcUrl(), p);
            try (Statement st = c.createStatement()) {
                st.execute("SET standard_conforming_strings = on"); // the host's name literal: '' is its only escape
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            return c;
        }
        driver("org.sqlite.JDBC", "SQLite (sqlite-jdbc)");
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + settings.file().toAbsolutePath());
        try (Statement st = c.createStatement()) {
            st.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MS);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    Connection openForWriting() throws SQLException {
        Connection c = connect();
        try (Statement s = c.createStatement()) {
            if (server) {
                // several hosts may start at once: one creates the tables at a time
                c.setAutoCommit(false);
                s.execute("SELECT pg_advisory_xact_lock(7230517)");
                s.executeUpdate("CREATE TABLE IF NOT EXISTS paths(id BIGSERIAL PRIMARY KEY, host TEXT NOT NULL, "
                        + "path TEXT NOT NULL, UNIQUE(host, path))");
                s.executeUpdate("CREATE TABLE IF NOT EXISTS raw(id BIGSERIAL, path_id BIGINT NOT NULL, t BIGINT NOT NULL, "
                        + "value DOUBLE PRECISION, exact TEXT, raw TEXT, unit TEXT, ucum TEXT, text TEXT NOT NULL, "
                        + "seq BIGINT NOT NULL, stale INTEGER NOT NULL, reason TEXT)");
                s.executeUpdate("CREATE TABLE IF NOT EXISTS minute(path_id BIGINT NOT NULL, t BIGINT NOT NULL, unit TEXT, "
                        + "min DOUBLE PRECISION, mean DOUBLE PRECISION, max DOUBLE PRECISION, last DOUBLE PRECISION, "
                        + "n BIGINT, PRIMARY KEY(path_id, t))");
                s.executeUpdate("CREATE TABLE IF NOT EXISTS meta(host TEXT NOT NULL, k TEXT NOT NULL, v BIGINT, "
                        + "PRIMARY KEY(host, k))");
                s.executeUpdate("CREATE INDEX IF NOT EXISTS raw_path_t ON raw(path_id, t)");
                s.executeUpdate("CREATE INDEX IF NOT EXISTS raw_t ON raw(t)");
                c.commit();
                return c;
            }
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

    /** Whether the rows are on a PostgreSQL server rather than in a file. */
    boolean isServer() {
        return server;
    }

    Connection openForReading() throws SQLException {
        if (!server && !java.nio.file.Files.isRegularFile(settings.file())) {
            throw new SQLException("no history file " + settings.file() + " (is the host run with --state-dir or --history?)");
        }
        Connection c = connect();
        try (Statement s = c.createStatement()) {
            if (server) {
                c.setReadOnly(true); // a reader never writes the hosts' tables
            } else {
                s.execute("PRAGMA query_only = 1"); // a reader never writes the host's file
            }
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    // ------------------------------------------------------------------ statements that differ

    /** This host's paths as a table expression with columns id and path: {@code FROM } + this + {@code  p}. */
    String paths() {
        return server ? "(SELECT id, path FROM paths WHERE host = " + host + ")" : "paths";
    }

    /** Adds a path of this host's unless it is there (one parameter: the path). */
    String insertPath() {
        return server ? "INSERT INTO paths(host, path) VALUES (" + host + ", ?) ON CONFLICT DO NOTHING"
                : "INSERT OR IGNORE INTO paths(path) VALUES (?)";
    }

    /** A condition on a {@code raw} or {@code minute} row's {@code path_id}: one of this host's paths ({@code AND …}, or nothing). */
    String andMine() {
        return server ? " AND path_id IN (SELECT id FROM paths WHERE host = " + host + ")" : "";
    }

    /** The column that orders the raw rows of one instant as they were written. */
    String order() {
        return server ? "id" : "rowid";
    }

    /** The summaries' mark for this host: one long column. */
    String rolledUntil() {
        return "SELECT v FROM meta WHERE k = 'rolled_until'" + (server ? " AND host = " + host : "");
    }

    /** Sets the mark (one parameter). */
    String setRolledUntil() {
        return server ? "INSERT INTO meta(host, k, v) VALUES (" + host + ", 'rolled_until', ?) "
                + "ON CONFLICT (host, k) DO UPDATE SET v = excluded.v"
                : "INSERT OR REPLACE INTO meta(k, v) VALUES ('rolled_until', ?)";
    }

    /** Writes a minute's summary, replacing one there (path_id, t, unit, min, mean, max, last, n). */
    String putMinute() {
        return server ? "INSERT INTO minute(path_id, t, unit, min, mean, max, last, n) VALUES (?,?,?,?,?,?,?,?) "
                + "ON CONFLICT (path_id, t) DO UPDATE SET unit = excluded.unit, min = excluded.min, mean = excluded.mean, "
                + "max = excluded.max, last = excluded.last, n = excluded.n"
                : "INSERT OR REPLACE INTO minute(path_id, t, unit, min, mean, max, last, n) VALUES (?,?,?,?,?,?,?,?)";
    }
}
