package io.spectrum.host.demo;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A socat pseudo-terminal pair: two symlinked pty ends ({@code <name>-host}, {@code <name>-board})
 * joined like a null-modem cable. Closing kills socat by its own handle and removes the links.
 */
public final class PtyPair implements AutoCloseable {
    private final Path hostEnd;
    private final Path boardEnd;
    private final Path log;
    private final Process socat;

    /** True when socat is on PATH. */
    public static boolean socatAvailable() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "socat"))) {
                return true;
            }
        }
        return false;
    }

    public PtyPair(Path dir, String name) throws IOException {
        hostEnd = dir.resolve(name + "-host");
        boardEnd = dir.resolve(name + "-board");
        log = dir.resolve(name + "-socat.log");
        socat = new ProcessBuilder("socat", "-d", "-d",
                "pty,raw,echo=0,link=" + hostEnd, "pty,raw,echo=0,link=" + boardEnd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try {
            while (!(Files.exists(hostEnd) && Files.exists(boardEnd))) {
                if (!socat.isAlive() || System.nanoTime() > deadline) {
                    String why = Files.exists(log) ? Files.readString(log).strip() : "";
                    close();
                    throw new IOException("socat did not create " + hostEnd + " and " + boardEnd
                            + (why.isEmpty() ? "" : ": " + why));
                }
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting socat");
        }
    }

    public Path hostEnd() {
        return hostEnd;
    }

    public Path boardEnd() {
        return boardEnd;
    }

    public long pid() {
        return socat.pid();
    }

    public boolean isAlive() {
        return socat.isAlive();
    }

    @Override
    public void close() {
        socat.destroy();
        try {
            if (!socat.waitFor(5, TimeUnit.SECONDS)) {
                socat.destroyForcibly();
                socat.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            socat.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(hostEnd);
            Files.deleteIfExists(boardEnd);
        } catch (IOException e) {
            // the links live in a temp dir that is removed anyway
        }
    }
}
