package io.spectrum.link.serial;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A socat pseudo-terminal pair: two symlinked pty ends ({@code <name>-host}, {@code <name>-board})
 * joined like a null-modem cable. Use a fresh pair per board run, never a reused one: stale bytes
 * survive in socat's and the pty's buffers after a writer dies. Closing kills socat by its own handle
 * and removes the links. Used by the demo and by the emulated HIL board (hw-tests).
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

    /** Starts socat with the ends {@code dir/<name>-host} and {@code dir/<name>-board}. */
    public PtyPair(Path dir, String name) throws IOException {
        this(dir.resolve(name + "-host"), dir.resolve(name + "-board"), dir.resolve(name + "-socat.log"));
    }

    /**
     * Starts socat with the ends linked at exactly these paths (their directories are created if
     * missing; stale links there are replaced) and its log in {@code log}.
     */
    public PtyPair(Path hostEnd, Path boardEnd, Path log) throws IOException {
        for (Path p : new Path[] {hostEnd, boardEnd, log}) {
            Path parent = p.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        }
        this.hostEnd = hostEnd;
        this.boardEnd = boardEnd;
        this.log = log;
        Files.deleteIfExists(hostEnd);
        Files.deleteIfExists(boardEnd);
        try {
            socat = new ProcessBuilder("socat", "-d", "-d",
                    "pty,raw,echo=0,link=" + hostEnd, "pty,raw,echo=0,link=" + boardEnd)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new IOException("cannot start socat (apt-get install socat): " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try {
            while (!(Files.exists(hostEnd) && Files.exists(boardEnd))) {
                if (!socat.isAlive() || System.nanoTime() - deadline > 0) {
                    String how = socat.isAlive() ? " within 10 s" : " (socat exited with " + socat.exitValue() + ")";
                    String why = Files.exists(log) ? Files.readString(log).strip() : "";
                    close();
                    throw new IOException("socat did not create " + hostEnd + " and " + boardEnd + how
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

    /** socat's own log ({@code -d -d}): which /dev/pts it opened, and why it stopped. */
    public Path log() {
        return log;
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
