package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.link.dtls.DtlsCredentials;
import io.spectrum.link.dtls.DtlsLink;
import io.spectrum.link.local.LocalLink;
import io.spectrum.link.local.LocalLinkConfig;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.Clock;

import java.io.IOException;

/**
 * Opens the link a node process asked for with the shared options: {@code --udp HOST:PORT} (bind
 * and listen; a bare {@code :PORT} binds loopback), {@code --peer HOST:PORT} (dial),
 * {@code --serial DEVICE --baud N}, with the {@link LinkSettings} (liveness timers, frame size,
 * receive buffer). With DTLS credentials in the settings a UDP link is a {@link DtlsLink} (a
 * listener is the DTLS server, a dialer the client). A link named {@code tcp://HOST:PORT} is
 * libtracer's TCP transport ({@link #dial}, {@link #tcpListen}; docs/links.md, "TCP link"): this class
 * is the one owner of that spelling, every command opens links through it.
 */
public final class LinkSpec {
    /** {@code --ping}'s default: a quiet peer is probed after 1 s. */
    public static final long DEFAULT_PING_MILLIS = 1000;
    /** {@code --timeout}'s default: a silent peer is reported down after 5 s. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 5000;

    /** The scheme of a TCP link: {@code tcp://HOST:PORT} (libtracer's TCP transport). */
    public static final String TCP = "tcp://";

    private LinkSpec() {
    }

    /** Whether {@code link} names libtracer's TCP transport ({@code tcp://HOST:PORT}). */
    public static boolean isTcp(String link) {
        return link != null && link.regionMatches(true, 0, TCP, 0, TCP.length());
    }

    /**
     * Dials what a peer option names: {@code tcp://HOST:PORT} over libtracer's TCP transport, anything
     * else ({@code HOST:PORT}, {@code udp://HOST:PORT}) over UDP (DTLS with credentials in the settings).
     *
     * @throws IllegalArgumentException (one line) for an address that cannot be parsed
     * @throws IOException when the socket cannot be opened or (TCP) the connection is refused
     */
    public static Link dial(int id, String link, LinkSettings s, Clock clock) throws IOException {
        if (isTcp(link)) {
            return tcpDial(id, link.substring(TCP.length()), s, clock);
        }
        String hostPort = link.regionMatches(true, 0, "udp://", 0, 6) ? link.substring(6) : link;
        return udpDial(id, hostPort, s, clock);
    }

    /**
     * Connects to a libtracer node's (or a Spectrum host's) TCP listener at {@code hostPort}: frames
     * behind a u32 little-endian length, no hello sent. The connect itself blocks (a refused one
     * throws); a lost connection is not redialed.
     */
    public static Link tcpDial(int id, String hostPort, LinkSettings s, Clock clock) throws IOException {
        try {
            return LocalLink.connect(id, UdpLink.parseHostPort(hostPort), null, tcpConfig(s), clock);
        } catch (java.net.ConnectException e) {
            throw new java.net.ConnectException("tcp://" + hostPort + ": nothing accepts there (" + e.getMessage()
                    + "); is the node listening on TCP?");
        }
    }

    /**
     * Listens on {@code hostPort} for libtracer's TCP transport (a bare {@code :PORT} binds loopback):
     * each connection is one peer, up when connected, a Spectrum hello optional; {@code s.peers}
     * connections at once (0: {@link LinkSettings#DEFAULT_LISTEN_PEERS}).
     */
    public static Link tcpListen(int id, String hostPort, LinkSettings s, Clock clock) throws IOException {
        int peers = s.peers > 0 ? s.peers : LinkSettings.DEFAULT_LISTEN_PEERS;
        // handles within the connection capacity (a reused one has a higher generation), so a
        // QueuedLink sized to the link's peer table has a queue for every connection
        LocalLinkConfig c = tcpConfig(s).allowNonLoopback(true) // named like --udp: 0.0.0.0 exposes it on purpose
                .connectionCapacity(peers).handleSpace(peers);
        return LocalLink.listen(id, UdpLink.parseHostPort(isTcp(hostPort) ? hostPort.substring(TCP.length()) : hostPort),
                c, clock);
    }

    private static LocalLinkConfig tcpConfig(LinkSettings s) {
        LocalLinkConfig c = new LocalLinkConfig().helloRequired(false);
        if (s.frameBytes > 0) {
            c.maxFrame(Math.min(s.frameBytes, LocalLinkConfig.MAX_FRAME_CEILING));
        }
        return c;
    }

    /**
     * Binds a UDP listener on {@code hostPort} (a bare {@code :PORT} binds loopback), DTLS when the settings carry
     * credentials; an {@link IOException} when it cannot bind.
     */
    public static Link udpListen(int id, String hostPort, LinkSettings s, Clock clock) throws IOException {
        UdpLinkConfig c = udpConfig(s).peerCapacity(s.peers > 0 ? s.peers : LinkSettings.DEFAULT_LISTEN_PEERS);
        return s.dtls != null ? DtlsLink.listen(id, UdpLink.parseHostPort(hostPort), c, s.dtls, clock)
                : UdpLink.listen(id, UdpLink.parseHostPort(hostPort), c, clock);
    }

