package io.spectrum.board.io;

import com.pi4j.io.gpio.digital.DigitalInput;
import com.pi4j.io.gpio.digital.DigitalOutput;
import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalInput;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The mock platform's pins made reachable from another process (an emulated board under test): a
 * file {@code DIR/gpioN} per declared pin holding {@code 0} or {@code 1}. An input pin follows its
 * file (polled every 5 ms; a change is a mock edge, as a real edge would be); an output pin's state
 * is written to its file on every change. Only with {@code platform: mock} and {@code mock-pins: DIR}.
 */
public final class MockPins implements AutoCloseable {
    private static final long POLL_MILLIS = 5;
    private final Path dir;
    private final List<Watched> inputs = new CopyOnWriteArrayList<>();
    private Thread thread;
    private volatile boolean closed;

    /** Pins under {@code dir} (made when the first pin is opened). */
    public MockPins(Path dir) {
        this.dir = dir;
    }

    /** The file that mirrors BCM {@code pin} ({@code DIR/gpioN}). */
    public Path file(int pin) {
        return dir.resolve("gpio" + pin);
    }

    /** Drives {@code input} (a pi4j mock input) from its file, polled on {@code sleeper}'s time. */
    public synchronized void follow(int pin, DigitalInput input, io.spectrum.time.Sleeper sleeper) throws IOException {
        Files.createDirectories(dir);
        if (!(input instanceof MockDigitalInput mock)) {
            throw new IOException("mock-pins needs platform: mock (BCM " + pin + " is " + input.getClass().getSimpleName() + ")");
        }
        write(file(pin), input.isHigh());
        inputs.add(new Watched(file(pin), mock, input.isHigh()));
        if (thread == null) {
            thread = new Thread(() -> poll(sleeper), "mock-pins");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Mirrors {@code output}'s state into its file. */
    public void mirror(int pin, DigitalOutput output) throws IOException {
        Files.createDirectories(dir);
        Path f = file(pin);
        write(f, output.isHigh());
        output.addListener(e -> {
            try {
                write(f, e.state() == DigitalState.HIGH);
            } catch (IOException ex) {
                System.err.println("board: mock-pins: cannot write " + f + ": " + ex.getMessage());
            }
        });
    }

    private void poll(io.spectrum.time.Sleeper sleeper) {
        while (!closed) {
            for (Watched w : inputs) {
                try {
                    boolean high = "1".equals(Sysfs.text(w.file));
                    if (high != w.high) {
                        w.high = high;
                        w.input.mockState(high ? DigitalState.HIGH : DigitalState.LOW);
                    }
                } catch (IOException e) {
                    // mid-rename or removed: keep the last state
                }
            }
            try {
                sleeper.sleepNanos(POLL_MILLIS * 1_000_000L);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Writes a pin file atomically (a reader never sees it half-written). */
    public static void write(Path file, boolean high) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.write(tmp, (high ? "1" : "0").getBytes(StandardCharsets.US_ASCII));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void close() {
        closed = true;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    private static final class Watched {
        final Path file;
        final MockDigitalInput input;
        volatile boolean high;

        Watched(Path file, MockDigitalInput input, boolean high) {
            this.file = file;
            this.input = input;
            this.high = high;
        }
    }
}
