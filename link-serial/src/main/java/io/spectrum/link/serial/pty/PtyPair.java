package io.spectrum.link.serial.pty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Two pseudo-terminals joined like a null-modem cable, in this JVM (libc through JNA; Linux): their
 * slave devices are symlinked at {@code <name>-host} and {@code <name>-board} and a relay thread
 * copies the bytes between the masters. Both devices are raw and open fine with jSerialComm. Use a
 * fresh pair per board run, never a reused one: stale bytes survive in the ptys' buffers after a
 * writer dies. Closing stops the relay, closes the masters (every program holding a device sees it
 * hang up, as a vanished adapter) and removes the links. Used by the demo and by the emulated HIL
 * board (hw-tests). link-serial declares JNA optional: a user of this class (cli, hw-tests) declares
 * it too, and the board bundle carries neither JNA nor this package.
 */
public final class PtyPair implements AutoCloseable {
    private final Path hostEnd;
    private final Path boardEnd;
    private final Path log;
    private final Pty host;
    private final Pty board;
    private final PtyRelay relay;
    private boolean closed;

    /** True when a pair can be made here (Linux with JNA on the class path). */
    public static boolean available() {
        return unavailableReason() == null;
    }

    /** Why no pair can be made here, or null when one can. */
    public static String unavailableReason() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return "pseudo-terminal pairs are made on Linux only (this is " + System.getProperty("os.name") + ")";
        }
        try {
            return PtyLibc.C == null ? "libc not loaded" : null;
        } catch (LinkageError e) {
            return "JNA cannot load libc: " + e;
        }
    }

    /** A pair with the ends {@code dir/<name>-host} and {@code dir/<name>-board}. */
    public PtyPair(Path dir, String name) throws IOException {
        this(dir.resolve(name + "-host"), dir.resolve(name + "-board"), dir.resolve(name + "-pty.log"));
    }

    /**
     * A pair with the ends linked at exactly these paths (their directories are created if missing;
     * stale links there are replaced) and its log (which devices, why the relay stopped) in {@code log}.
     */
    public PtyPair(Path hostEnd, Path boardEnd, Path log) throws IOException {
        for (Path p : new Path[] {hostEnd, boardEnd, log}) {
            Path parent = p.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        }
        String why = unavailableReason();
        if (why != null) {
            throw new IOException("cannot make a pseudo-terminal pair: " + why);
        }
        this.hostEnd = hostEnd;
        this.boardEnd = boardEnd;
        this.log = log;
        Files.deleteIfExists(hostEnd);
        Files.deleteIfExists(boardEnd);
        Pty h = null;
        Pty b = null;
        PtyRelay r = null;
        try {
            h = Pty.open();
            b = Pty.open();
            Files.createSymbolicLink(hostEnd, Path.of(h.slavePath));
            Files.createSymbolicLink(boardEnd, Path.of(b.slavePath));
            log("host end " + hostEnd + " -> " + h.slavePath + ", board end " + boardEnd + " -> " + b.slavePath);
            r = new PtyRelay(h, b, hostEnd.getFileName().toString(), this::log);
        } catch (IOException | RuntimeException e) {
            if (h != null) {
                h.close();
            }
            if (b != null) {
                b.close();
            }
            Files.deleteIfExists(hostEnd);
            Files.deleteIfExists(boardEnd);
            throw e;
        }
        this.host = h;
        this.board = b;
        this.relay = r;
    }

    /** The {@code <name>-host} symlink to the host side's device; open it as a serial port. */
    public Path hostEnd() {
        return hostEnd;
    }

    /** The {@code <name>-board} symlink to the board side's device; open it as a serial port. */
    public Path boardEnd() {
        return boardEnd;
    }

    /** The pair's log: which /dev/pts devices it linked, and why its relay stopped. */
    public Path log() {
        return log;
    }

    /** True while the relay carries bytes (until closed, or until it stopped on an error it logged). */
    public boolean isAlive() {
        return relay.isAlive();
    }

    private void log(String line) {
        try {
            Files.writeString(log, line + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // the log is a diagnostic aid only
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (relay.stop()) {
            host.close();
            board.close();
        }
        try {
            Files.deleteIfExists(hostEnd);
            Files.deleteIfExists(boardEnd);
        } catch (IOException e) {
            // the links live in a temp dir that is removed anyway
        }
    }
}
