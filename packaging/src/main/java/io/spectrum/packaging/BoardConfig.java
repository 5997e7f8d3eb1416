package io.spectrum.packaging;

/**
 * The settings written to a new {@code /etc/spectrum/board.conf}. Values are checked here so a
 * typo is refused on the host, not discovered by a service that will not start on the board.
 */
public record BoardConfig(String serialPort, int baud, String udp, String peer, String dtlsKey, String dtlsCa) {
    /** The Raspberry Pi's primary UART. */
    public static final String DEFAULT_SERIAL = "/dev/serial0";
    /** The serial line's default speed (8N1). */
    public static final int DEFAULT_BAUD = 115200;

    /** Serial on {@link #DEFAULT_SERIAL} at {@link #DEFAULT_BAUD}, no UDP, no DTLS. */
    public static BoardConfig defaults() {
        return new BoardConfig(DEFAULT_SERIAL, DEFAULT_BAUD, "", "");
    }

    /** A plain (no DTLS) config. */
    public BoardConfig(String serialPort, int baud, String udp, String peer) {
        this(serialPort, baud, udp, peer, "", "");
    }

    /** This config with DTLS on its UDP link, reading the key and CA the bundle installs ({@link BoardKeys}). */
    public BoardConfig withDtls() {
        if (!serialPort.isEmpty()) {
            throw new IllegalArgumentException("DTLS is for a UDP link (--udp or --peer), not the serial line");
        }
        return new BoardConfig(serialPort, baud, udp, peer, BoardKeys.keyOnBoard(), BoardKeys.caOnBoard());
    }

    /**
     * Turns nulls into "" and checks every value; {@link IllegalArgumentException} with a one-line fix for a bad
     * serial port, baud or HOST:PORT, or for anything but exactly one link.
     */
    public BoardConfig {
        dtlsKey = dtlsKey == null ? "" : dtlsKey;
        dtlsCa = dtlsCa == null ? "" : dtlsCa;
        serialPort = serialPort == null ? "" : serialPort;
        udp = udp == null ? "" : udp;
        peer = peer == null ? "" : peer;
        if (!serialPort.isEmpty() && (!serialPort.startsWith("/dev/") || serialPort.matches(".*[\\s\"'].*"))) {
            throw new IllegalArgumentException("serial port '" + serialPort + "' must be a device path such as /dev/serial0 or /dev/ttyUSB0");
        }
        if (baud <= 0) {
            throw new IllegalArgumentException("baud must be positive, e.g. 115200 (was " + baud + ")");
        }
        checkHostPort("--udp", udp);
        checkHostPort("--peer", peer);
        int links = (serialPort.isEmpty() ? 0 : 1) + (udp.isEmpty() ? 0 : 1) + (peer.isEmpty() ? 0 : 1);
        if (links != 1) {
            throw new IllegalArgumentException("the board needs exactly one link: --serial DEVICE (the default, "
                    + DEFAULT_SERIAL + "), --udp HOST:PORT or --peer HOST:PORT");
        }
    }

    private static void checkHostPort(String option, String value) {
        if (value.isEmpty()) {
            return;
        }
        int colon = value.lastIndexOf(':');
        boolean ok = colon > 0 && colon < value.length() - 1 && !value.matches(".*[\\s\"'].*");
        if (ok) {
            try {
                int port = Integer.parseInt(value.substring(colon + 1));
                ok = port >= 0 && port <= 65535;
            } catch (NumberFormatException e) {
                ok = false;
            }
        }
        if (!ok) {
            throw new IllegalArgumentException(option + " '" + value + "' must be HOST:PORT, e.g. 192.168.1.10:7700");
        }
    }

    /** The config file text: the template with the values filled in. */
    public String render(String template) {
        return template.replace("@SERIAL_PORT@", serialPort)
                .replace("@BAUD@", Integer.toString(baud))
                .replace("@UDP@", udp)
                .replace("@PEER@", peer)
                .replace("@DTLS_KEY@", dtlsKey)
                .replace("@DTLS_CA@", dtlsCa);
    }
}
