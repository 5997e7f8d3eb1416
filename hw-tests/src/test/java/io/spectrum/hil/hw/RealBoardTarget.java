package io.spectrum.hil.hw;

import io.spectrum.hil.ResetLine;
import io.spectrum.hil.SerialBoardTarget;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real board on a serial port, configured by system properties:
 * {@code -Dspectrum.hil.port=/dev/ttyUSB0} (required), {@code -Dspectrum.hil.baud=115200},
 * {@code -Dspectrum.hil.resetPin=BCM} (optional; the reset line through pi4j),
 * {@code -Dspectrum.hil.resetActiveLow=true}, {@code -Dspectrum.hil.timeoutMs=5000}.
 */
public final class RealBoardTarget {
    /** The system property naming the board's serial port. */
    public static final String PORT = "spectrum.hil.port";

    private RealBoardTarget() {
    }

    /** True when a real board was named on the command line. */
    public static boolean configured() {
        String p = System.getProperty(PORT);
        return p != null && !p.isBlank();
    }

    /** The target the system properties describe; {@link IllegalStateException} when {@link #PORT} is not set. */
    public static SerialBoardTarget fromSystemProperties() {
        String port = System.getProperty(PORT);
        if (port == null || port.isBlank()) {
            throw new IllegalStateException("set -D" + PORT + "=/dev/ttyUSB0 to run the suite against a real board");
        }
        int baud = Integer.getInteger("spectrum.hil.baud", 115200);
        long timeoutMs = Long.getLong("spectrum.hil.timeoutMs", 5000L);
        Integer pin = Integer.getInteger("spectrum.hil.resetPin");
        ResetLine reset = null;
        if (pin != null) {
            boolean activeLow = Boolean.parseBoolean(System.getProperty("spectrum.hil.resetActiveLow", "true"));
            reset = Pi4jResetLine.auto(pin, activeLow, Integer.getInteger("spectrum.hil.resetPulseMs", 100));
        }
        String name = Path.of(port).getFileName().toString();
        return new SerialBoardTarget(name, port, baud, Duration.ofMillis(timeoutMs), reset);
    }
}
