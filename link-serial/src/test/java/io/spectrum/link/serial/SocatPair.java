package io.spectrum.link.serial;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A socat pseudo-terminal pair ({@code ttyA <-> ttyB}) in a scratch folder: a fresh pair per test,
 * killed by its own process handle and its symlinks removed afterwards. {@link #restart()} kills it
 * and starts a new one under the same link names, as a re-plugged adapter would look.
 */
final class SocatPair implements AutoCloseable {
    final Path dir;
    final Path a;
    final Path b;
    private Process process;

    static boolean available() {
        for (String p : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(p, "socat"))) {
                return true;
            }
        }
        return false;
    }

    SocatPair(Path dir) throws IOException, InterruptedException {
        this.dir = dir;
        this.a = dir.resolve("ttyA");
        this.b = dir.resolve("ttyB");
        start();
    }

    private void start() throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("socat", "-d", "-d",
                "pty,raw,echo=0,link=" + a, "pty,raw,echo=0,link=" + b);
        pb.redirectErrorStream(true);
        pb.redirectOutput(dir.resolve("socat.log").toFile());
        process = pb.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!(Files.exists(a) && Files.exists(b))) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                close();
                throw new IOException("socat did not create " + a + " and " + b + ": "
                        + Files.readString(dir.resolve("socat.log")));
            }
            Thread.sleep(5);
        }
    }

    /** Kills socat (both pty ends vanish) without starting a new one. */
    void kill() throws InterruptedException, IOException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
            process = null;
        }
        Files.deleteIfExists(a);
        Files.deleteIfExists(b);
    }

    void restart() throws IOException, InterruptedException {
        kill();
        start();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        kill();
    }
}
