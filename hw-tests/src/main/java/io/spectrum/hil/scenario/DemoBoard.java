package io.spectrum.hil.scenario;

import io.spectrum.wire.Names;

/**
 * The vertices every Spectrum board serves (the demo set of {@code spectrum board}); the suite
 * reads and writes only these, so a real board running the stock firmware passes the same suite.
 */
public final class DemoBoard {
    /** A sensor-like value the board publishes periodically. */
    public static final String TEMP = "/temp";
    /** A counter the board bumps and publishes periodically. */
    public static final String COUNTER = "/counter";
    /** A value a remote peer may write (nothing else writes it). */
    public static final String LED = "/led";
    /** A declared GPIO input (BCM {@link #BUTTON_PIN}) of the emulated board, published on each edge. */
    public static final String BUTTON = "/button";
    /** Its edge counter. */
    public static final String BUTTON_EDGES = "/button-edges";
    /** The button's input pin (BCM) on the emulated board. */
    public static final int BUTTON_PIN = 22;
    /** A declared GPIO output (BCM {@link #RELAY_PIN}) of the emulated board, driven by writes. */
    public static final String RELAY = "/relay";
    /** The relay pin's state as read back. */
    public static final String RELAY_STATE = "/relay/state";
    /** The relay's output pin (BCM) on the emulated board. */
    public static final int RELAY_PIN = 27;
    /** The capability map a peer reads in its liveness ping (node-reserved "$" name). */
    public static final String CAPS = Names.CAPS_PATH;

    private DemoBoard() {
    }
}
