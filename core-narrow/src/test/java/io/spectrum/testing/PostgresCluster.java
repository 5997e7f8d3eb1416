package io.spectrum.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private PostgreSQL server for a test (the host's history on a server, docs/host.md "History"): a cluster made by {@code initdb} in a temporary directory
 * (trust authentication, user {@code postgres}), listening on 127.0.0.1 on a free port with its
 * socket in that directory. PostgreSQL refuses to run as root, so under root the cluster belongs to
 * {@code nobody} and its programs run through {@code runuser}. Started and stopped with
 * {@code pg_ctl} on this cluster's data directory only; {@link #close} stops it and deletes the
 * directory. Where PostgreSQL is not installed the calling test is skipped, naming it
 * ({@link Tools#skipUnlessCi}).
 */
public final class PostgresCluster implements AutoCloseable {
    private final Path bin;
    private final Path dir;
    private final Path data;
    private final int port;
    private final boolean asNobody;

    private PostgresCluster(Path bin, Path dir, int port, boolean asNobody) {
        this.bin = bin;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
        this.asNobody = asNobody;
    }

    /** The directory of {@code initdb}, {@code pg_ctl} and {@code postgres}, or the test is skipped. */
    private static Path bin() throws IOException {
        List<Path> found = new ArrayList<>();
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("postgres"))).forEach(found::add);
        } catch (IOException ignored) {
            // not Debian's layout: look on PATH
        }
        found.sort(Comparator.reverseOrder());
        if (!found.isEmpty()) {
            return found.get(0);
        }
        Path initdb = Tools.onPath("initdb");
        if (initdb != null) {
            Path b = initdb.toRealPath().getParent();
            if (Files.isExecutable(b.resolve("pg_ctl")) && Files.isExecutable(b.resolve("postgres"))) {
                return b;
            }
        }
        Tools.skipUnlessCi("PostgreSQL (initdb, pg_ctl, postgres) not installed: the history's PostgreSQL store is tested "
                + "against a real server (apt-get install postgresql; .ci/run installs it)");
        return null;
    }

    /** Makes the cluster and starts the server. */
    public static PostgresCluster start() throws Exception {
        Path bin = bin();
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory("spectrum-pg");
        if (root) {
            UserPrincipal nobody = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
            Files.setOwner(dir, nobody);
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        PostgresCluster c = new PostgresCluster(bin, dir, port, root);
        try {
            c.run("initdb", "-D", c.data.toString(), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-locale", "--no-sync");
            c.startServer();
            return c;
        } catch (Exception | AssertionError e) {
            c.close();
            throw e;
        }
    }

    /** The server's URL for a database. */
    public String url(String database) {
        return "postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** The JDBC URL, for the test's own checks. */
    public String jdbc(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=postgres";
    }

    /** Starts the server (waits until it accepts connections). */
    public void startServer() throws Exception {
        run("pg_ctl", "-D", data.toString(), "-l", dir.resolve("server.log").toString(), "-w", "-t", "30",
                "-o", "-p " + port + " -c listen_addresses=127.0.0.1 -k " + dir + " -c fsync=off", "start");
    }

    /** Stops the server (fast: open sessions are ended), waiting until it is gone. */
    public void stopServer() throws Exception {
        run("pg_ctl", "-D", data.toString(), "-m", "fast", "-w", "-t", "30", "stop");
    }

    private void run(String program, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        if (asNobody) {
            cmd.addAll(List.of("runuser", "-u", "nobody", "--"));
        }
        cmd.add(bin.resolve(program).toString());
        cmd.addAll(List.of(args));
        Path log = dir.resolve(program + ".out");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!p.waitFor(45, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(program + " did not finish in 45 s: " + Files.readString(log));
        }
        if (p.exitValue() != 0) {
            String server = Files.exists(dir.resolve("server.log")) ? Files.readString(dir.resolve("server.log")) : "";
            throw new AssertionError(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + Files.readString(log) + server);
        }
    }

    /** Stops the server if it runs (this cluster's only) and deletes the directory. */
    @Override
    public void close() throws Exception {
        try {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                run("pg_ctl", "-D", data.toString(), "-m", "immediate", "-w", "-t", "30", "stop");
            }
        } finally {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
