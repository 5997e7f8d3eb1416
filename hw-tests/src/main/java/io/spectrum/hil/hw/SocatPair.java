package io.spectrum.hil.hw;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A fresh pseudo-terminal pair from socat: {@code DIR/board} is the board's end, {@code DIR/host}
 * the host's. One pair per target, never reused, because stale bytes survive in socat's and the
 * pty's buffers after a writer dies (toolchain notes §1). Closing kills socat by its pid and removes
 * the links.
 */
public final class SocatPair implements AutoCloseable {
    private final Path dir;
    private final Process socat;
    private final Path log;

    private SocatPair(Path dir, Process socat, Path log) {
        this.dir = dir;
        this.socat = socat;
        this.log = log;
    }

    public static SocatPair start(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path board = dir.resolve("board");
        Path host = dir.resolve("host");
        Files.deleteIfExists(board);
        Files.deleteIfExists(host);
        Path log = dir.resolve("socat.log");
        Process p;
        try {
            p = new ProcessBuilder("socat", "-d", "-d",
                    "pty,raw,echo=0,link=" + board, "pty,raw,echo=0,link=" + host)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new IOException("cannot start socat (apt-get install socat): " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!(Files.exists(board) && Files.exists(host))) {
            if (!p.isAlive()) {
                throw new IOException("socat exited with " + p.exitValue() + ": " + Files.readString(log));
            }
            if (System.nanoTime() - deadline > 0) {
                p.destroyForcibly();
                throw new IOException("socat did not create " + board + " and " + host + " within 10 s");
            }
            Thread.sleep(10);
        }
        return new SocatPair(dir, p, log);
    }

    public Path boardEnd() {
        return dir.resolve("board");
    }

    public Path hostEnd() {
        return dir.resolve("host");
    }

    public boolean isAlive() {
        return socat.isAlive();
    }

    public Path log() {
        return log;
    }

    @Override
    public void close() {
        Processes.stop(socat);
        try {
            Files.deleteIfExists(boardEnd());
            Files.deleteIfExists(hostEnd());
        } catch (IOException ignored) {
            // the links point into /dev/pts; nothing else to clean
        }
    }
}
