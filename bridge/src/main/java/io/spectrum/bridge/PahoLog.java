package io.spectrum.bridge;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Paho's own logging (java.util.logging under {@code org.eclipse.paho.mqttv5.client}) is turned
 * off: when a broker goes away mid-write Paho logs SEVERE with a stack trace, and the bridge
 * already says what happened in one line ("mqtt: lost …; reconnecting"). A JVM started with
 * {@code -Djava.util.logging.config.file=…} keeps whatever that file sets, for debugging Paho.
 */
final class PahoLog {
    static final String ROOT = "org.eclipse.paho.mqttv5.client";
    /** Held so that the level stays (java.util.logging keeps loggers only weakly). */
    private static final Logger PAHO = Logger.getLogger(ROOT);

    static {
        if (System.getProperty("java.util.logging.config.file") == null) {
            PAHO.setLevel(Level.OFF);
        }
    }

    private PahoLog() {
    }

    /** Called before an MQTT client is made; the work is done once, when this class loads. */
    static void quiet() {
        // loading the class ran the static block
    }
}
