package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.link.dtls.DtlsCredentials;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.Clock;
import io.spectrum.link.local.InProcessLink;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The link factory: every link a command, a board, a host, the bus, a client or the HIL opens is
 * named by a URI and opened here (docs/links.md, "Links by URI"):
 *
 * <pre>
 *   udp://HOST:PORT                       plain UDP (DTLS when the settings carry credentials)
 *   dtls://HOST:PORT[?keys=DIR&amp;name=N | ?key=FILE&amp;ca=FILE]   DTLS on UDP
 *   tcp://HOST:PORT                       libtracer's TCP transport (no hello)
 *   unix:///PATH                          the host's local stream link (Unix socket, hello required)
 *   serial:///DEVICE[?baud=N]             a serial line (COBS + CRC-32C framing)
 * </pre>
 *
 * Each option keeps its shorthand: a value without a scheme is taken in the option's own scheme
 * ({@code --udp}/{@code --peer HOST:PORT}: udp; {@code --serial DEVICE}: serial; {@code --tcp}: tcp;
 * {@code --bus PATH}: unix), and the host file's {@code serial:DEVICE} is {@code serial://DEVICE}.
 * This class is the one owner of that spelling ({@link #parse}); the transports it opens are the
 * explicit list {@link LinkTransports#ALL}. A URI it cannot use is refused with one line that says
 * what to write ({@link IllegalArgumentException}); callers print it and exit 2.
 */
public final class LinkSpec {
    /** {@code --ping}'s default: a quiet peer is probed after 1 s. */
    public static final long DEFAULT_PING_MILLIS = 1000;
    /** {@code --timeout}'s default: a silent peer is reported down after 5 s. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 5000;

    /** The scheme of a TCP link: {@code tcp://HOST:PORT} (libtracer's TCP transport). */
    public static final String TCP = "tcp://";

    /** Whether the link listens (binds, accepts) or dials (connects to one listener). */
    public enum Role { LISTEN, DIAL }

    /**
     * A link URI, parsed: its scheme (lower case), its address ({@code HOST:PORT} or a path) and its
     * query parameters; {@code text} is what was given.
     */
    public record Uri(String text, String scheme, String address, Map<String, String> params) {
        /** Copies the parameters. */
        public Uri {
            params = Map.copyOf(params);
        }

        /** The parameter {@code key}, or {@code otherwise} when the URI has none. */
        public String param(String key, String otherwise) {
            return params.getOrDefault(key, otherwise);
        }

        /** The same link with {@code key=value} added unless the URI names it already. */
        public Uri orParam(String key, String value) {
            if (params.containsKey(key)) {
                return this;
            }
            Map<String, String> more = new LinkedHashMap<>(params);
            more.put(key, value);
            return new Uri(text, scheme, address, more);
        }

        /** A refusal of this URI: {@code problem}, then what to write. */
        public IllegalArgumentException refuse(String problem) {
            return new IllegalArgumentException(text + ": " + problem + "; write e.g. "
                    + LinkTransports.find(scheme).example());
        }
    }

    private LinkSpec() {
    }

    /**
     * Parses {@code text}: {@code SCHEME://ADDRESS[?K=V&...]} for a registered transport, the host
     * file's {@code serial:DEVICE}, or, without a scheme, {@code ADDRESS} in the {@code shorthand}
     * scheme (null: a scheme is required).
     *
     * @throws IllegalArgumentException (one line, naming the schemes to write) for anything else
     */
    public static Uri parse(String text, String shorthand) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("no link given; write one of " + LinkTransports.examples());
        }
        String t = text.strip();
        int sep = t.indexOf("://");
        String scheme;
        String rest;
        if (sep > 0 && t.substring(0, sep).matches("[A-Za-z][A-Za-z0-9+.-]*")) {
            scheme = t.substring(0, sep).toLowerCase(Locale.ROOT);
            rest = t.substring(sep + 3);
        } else if (t.regionMatches(true, 0, "serial:", 0, 7)) {
            scheme = "serial";
            rest = t.substring(7);
        } else if (shorthand != null) {
            scheme = shorthand;
            rest = t;
        } else {
            throw new IllegalArgumentException(t + ": no scheme; write one of " + LinkTransports.examples());
        }
        LinkScheme transport = LinkTransports.find(scheme);
        if (transport == null) {
            throw new IllegalArgumentException(t + ": no link is called " + scheme + "://; write one of "
                    + LinkTransports.examples());
        }
        Map<String, String> params = new LinkedHashMap<>();
        int q = rest.indexOf('?');
        String address = q < 0 ? rest : rest.substring(0, q);
        if (q >= 0) {
            for (String pair : rest.substring(q + 1).split("&", -1)) {
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair : pair.substring(0, eq);
                if (!transport.params().contains(key)) {
                    throw new IllegalArgumentException(t + ": " + scheme + ":// takes "
                            + (transport.params().isEmpty() ? "no ?parameters"
                            : "only ?" + String.join(", ?", new java.util.TreeSet<>(transport.params())))
                            + ", not ?" + key + "; write e.g. " + transport.example());
                }
                if (eq < 0 || eq == pair.length() - 1 || params.put(key, pair.substring(eq + 1)) != null) {
                    throw new IllegalArgumentException(t + ": ?" + key + " needs one value (?" + key
                            + "=...); write e.g. " + transport.example());
                }
            }
        }
        if (address.isEmpty()) {
            throw new IllegalArgumentException(t + ": no address; write e.g. " + transport.example());
        }
        return new Uri(t, scheme, address, params);
    }

    /**
     * Opens the link {@code text} names ({@link #parse} with {@code shorthand}), listening or dialing as
     * {@code role} says.
     *
     * @throws IllegalArgumentException (one line, with what to write) for a URI that cannot be used
     * @throws IOException when the socket or port cannot be opened
     */
    public static Link open(int id, String text, Role role, String shorthand, LinkSettings s, Clock clock)
            throws IOException {
        return open(id, parse(text, shorthand), role, s, clock);
    }

    /** Opens a parsed link URI. */
    public static Link open(int id, Uri uri, Role role, LinkSettings s, Clock clock) throws IOException {
        return LinkTransports.find(uri.scheme()).open(id, uri, role, s, clock);
    }

    /** Listens where {@code link} says ({@code --udp}; a bare {@code HOST:PORT} is UDP, a bare {@code :PORT} loopback). */
    public static Link listen(int id, String link, LinkSettings s, Clock clock) throws IOException {
        return open(id, link, Role.LISTEN, "udp", s, clock);
    }

    /**
     * Dials what a peer option names: any link URI; a bare {@code HOST:PORT} is UDP (DTLS with
     * credentials in the settings).
     *
     * @throws IllegalArgumentException (one line) for an address that cannot be parsed
     * @throws IOException when the socket cannot be opened or (TCP) the connection is refused
     */
    public static Link dial(int id, String link, LinkSettings s, Clock clock) throws IOException {
        return open(id, link, Role.DIAL, "udp", s, clock);
    }

    /**
     * Two in-process links joined to each other, for a client running inside the node's own process
     * (the host's MQTT bridge): {@code [0]} is the node's side, {@code [1]} the client's; each sees
     * the other as peer 0, up while both are open (the node's side from the client's connect, not its
     * first frame). They are the one in-memory link, the bus's {@link InProcessLink} and one of its
     * ends: frames up to the settings' frame size (a UDP datagram's, 65,507 bytes, when it names
     * none), at most the settings' receive buffer (4 MiB by default) of them waiting for either side;
     * a send beyond that answers FLOW_BACKPRESSURE. Each side wakes the other's node loop. No socket,
     * no port: it has no URI.
     */
    public static Link[] inProcessPair(int nodeId, int clientId, LinkSettings s) {
        InProcessLink node = new InProcessLink(nodeId, 1, s.frameBytes > 0 ? s.frameBytes : UdpLinkConfig.MAX_DATAGRAM,
                s.receiveBufferBytes > 0 ? s.receiveBufferBytes : UdpLinkConfig.DEFAULT_RECEIVE_BUFFER);
        return new Link[] {node, node.connect(null, clientId)};
    }

    /** Whether {@code link} names libtracer's TCP transport ({@code tcp://HOST:PORT}). */
    public static boolean isTcp(String link) {
        return link != null && link.regionMatches(true, 0, TCP, 0, TCP.length());
    }

    /** {@code tcp://HOST:PORT} dialed ({@code hostPort} with or without the scheme). */
    public static Link tcpDial(int id, String hostPort, LinkSettings s, Clock clock) throws IOException {
        return open(id, hostPort, Role.DIAL, "tcp", s, clock);
    }

    /**
     * Listens on {@code hostPort} for libtracer's TCP transport (a bare {@code :PORT} binds loopback):
     * each connection is one peer, up when connected, a Spectrum hello optional; {@code s.peers}
     * connections at once (0: {@link LinkSettings#DEFAULT_LISTEN_PEERS}).
     */
    public static Link tcpListen(int id, String hostPort, LinkSettings s, Clock clock) throws IOException {
        return open(id, hostPort, Role.LISTEN, "tcp", s, clock);
    }

    /** {@link #listen} with a bare address taken as UDP (the {@code --udp} option). */
    public static Link udpListen(int id, String hostPort, LinkSettings s, Clock clock) throws IOException {
        return listen(id, hostPort, s, clock);
    }

    /** {@link #dial} with a bare address taken as UDP (the {@code --peer} option). */
    public static Link udpDial(int id, String hostPort, LinkSettings s, Clock clock) throws IOException {
        return dial(id, hostPort, s, clock);
    }

    /**
     * Opens a serial line: {@code device} is a path ({@code --serial DEVICE}) or a
     * {@code serial:///DEVICE?baud=N} URI; {@code baud} applies when the URI names none. A device path
     * that does not exist at start is refused (the caller prints the reason and exits 2); once open,
     * a device that goes away is reopened by the link.
     *
     * @throws IllegalArgumentException when {@code device} is a path that does not exist
     */
    public static Link serial(int id, String device, int baud, LinkSettings s, Clock clock) {
        try {
            return open(id, parse(device, "serial").orParam("baud", Integer.toString(baud)), Role.DIAL, s, clock);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage()); // the serial transport opens no socket
        }
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
}
