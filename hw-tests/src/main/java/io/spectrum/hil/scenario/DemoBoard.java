package io.spectrum.hil.scenario;

import io.spectrum.wire.Names;

/**
 * The vertices every Spectrum board serves (the demo set of {@code spectrum board}); the suite
 * reads and writes only these, so a real board running the stock firmware passes the same suite.
 */
public final class DemoBoard {
    /** A sensor-like value the board publishes periodically. */
    public static final String TEMP = "/board/temp";
    /** A counter the board bumps and publishes periodically. */
    public static final String COUNTER = "/board/counter";
    /** A value a remote peer may write (nothing else writes it). */
    public static final String LED = "/board/led";
    /** The capability map a peer reads in its liveness ping (node-reserved "$" name). */
    public static final String CAPS = Names.CAPS_PATH;

    private DemoBoard() {
    }
}
