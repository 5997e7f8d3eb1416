package io.spectrum.board.app;

import com.pi4j.context.Context;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.Clock;
import io.spectrum.time.Sleeper;

/**
 * What a {@link BoardApp} sees of its board. Everything it registers runs on the node's single
 * thread, so an app needs no locks: {@link #every} work, {@link AppVertex#onWrite} handlers and
 * {@link Signal} work. Publishing ({@link AppVertex#publish}) is allowed only from there; another
 * thread (a pi4j listener) hands over with a {@link Signal}.
 */
public interface BoardContext {
    /** The board's name ({@code --name}). */
    String name();

    /**
     * Declares a vertex: what it holds, its unit and scale and whether peers may write it. A second
     * declaration of the same path, a bad path or a declaration the node refuses throws
     * {@link IllegalArgumentException} naming it (start-up only). The path is relative to the board,
     * like a board file's: {@code /thermostat/temp} is a host's {@code /board1/thermostat/temp}; it
     * does not repeat the board's name.
     */
    AppVertex declare(String path, VertexSchema schema);

    /** Runs {@code work} on the node's loop every {@code periodMillis} (the first run one period from now). */
    void every(long periodMillis, Runnable work);

    /**
     * A handle any thread may {@link Signal#raise} (allocation-free when already raised) to have
     * {@code work} run once on the node's loop.
     */
    Signal signal(Runnable work);

    /** The board's pi4j context (the Pi's GPIO, I2C and PWM, or pi4j's mock platform). */
    Context pi4j();

    /**
     * A setting of this app from the board file ({@code apps: - class: ... settings: {key: value}}),
     * or {@code fallback} when it is not given.
     */
    String setting(String key, String fallback);

    /** Where the kernel's {@code /sys} is (a test points it at fake files). */
    java.nio.file.Path sys();

    /** Where the kernel's {@code /proc} is. */
    java.nio.file.Path proc();

    /**
     * The board's clock, the one its loop runs on: read time here rather than from the system, so the
     * board's timing (a debounce, a period) runs on a test's {@code ManualClock}.
     */
    Clock clock();

    /**
     * How a thread of the app's own (a source that blocks on a command or a file) waits between
     * reads, by the board's clock. Work on the loop is timed with {@link #every} instead.
     */
    Sleeper sleeper();
}