    /**
     * Dials the UDP (or, with credentials, DTLS) peer at {@code hostPort}; an {@link IOException} when the socket
     * cannot be opened.
     */
    public static Link udpDial(int id, String hostPort, LinkSettings s, Clock clock) throws IOException {
        return s.dtls != null ? DtlsLink.dial(id, UdpLink.parseHostPort(hostPort), udpConfig(s), s.dtls, clock)
                : UdpLink.dial(id, UdpLink.parseHostPort(hostPort), udpConfig(s), clock);
    }

    /**
     * The DTLS credentials the options name, or null when none is given (plain UDP): {@code key}
     * and {@code ca} files ({@code --dtls-key}, {@code --dtls-ca}; the certificate is the key's
     * {@code .crt} sibling), or a keys directory ({@code --dtls-keys DIR}: {@code DIR/NAME.key},
     * {@code DIR/ca.crt}). The revocation list {@code revoked.crl} beside the CA is read when present.
     *
     * @throws IllegalArgumentException (one line) when the options are incomplete or a file cannot be used
     */
    public static DtlsCredentials dtls(String key, String ca, String keysDir, String name) {
        if (key == null && ca == null && keysDir == null) {
            return null;
        }
        try {
            if (keysDir != null) {
                if (key != null || ca != null) {
                    throw new IllegalArgumentException("give --dtls-keys DIR, or --dtls-key and --dtls-ca, not both");
                }
                return DtlsCredentials.fromDir(java.nio.file.Path.of(keysDir), name);
            }
            if (key == null || ca == null) {
                throw new IllegalArgumentException("DTLS needs both --dtls-key FILE and --dtls-ca FILE (or --dtls-keys DIR)");
            }
            return DtlsCredentials.fromFiles(java.nio.file.Path.of(key), java.nio.file.Path.of(ca));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException("DTLS: " + e.getFile() + " does not exist (spectrum keys issue NAME makes it)");
        } catch (IOException e) {
            throw new IllegalArgumentException("DTLS: " + e.getMessage());
        }
    }

    /**
     * Opens a serial line. A device path that does not exist at start is refused (the caller prints
     * the reason and exits 2); once open, a device that goes away is reopened by the link.
     *
     * @throws IllegalArgumentException when {@code device} is a path that does not exist
     */
    public static Link serial(int id, String device, int baud, LinkSettings s, Clock clock) {
        if (device.startsWith("/") && !java.nio.file.Files.exists(java.nio.file.Path.of(device))) {
            throw new IllegalArgumentException("serial device " + device + " does not exist (is the board plugged in? "
                    + "ls /dev/ttyUSB* /dev/ttyACM* lists the ports)");
        }
        SerialLinkConfig c = new SerialLinkConfig().baud(baud)
                .pingIntervalMillis(s.pingMillis).peerTimeoutMillis(s.timeoutMillis)
                .reopenBackoffMillis(50, 1000);
        if (s.frameBytes > 0) {
            c.maxFrame(s.frameBytes);
        }
        return SerialLink.open(id, device, c, clock);
    }

    /** {@link #udpListen(int, String, LinkSettings, Clock)} with only the liveness timers set. */
    public static Link udpListen(int id, String hostPort, long pingMillis, long timeoutMillis, Clock clock)
            throws IOException {
        return udpListen(id, hostPort, timers(pingMillis, timeoutMillis), clock);
    }

    /** {@link #udpDial(int, String, LinkSettings, Clock)} with only the liveness timers set. */
    public static Link udpDial(int id, String hostPort, long pingMillis, long timeoutMillis, Clock clock)
            throws IOException {
        return udpDial(id, hostPort, timers(pingMillis, timeoutMillis), clock);
    }

    /** {@link #serial(int, String, int, LinkSettings, Clock)} with only the liveness timers set. */
    public static Link serial(int id, String device, int baud, long pingMillis, long timeoutMillis, Clock clock) {
        return serial(id, device, baud, timers(pingMillis, timeoutMillis), clock);
    }

    private static LinkSettings timers(long pingMillis, long timeoutMillis) {
        return new LinkSettings().pingMillis(pingMillis).timeoutMillis(timeoutMillis);
    }

    private static UdpLinkConfig udpConfig(LinkSettings s) {
        UdpLinkConfig c = new UdpLinkConfig().pingIntervalMillis(s.pingMillis).peerTimeoutMillis(s.timeoutMillis)
                .receiveBufferBytes(s.receiveBufferBytes);
        if (s.frameBytes > 0) {
            c.maxFrame(Math.min(s.frameBytes, UdpLinkConfig.MAX_DATAGRAM));
        }
        return c;
    }
}
