package io.spectrum.host;

import io.spectrum.client.bus.BusClient;
import io.spectrum.link.Link;
import io.spectrum.link.local.LocalLink;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.server.BusDriver;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.server.BusServer;
import io.spectrum.link.local.InProcessLink;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.wide.Grants;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.time.Clock;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The host bus of a host ({@code bus} and its keys in a {@link HostConfig}): a {@link BusHost} beside the
 * host's node, listening on the Unix socket {@code path}, with its artifact store in {@code store}
 * (default {@code PATH.store}), optionally a TCP listener ({@code tcp}, loopback unless
 * {@code allowRemote}), and the grants of the host's grants file ({@link GrantsFile}, read once by
 * {@link Host} for the node's client doors and the bus; without it every client gets
 * {@link Grants#open()}).
 */
final class HostBusSetup {
    final String path;
    final String store;
    final String tcp;
    final boolean allowRemote;
    final String grants;
    /** How long a bus connection may send nothing before it is closed, ms (0: never); the bus's default when negative. */
    final long idleTimeoutMillis;
    /** Bus connections at once ({@code --bus-max-clients}); the bus's default (64) when 0. */
    final int maxClients;
    /** The most {@code --bus-max-clients} may raise the connections to (each holds two socket buffers of about a frame). */
    static final int MAX_CLIENTS_CEILING = 1024;

    HostBusSetup(String path, String store, String tcp, boolean allowRemote, String grants) {
        this(path, store, tcp, allowRemote, grants, -1, 0);
    }

    HostBusSetup(String path, String store, String tcp, boolean allowRemote, String grants, long idleTimeoutMillis,
            int maxClients) {
        this.path = path;
        this.store = store;
        this.tcp = tcp;
        this.allowRemote = allowRemote;
        this.grants = grants;
        this.idleTimeoutMillis = idleTimeoutMillis;
        this.maxClients = maxClients;
    }

    /** Whether {@code --bus} was given. */
    boolean given() {
        return path != null;
    }

    /** The checks that need nothing opened; a message for the first bad option, or null. */
    String check() {
        if (path == null) {
            return store != null || tcp != null || allowRemote || grants != null || idleTimeoutMillis >= 0 || maxClients != 0
                    ? "--bus-store, --bus-tcp, --bus-allow-remote, --bus-grants, --bus-idle-timeout and --bus-max-clients "
                    + "need --bus PATH" : null;
        }
        if (idleTimeoutMillis < -1 || idleTimeoutMillis > 0 && (idleTimeoutMillis < 100 || idleTimeoutMillis > 86_400_000L)) {
            return "--bus-idle-timeout must be 0 (never) or 0.1 to 86400 seconds";
        }
        if (maxClients < 0 || maxClients > MAX_CLIENTS_CEILING) {
            return "--bus-max-clients must be 1 to " + MAX_CLIENTS_CEILING;
        }
        if (path.isBlank()) {
            return "--bus needs a socket path";
        }
        try { // the link URIs, checked before anything opens
            socketUri();
            if (tcp != null) {
                tcpUri();
            }
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (allowRemote && tcp == null) {
            return "--bus-allow-remote opens --bus-tcp to other hosts; give --bus-tcp HOST:PORT too";
        }
        return null;
    }

    /** The bus's bounds: the defaults, with {@code --bus-idle-timeout} and {@code --bus-max-clients} when given. */
    BusLimits limits() {
        BusLimits.Builder b = BusLimits.builder();
        if (idleTimeoutMillis >= 0) {
            b.idleTimeoutMillis(idleTimeoutMillis);
        }
        if (maxClients > 0) {
            b.maxClients(maxClients);
        }
        return b.build();
    }

    /**
     * The door from the bus to the host's node ({@link BusServer#nodeDoorLink}): its side is attached
     * to the node like any client link, the bus holds its ends (one per bus connection, at most
     * {@link BusLimits#maxClients()}), frames up to {@code plain}'s frame size (the bus's own limit when
     * it names none) and at most its receive buffer's bytes waiting either way.
     */
    InProcessLink nodeDoor(int id, LinkSettings plain) {
        BusLimits limits = limits();
        int frame = plain.frameBytes() > 0 ? plain.frameBytes() : limits.maxFrameBytes();
        long budget = plain.receiveBufferBytes() > 0 ? plain.receiveBufferBytes() : limits.maxReceiveBytes();
        return BusServer.nodeDoorLink(id, limits, frame, budget);
    }

    /** A started bus and what to print about it. */
    record Started(BusHost host, List<String> lines) {
    }

    /**
     * Reads the grants file {@link #grants} names, if any, and starts the bus with it ({@link #start(Clock, GrantsFile)}).
     *
     * @throws IllegalArgumentException a bad grants file or TCP address (its one-line message)
     * @throws IOException a socket that cannot be bound
     * @throws BusException a store that cannot be opened
     */
    Started start(Clock clock) throws IOException, BusException {
        return start(clock, grants == null ? null : GrantsFile.read(Path.of(grants)), null);
    }

    /**
     * Opens the listeners and starts the bus with the host's grants ({@code read}: the file {@link #grants}
     * names, as {@link Host} read it; null without one), its connections also a door to the host's node
     * through {@code nodeDoor} ({@link #nodeDoor}; null: none).
     *
     * @throws IllegalArgumentException a bad TCP address (its one-line message)
     * @throws IOException a socket that cannot be bound
     * @throws BusException a store that cannot be opened
     */
    Started start(Clock clock, GrantsFile read, InProcessLink nodeDoor) throws IOException, BusException {
        return start(clock, read, nodeDoor, null);
    }

    /**
     * As {@link #start(Clock, GrantsFile, InProcessLink)}, the bus's turns run by {@code driver} (the
     * host's node loop; null: a thread of the bus's own) and its timers on {@code clock}.
     */
    Started start(Clock clock, GrantsFile read, InProcessLink nodeDoor, BusDriver driver) throws IOException, BusException {
        List<String> lines = new ArrayList<>();
        Function<String, Grants> lookup;
        if (read != null) {
            GrantsFile g = read;
            lookup = g.lookup();
            lines.add("bus: grants from " + grants + " (" + g.names() + " client names; others as anonymous)");
        } else {
            lookup = name -> Grants.open();
            lines.add("bus: no --bus-grants: every client may publish, subscribe, serve, call and manage any topic");
        }
        LinkSpec.Uri tcpUri = tcp == null ? null : tcpUri();
        Path socket = Path.of(socketUri().address()).toAbsolutePath();
        Path storeDir = store != null ? Path.of(store).toAbsolutePath() : Path.of(socket + ".store");
        // a missing socket directory is made by the link's listen, 0700 (docs/bus.md); both sockets
        // require the hello, carry the bus's frames and hold as many connections as the bus takes
        LinkSettings bus = new LinkSettings().frameBytes(BusClient.LINK_MAX_FRAME).helloRequired(true)
                .allowRemote(allowRemote).peers(limits().maxClients());
        List<Link> links = new ArrayList<>();
        try {
            links.add(LinkSpec.open(1, "unix://" + socket, LinkSpec.Role.LISTEN, null, bus, clock));
            if (tcpUri != null) {
                links.add(LinkSpec.open(2, tcpUri, LinkSpec.Role.LISTEN, bus, clock));
            }
            BusHost host = driver == null ? BusHost.start(StoreConfig.defaults(storeDir), limits(), lookup, links, nodeDoor)
                    : BusHost.start(StoreConfig.defaults(storeDir), limits(), lookup, links, nodeDoor, driver, clock);
            lines.add(0, "bus: " + socket + " (store " + storeDir + ")");
            if (links.size() > 1) {
                lines.add(1, "bus: " + links.get(1).name());
            }
            return new Started(host, lines);
        } catch (IOException | BusException | RuntimeException e) {
            links.forEach(Link::close);
            throw e;
        }
    }

    private static LinkSpec.Uri parse(String option, String text, String shorthand) {
        try {
            return LinkSpec.parse(text, shorthand);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " " + e.getMessage());
        }
    }

    private LinkSpec.Uri socketUri() {
        LinkSpec.Uri uri = parse("--bus", path, "unix"); // --bus PATH, or unix:///PATH
        if (!uri.scheme().equals("unix")) {
            throw new IllegalArgumentException("--bus " + path + ": expected a socket path or unix:///PATH "
                    + "(a TCP address is --bus-tcp)");
        }
        return uri;
    }

    private LinkSpec.Uri tcpUri() {
        LinkSpec.Uri uri = parse("--bus-tcp", tcp, "tcp"); // --bus-tcp HOST:PORT, or tcp://HOST:PORT
        if (!uri.scheme().equals("tcp") || uri.address().indexOf('/') >= 0) {
            throw new IllegalArgumentException("--bus-tcp " + tcp + ": expected HOST:PORT (the socket path is --bus)");
        }
        SocketAddress a = LocalLink.parseAddress(uri.address());
        if (a instanceof InetSocketAddress inet && !inet.isUnresolved() && !inet.getAddress().isLoopbackAddress()
                && !allowRemote) {
            throw new IllegalArgumentException("--bus-tcp " + tcp + " is not a loopback address (other hosts could "
                    + "connect); add --bus-allow-remote to expose the bus");
        }
        return uri;
    }

    static void print(PrintWriter out, Started s) {
        s.lines().forEach(out::println);
        out.flush();
    }
}
