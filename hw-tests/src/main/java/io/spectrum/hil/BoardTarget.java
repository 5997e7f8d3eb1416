package io.spectrum.hil;

import io.spectrum.link.Link;
import java.time.Duration;

/**
 * A board the conformance suite drives: a real one on a serial port, or an emulated one (a separate
 * board process behind a pseudo-terminal pair). The suite only talks to it through the {@link Link}
 * it opens, plus the reset line.
 */
public interface BoardTarget extends AutoCloseable {
    /** Short id used in report file names: "emulated", "emulated-aarch64", "ttyUSB0". */
    String name();

    /** One line for the report header: what the board is and how it is reached. */
    String describe();

    /**
     * Opens (on first call) and returns the host-side link to the board; later calls return the same
     * link. The link survives a {@link #reset()}: it is the board that restarts, not the host.
     */
    Link link() throws Exception;

    /** The board's peer handle on {@link #link()} (0 on a serial line). */
    default int peer() {
        return 0;
    }

    /** How long the suite waits for an answer; an emulated board under qemu is slower. */
    Duration timeout();

    /** True when this target has a reset line the suite may pulse. */
    boolean canReset();

    /**
     * Pulses the reset line. Returns once the pulse is done (the board may still be booting; a
     * scenario waits for it to answer).
     */
    void reset() throws Exception;

    /** True when raw bytes can be put on the serial line below the link's framing. */
    default boolean canInjectRawBytes() {
        return false;
    }

    /** Writes raw bytes onto the line towards the board, bypassing the link's framing. */
    default void injectRawBytes(byte[] bytes) throws Exception {
        throw new UnsupportedOperationException(name() + " cannot inject raw bytes");
    }

    /**
     * True when the suite can drive the board's declared input pins and read its output pins (an
     * emulated board on pi4j's mock platform; a real board would need a second Pi wired to it).
     */
    default boolean canDrivePins() {
        return false;
    }

    /** Drives the board's input pin {@code bcm} to a level, as a button or sensor wired to it would. */
    default void drivePin(int bcm, boolean high) throws Exception {
        throw new UnsupportedOperationException(name() + " cannot drive pins");
    }

    /** The level of the board's output pin {@code bcm}. */
    default boolean pinLevel(int bcm) throws Exception {
        throw new UnsupportedOperationException(name() + " cannot read pins");
    }

    /**
     * Why the board cannot answer at all right now (e.g. an emulated board's process exited), or
     * null. The suite fails a scenario at once with this reason instead of waiting out timeouts.
     */
    default String deadReason() {
        return null;
    }

    /** Extra facts for a failure message (e.g. the tail of an emulated board's log); may be empty. */
    default String diagnostics() {
        return "";
    }

    /** Closes the link and stops everything the target started. Never throws. */
    @Override
    void close();
}
