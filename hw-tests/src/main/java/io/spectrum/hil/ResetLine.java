package io.spectrum.hil;

/**
 * The board's reset line. The hw-tests module implements it with a pi4j DigitalOutput (the mock
 * platform by default); the board application and the host stay free of GPIO libraries.
 */
public interface ResetLine extends AutoCloseable {
    /** Drives the line active then inactive again (one reset pulse). */
    void pulse() throws Exception;

    /** What the line is, for the report: "BCM 17 (pi4j mock)". */
    String describe();

    @Override
    default void close() {
    }
}
