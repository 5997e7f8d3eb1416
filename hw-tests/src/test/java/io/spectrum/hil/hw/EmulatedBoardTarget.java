package io.spectrum.hil.hw;

import com.pi4j.io.gpio.digital.DigitalStateChangeEvent;
import io.spectrum.hil.BoardTarget;
import io.spectrum.hil.SerialBoardTarget;
import io.spectrum.link.serial.pty.PtyPair;
import io.spectrum.link.Link;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * An emulated board: a separate board process ({@code spectrum board --serial DIR/board --config
 * DIR/board.yaml}) behind a fresh pseudo-terminal pair ({@link PtyPair}), reached by the host through
 * the serial link on {@code DIR/host}. Its board file ({@link #BOARD_FILE}) declares the demo
 * vertices plus an input pin ({@link #BUTTON_PIN}) and an output pin ({@link #RELAY_PIN}) on pi4j's
 * mock platform, whose levels the suite drives and reads through the board's mock-pin files
 * ({@code DIR/pins/gpioN}).
 * Its reset line is a pi4j mock DigitalOutput; asserting it stops the board process and releasing it
 * starts a new one, as a real reset would. The host end, and so the host's link, stay up across a
 * reset. Closing stops the board and the pty pair (its devices hang up) and removes the pty links.
 */
public final class EmulatedBoardTarget implements BoardTarget {
    /** The emulated board's board file, a test resource of this module (in its test jar too). */
    public static final String BOARD_FILE = "/io/spectrum/hil/emulated-board.yaml";
    /** The declared input pin (BCM) and the declared output pin, as emulated-board.yaml has them. */
    public static final int BUTTON_PIN = 22;
    /** The declared output pin (BCM), driven by writes to {@code /board/relay}. */
    public static final int RELAY_PIN = 27;
    private final String name;
    private final BoardProcess launcher;
    private final Path dir;
    private final Path boardLog;
    private final PtyPair pair;
    private final Pi4jResetLine resetLine;
    private final SerialBoardTarget serial;
    private volatile Process board;
    private volatile int starts;
    private volatile boolean closing;
    private volatile boolean booting;
    private final Duration bootTime;
    private Thread bootThread;

    private EmulatedBoardTarget(String name, BoardProcess launcher, Path dir, Duration timeout)
            throws IOException, InterruptedException {
        this.name = name;
        this.dir = dir;
        this.boardLog = dir.resolve("board.log");
        Files.createDirectories(dir);
        Files.deleteIfExists(boardLog); // one log per run
        try (java.io.InputStream in = EmulatedBoardTarget.class.getResourceAsStream(BOARD_FILE)) {
            if (in == null) {
                throw new IOException(BOARD_FILE + " is missing from the hw-tests test classes");
            }
            Files.write(dir.resolve("board.yaml"), in.readAllBytes());
        }
        this.launcher = launcher.withBoardFile(dir.resolve("board.yaml"));
        this.pair = new PtyPair(dir.resolve("host"), dir.resolve("board"), dir.resolve("pty.log"));
        try {
            this.resetLine = Pi4jResetLine.mock(17);
            this.resetLine.addListener(this::onResetLine);
            this.serial = new SerialBoardTarget(name, pair.hostEnd().toString(), 115200, timeout, resetLine);
            // A reset board is gone for its boot time, as a Pi is; longer than the host link's peer
            // timeout, so the host sees the board leave (stale marks, edge eviction) and come back.
            this.bootTime = serial.peerTimeout().plusSeconds(1);
            startBoard();
        } catch (IOException | RuntimeException e) {
            pair.close();
            throw e;
        }
    }

    /**
     * Makes the pty pair and starts the board process in {@code dir} (created; one directory per target).
     *
     * @param timeout how long the suite waits for each answer (longer under qemu)
     */
    public static EmulatedBoardTarget start(String name, BoardProcess launcher, Path dir, Duration timeout)
            throws IOException, InterruptedException {
        return new EmulatedBoardTarget(name, launcher, dir, timeout);
    }

    private void onResetLine(DigitalStateChangeEvent<?> e) {
        if (closing) {
            return; // pi4j drives the line to its shutdown level on close: not a reset
        }
        try {
            if (resetLine.isActive(e.state())) {
                booting = true;
                Processes.stop(board);
                log("reset asserted: board process stopped");
            } else {
                log("reset released: board boots in " + bootTime.toMillis() + " ms");
                Thread t = new Thread(this::bootAfterDelay, "emulated-board-boot");
                t.setDaemon(true);
                bootThread = t;
                t.start();
            }
        } catch (RuntimeException ex) {
            log("reset failed: " + ex);
            throw ex;
        }
    }

    private void bootAfterDelay() {
        try {
            Thread.sleep(bootTime.toMillis());
            synchronized (this) {
                if (!closing) {
                    startBoard();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            log("cannot restart the emulated board: " + e);
        } finally {
            booting = false;
        }
    }

    /** How long a reset board stays away before its process starts again. */
    public Duration bootTime() {
        return bootTime;
    }

    /** Waits until a reset board's process has been started again (tests of the machinery). */
    public void awaitBooted() throws InterruptedException {
        Thread t = bootThread;
        if (t != null) {
            t.join();
        }
    }

    private synchronized void startBoard() throws IOException {
        starts++;
        log("starting board #" + starts + ": " + String.join(" ", launcher.command(pair.boardEnd(), "emu",
                dir.resolve("board-tmp"))));
        board = launcher.start(pair.boardEnd(), "emu", dir, boardLog);
    }

    private void log(String line) {
        try {
            Files.writeString(boardLog, "[hil] " + line + System.lineSeparator(), StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException ignored) {
            // the log is a diagnostic aid only
        }
    }

    /** How many times the board process was started (1 + resets). */
    public int starts() {
        return starts;
    }

    /** The current board process (a new one after each reset). */
    public Process boardProcess() {
        return board;
    }

    /** The board process's log, with the target's own {@code [hil]} lines. */
    public Path boardLog() {
        return boardLog;
    }

    /** The pseudo-terminal pair between the host end and the board. */
    public PtyPair pair() {
        return pair;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String describe() {
        return "emulated board (" + launcher.java() + ") on pty " + pair.boardEnd() + ", host end " + pair.hostEnd()
                + ", reset line " + resetLine.describe();
    }

    @Override
    public Link link() throws Exception {
        return serial.link();
    }

    @Override
    public Duration timeout() {
        return serial.timeout();
    }

    @Override
    public boolean canReset() {
        return true;
    }

    @Override
    public void reset() throws Exception {
        resetLine.pulse();
    }

    @Override
    public boolean canInjectRawBytes() {
        return true;
    }

    @Override
    public void injectRawBytes(byte[] bytes) throws Exception {
        serial.injectRawBytes(bytes);
    }

    @Override
    public boolean canDrivePins() {
        return true;
    }

    @Override
    public void drivePin(int bcm, boolean high) throws IOException {
        io.spectrum.board.io.MockPins.write(pins(bcm), high);
    }

    @Override
    public boolean pinLevel(int bcm) throws IOException {
        return "1".equals(io.spectrum.board.io.Sysfs.text(pins(bcm)));
    }

    private Path pins(int bcm) {
        return dir.resolve("pins").resolve("gpio" + bcm);
    }

    @Override
    public String deadReason() {
        Process p = board;
        if (p != null && !p.isAlive() && !closing && !booting) {
            return "the emulated board process exited with " + p.exitValue() + " (see " + boardLog + ")";
        }
        if (!pair.isAlive()) {
            return "the pty pair's relay stopped (see " + pair.log() + ")";
        }
        return null;
    }

    @Override
    public String diagnostics() {
        Process p = board;
        String state = p == null ? "not started" : p.isAlive() ? "running" : "exited with " + p.exitValue();
        return "board process " + state + "; pty relay " + (pair.isAlive() ? "running" : "stopped")
                + "; board log tail:\n" + tail(boardLog, 25);
    }

    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closing = true;
        }
        Thread t = bootThread;
        if (t != null) {
            t.interrupt();
        }
        Processes.stop(board);
        serial.close(); // closes the link and the reset line (pi4j context)
        pair.close();
    }
}
