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
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The transports the link factory ({@link LinkSpec}) opens, registered in one explicit list,
 * {@link #ALL}: a new transport is its module (the link class) plus one {@link LinkScheme} here
 * and its entry in the list. Only this class and the transports' own modules construct a concrete
 * link (checked by {@code LinkConstructionTest}).
 */
public final class LinkTransports {
    /** Every registered transport, in the order the refusals list them. */
    public static final List<LinkScheme> ALL = List.of(new Udp(), new Dtls(), new Tcp(), new Unix(), new Serial());

    private LinkTransports() {
    }

    /** The transport for {@code scheme} (lower case), or null. */
    static LinkScheme find(String scheme) {
        for (LinkScheme t : ALL) {
            if (t.scheme().equals(scheme)) {
                return t;
            }
        }
        return null;
    }

    /** Every transport's example, for a refusal: "udp://127.0.0.1:7700, dtls://…". */
    static String examples() {
        return ALL.stream().map(LinkScheme::example).collect(Collectors.joining(", "));
    }

    private static InetSocketAddress hostPort(LinkSpec.Uri uri) {
        try {
            return UdpLink.parseHostPort(uri.address());
        } catch (IllegalArgumentException e) {
            throw uri.refuse(e.getMessage());
        }
    }

    private static UdpLinkConfig udpConfig(LinkSettings s) {
        UdpLinkConfig c = new UdpLinkConfig().pingIntervalMillis(s.pingMillis).peerTimeoutMillis(s.timeoutMillis)
                .receiveBufferBytes(s.receiveBufferBytes);
        if (s.frameBytes > 0) {
            c.maxFrame(Math.min(s.frameBytes, UdpLinkConfig.MAX_DATAGRAM));
        }
        if (s.batch >= 0 && UdpLinkConfig.DEFAULT_BATCH > 0) { // the process-wide off switch wins
            c.batch(s.batch);
        }
        return c;
    }

    private static Link udp(int id, InetSocketAddress at, LinkSpec.Role role, LinkSettings s, DtlsCredentials dtls,
                            Clock clock) throws IOException {
        if (role == LinkSpec.Role.LISTEN) {
            UdpLinkConfig c = udpConfig(s).peerCapacity(s.peers > 0 ? s.peers : LinkSettings.DEFAULT_LISTEN_PEERS);
            return dtls != null ? DtlsLink.listen(id, at, c, dtls, clock) : UdpLink.listen(id, at, c, clock);
        }
        return dtls != null ? DtlsLink.dial(id, at, udpConfig(s), dtls, clock) : UdpLink.dial(id, at, udpConfig(s), clock);
    }

    private static LocalLinkConfig streamConfig(LinkSettings s, boolean hello) {
        LocalLinkConfig c = new LocalLinkConfig().helloRequired(hello);
        if (s.frameBytes > 0) {
            c.maxFrame(Math.min(s.frameBytes, LocalLinkConfig.MAX_FRAME_CEILING));
        }
        return c;
    }

    /**
     * {@code udp://HOST:PORT}: a listener (peers learned from their datagrams) or a dialer; a bare
     * {@code :PORT} is loopback. With DTLS credentials in the settings it is a DTLS link, as
     * {@code --udp} and {@code --peer} with {@code --dtls-*} have always been.
     */
    static final class Udp implements LinkScheme {
        @Override
        public String scheme() {
            return "udp";
        }

        @Override
        public String example() {
            return "udp://127.0.0.1:7700";
        }

        @Override
        public Set<String> params() {
            return Set.of();
        }

        @Override
        public Link open(int id, LinkSpec.Uri uri, LinkSpec.Role role, LinkSettings s, Clock clock) throws IOException {
            return udp(id, hostPort(uri), role, s, s.dtls, clock);
        }
    }

    /**
     * {@code dtls://HOST:PORT}: DTLS on UDP, always. The credentials are the URI's ({@code ?keys=DIR}
     * with {@code &name=NAME} or the settings' name; or {@code ?key=FILE&ca=FILE}), else the
     * settings' ({@code --dtls-*}); without either it is refused.
     */
    static final class Dtls implements LinkScheme {
        @Override
        public String scheme() {
            return "dtls";
        }

        @Override
        public String example() {
            return "dtls://127.0.0.1:7700?keys=DIR&name=NAME";
        }

        @Override
        public Set<String> params() {
            return Set.of("keys", "name", "key", "ca");
        }

        @Override
        public Link open(int id, LinkSpec.Uri uri, LinkSpec.Role role, LinkSettings s, Clock clock) throws IOException {
            InetSocketAddress at = hostPort(uri);
            DtlsCredentials creds = s.dtls;
            String keys = uri.param("keys", null);
            String key = uri.param("key", null);
            String ca = uri.param("ca", null);
            if (keys != null || key != null || ca != null) {
                String name = uri.param("name", s.name);
                if (keys != null && name == null) {
                    throw uri.refuse("?keys=DIR needs &name=NAME (the key is DIR/NAME.key)");
                }
                try {
                    creds = LinkSpec.dtls(key, ca, keys, name);
                } catch (IllegalArgumentException e) {
                    throw uri.refuse(e.getMessage().replace("--dtls-keys", "?keys=").replace("--dtls-key", "?key=")
                            .replace("--dtls-ca", "&ca="));
                }
            } else if (creds == null) {
                throw uri.refuse("DTLS needs this node's key: add ?keys=DIR&name=NAME or ?key=FILE&ca=FILE "
                        + "(or give --dtls-keys DIR)");
            }
            return udp(id, at, role, s, creds, clock);
        }
    }

    /**
     * {@code tcp://HOST:PORT}: libtracer's TCP transport, the local link's framing without the hello
     * (docs/links.md, "TCP link"); with {@link LinkSettings#helloRequired} the host bus's TCP socket.
     */
    static final class Tcp implements LinkScheme {
        @Override
        public String scheme() {
            return "tcp";
        }

        @Override
        public String example() {
            return "tcp://127.0.0.1:7702";
        }

        @Override
        public Set<String> params() {
            return Set.of();
        }

        @Override
        public Link open(int id, LinkSpec.Uri uri, LinkSpec.Role role, LinkSettings s, Clock clock) throws IOException {
            InetSocketAddress at = hostPort(uri);
            LocalLinkConfig c = streamConfig(s, s.helloRequired);
            if (role == LinkSpec.Role.LISTEN) {
                if (!s.helloRequired) {
                    // handles within the connection capacity (a reused one has a higher generation), so a
                    // QueuedLink sized to the link's peer table has a queue for every connection
                    int peers = s.peers > 0 ? s.peers : LinkSettings.DEFAULT_LISTEN_PEERS;
                    c.connectionCapacity(peers).handleSpace(peers);
                } else if (s.peers > 0) {
                    c.connectionCapacity(s.peers); // the host bus's connections at once (its maxClients)
                }
                return LocalLink.listen(id, at, c.allowNonLoopback(s.allowRemote), clock);
            }
            try {
                return LocalLink.connect(id, at, s.helloRequired ? s.name : null, c, clock);
            } catch (ConnectException e) {
                throw new ConnectException("tcp://" + uri.address() + ": nothing accepts there (" + e.getMessage()
                        + "); is the node listening on TCP?");
            }
        }
    }

    /**
     * {@code unix:///PATH}: the host's local stream link on a Unix socket, Spectrum's hello required
     * (the listener is the host bus; a dialer announces {@link LinkSettings#name}).
     */
    static final class Unix implements LinkScheme {
        @Override
        public String scheme() {
            return "unix";
        }

        @Override
        public String example() {
            return "unix:///run/spectrum/bus.sock";
        }

        @Override
        public Set<String> params() {
            return Set.of();
        }

        @Override
        public Link open(int id, LinkSpec.Uri uri, LinkSpec.Role role, LinkSettings s, Clock clock) throws IOException {
            UnixDomainSocketAddress at;
            try {
                at = UnixDomainSocketAddress.of(uri.address());
            } catch (RuntimeException e) {
                throw uri.refuse("not a socket path (" + e.getMessage() + ")");
            }
            LocalLinkConfig c = streamConfig(s, true);
            if (role == LinkSpec.Role.LISTEN && s.peers > 0) {
                c.connectionCapacity(s.peers); // the host bus's connections at once (its maxClients)
            }
            return role == LinkSpec.Role.LISTEN ? LocalLink.listen(id, at, c, clock)
                    : LocalLink.connect(id, at, s.name, c, clock);
        }
    }

    /**
     * {@code serial:///DEVICE?baud=N}: a serial line, 8N1 ({@code ?baud} or the settings' rate). A
     * device path that does not exist at start is refused; once open, one that goes away is reopened.
     */
    static final class Serial implements LinkScheme {
        @Override
        public String scheme() {
            return "serial";
        }

        @Override
        public String example() {
            return "serial:///dev/ttyAMA0?baud=115200";
        }

        @Override
        public Set<String> params() {
            return Set.of("baud");
        }

        @Override
        public Link open(int id, LinkSpec.Uri uri, LinkSpec.Role role, LinkSettings s, Clock clock) {
            String device = uri.address();
            int baud;
            try {
                baud = Integer.parseInt(uri.param("baud", Integer.toString(s.baud)));
            } catch (NumberFormatException e) {
                baud = -1;
            }
            if (baud <= 0) {
                throw uri.refuse("the baud rate is a positive number");
            }
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
    }
}
