package io.spectrum.host;

import io.spectrum.bridge.FabricMirror;
import io.spectrum.host.metrics.MetricsServer;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.host.runtime.HostService;
import io.spectrum.host.view.FabricView;
import io.spectrum.link.Link;
import io.spectrum.link.local.InProcessLink;
import io.spectrum.runtime.LinkNotices;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.time.Sleeper;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.PeerAccess;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.server.BusDriver;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The host product, assembled from one {@link HostConfig}: each board's link opened and mounted by
 * name, the client listener, the node on its own thread ({@link HostService}, {@link HostRuntime}),
 * the dashboard, the metrics listener ({@link MetricsServer}: {@code GET /metrics} only), the host bus, the MQTT bridge (a client of the host through a loopback door) and
 * the other hosts read back from the broker. {@link #start} opens and starts everything in that
 * order and prints what it opened; {@link #close} stops everything. {@code spectrum host} only turns
 * its options (or a host file) into the configuration, calls this, and prints.
 */
public final class Host implements AutoCloseable {
    /** The host could not start: one line saying what and why (the caller exits 2). */
    public static final class StartFailure extends Exception {
        /** A start failure with its one-line reason (no cause, no stack trace). */
        public StartFailure(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Datagrams per {@code recvmmsg}/{@code sendmmsg} call of the host's UDP client listener. One
     * value a board publishes goes out to every subscriber in the same node step, so the listener sends
     * in batches four times a board link's: 100 deliveries are 2 system calls, not 7 (docs/links.md
     * "Batched datagram I/O", docs/benchmarks.md). Costs one frame of native memory per slot and direction.
     */
    public static final int CLIENT_LISTENER_BATCH = 64;

    private final HostConfig config;
    private final List<HostService.Board> boards;
    private final HostService service;
    private final HostBridge bridge;
    private final BusFabric busView;
    private FabricMirror mirror;
    private HostBusSetup.Started busHost;
    private MetricsServer metrics;
    /** The metrics view holds the board values (a scraper asked lately); the tick's thread only. */
    private boolean scraped;

    private Host(HostConfig config, List<HostService.Board> boards, HostService service, HostBridge bridge, BusFabric busView) {
        this.config = config;
        this.boards = boards;
        this.service = service;
        this.bridge = bridge;
        this.busView = busView;
    }

    /**
     * Opens the links, starts the node, the dashboard, the bus and the bridge; prints each board's
     * link, the client listener, the dashboard and the bus to {@code out}, link notices and the
     * bridge's notes to {@code err}, and {@code NAME ready on …} last.
     *
     * @param ansi redraw the held values as a table in place ({@link #tick}) instead of printing lines
     * @throws StartFailure a link that cannot be opened, a mount the node refuses, a bus that cannot start
     */
    public static Host start(HostConfig config, PrintWriter out, PrintWriter err, boolean ansi) throws StartFailure {
        GrantsFile grants = null; // read once, before anything opens: the client doors and the bus apply the same file
        if (config.grants() != null) {
            try {
                grants = GrantsFile.read(Path.of(config.grants()));
            } catch (IllegalArgumentException e) {
                throw new StartFailure("cannot read the grants: " + e.getMessage());
            }
        }
        LinkSettings plain = new LinkSettings().pingMillis(config.pingMillis()).timeoutMillis(config.timeoutMillis())
                .frameBytes(config.frameBytes()).receiveBufferBytes(config.receiveBuffer());
        List<HostService.Board> boards = new ArrayList<>();
        List<Link> clients = new ArrayList<>();
        int id = 1;
        int listeners;
        HostBridge bridge;
        InProcessLink busDoor = null;
        try {
            // every mount is a link URI (a bare HOST:PORT is UDP), opened by the one link factory; the board
            // links are DTLS when credentials are named, read once, when the first UDP or DTLS mount needs them
            LinkSettings boardSettings = new LinkSettings().pingMillis(config.pingMillis())
                    .timeoutMillis(config.timeoutMillis()).frameBytes(config.frameBytes())
                    .receiveBufferBytes(config.receiveBuffer()).baud(config.baud()).name(config.dtlsName());
            boolean credentialsRead = false;
            for (HostConfig.Mount m : config.mounts()) {
                LinkSpec.Uri uri = m.uri();
                if (!credentialsRead && (uri.scheme().equals("udp") || uri.scheme().equals("dtls"))) {
                    boardSettings.dtls(LinkSpec.dtls(config.dtlsKey(), config.dtlsCa(), config.dtlsKeys(), config.dtlsName()));
                    credentialsRead = true;
                }
                Link link = LinkSpec.open(id++, uri, LinkSpec.Role.DIAL, boardSettings, config.clock());
                boards.add(new HostService.Board(m.name(), link, m.top()));
            }
            if (config.udp() != null) {
                LinkSettings listener = new LinkSettings().pingMillis(config.pingMillis()).timeoutMillis(config.timeoutMillis())
                        .frameBytes(config.frameBytes()).receiveBufferBytes(config.receiveBuffer()).peers(config.clientPeers())
                        .batch(CLIENT_LISTENER_BATCH);
                clients.add(LinkSpec.listen(id, config.udp(), listener, config.clock()));
            }
            if (config.tcp() != null) { // the same peer table bound as the UDP listener's
                LinkSettings listener = new LinkSettings().frameBytes(config.frameBytes()).peers(config.clientPeers());
                clients.add(LinkSpec.tcpListen(id + 2, config.tcp(), listener, config.clock()));
            }
            listeners = clients.size();
            bridge = HostBridge.open(config.mqtt(), config.mqttOptions(), plain, config.clock(), id + 1, clients);
            if (config.bus() != null) {
                // the bus's door to this node: its side served by the node like any client link, its
                // ends held by the bus, one per bus connection (docs/bus.md, "The host's node through the bus")
                busDoor = config.bus().nodeDoor(id + 3, plain);
                clients.add(busDoor);
            }
        } catch (IllegalArgumentException | IOException e) {
            boards.forEach(b -> b.link().close());
            clients.forEach(Link::close);
            throw new StartFailure("cannot open a link: " + e.getMessage());
        }
        for (HostService.Board b : boards) {
            out.printf("%s: %s%n", b.name(), b.link().name());
        }
        for (Link l : clients.subList(0, listeners)) { // not the bridge's or the bus's door
            out.printf("clients: %s (spectrum ls --peer ...)%n", l.name());
        }
        // the node's per-peer tables are sized from every door's peers, the bus door's connections included
        HostService service = new HostService(config.name(), boards, clients, config.dashboard(), ansi, out, config.clock());
        if (grants != null) {
            // the client listeners and the bus's door (each end named by its bus client id) are checked; the
            // boards' links and the bridge's loopback door (this host's own client) are not
            List<Link> checked = new ArrayList<>(clients.subList(0, listeners));
            if (busDoor != null) {
                checked.add(busDoor);
            }
            service.grants(PeerAccess.of(grants.lookup()), checked);
            out.printf("grants: %s (%d client names; others as anonymous) for %s%n", config.grants(), grants.names(),
                    config.bus() != null ? "the client doors and the bus" : "the client doors");
        }
        if (config.history() != null) {
            service.runtime().record(config.history());
            out.println("history: " + config.history().where());
        }
        Consumer<String> notes = note -> {
            synchronized (err) {
                err.println(note);
                err.flush();
            }
        };
        FabricMirror mirror = null;
        if (bridge.given() && config.mqttView()) {
            mirror = FabricMirror.start(bridge.address(), config.name(), FabricMirror.DEFAULT_CAPACITY, notes,
                    config.clock() instanceof Sleeper s ? s : SystemClock.INSTANCE);
        }
        FabricView base = bridge.given() ? new DashboardFabric(bridge, mirror) : FabricView.NONE;
        BusFabric busView = config.bus() != null ? new BusFabric(base) : null;
        FabricView fabric = busView != null ? busView : base;
        if (busView != null || bridge.given()) {
            service.fabric(fabric);
        }
        if (busDoor != null) {
            service.direct(busDoor); // the bus runs on the node thread: the door needs no I/O thread between
        }
        Host host = new Host(config, boards, service, bridge, busView);
        host.mirror = mirror;
        for (Link l : clients) {
            LinkNotices.atStart(l, service.runtime().node()).forEach(err::println);
        }
        err.flush();
        boolean started = false;
        try {
            try {
                service.start();
            } catch (IllegalArgumentException e) {
                throw new StartFailure(e.getMessage());
            } catch (IOException e) {
                throw new StartFailure("cannot start the dashboard: " + e.getMessage());
            }
            if (config.metrics() != null) {
                host.metrics = startMetrics(config, service.runtime(), fabric, out);
                out.println("metrics: " + host.metrics.url());
            }
            if (config.bus() != null) {
                try {
                    host.busHost = config.bus().start(config.clock(), grants, busDoor, busDriver(service.runtime()));
                } catch (IllegalArgumentException | IOException | BusException e) {
                    String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
                    throw new StartFailure("cannot start the bus: " + why);
                }
                HostBusSetup.print(out, host.busHost);
                busView.host(host.busHost.host());
            }
            try {
                bridge.start(notes, service.runtime().boardDeclarations()); // the host's copies, not a second cache
            } catch (IOException e) {
                throw new StartFailure("cannot start the MQTT bridge: " + e.getMessage());
            }
            List<String> on = new ArrayList<>(boards.stream().map(b -> b.link().name()).toList());
            if (host.busHost != null) {
                on.add("bus " + config.busPath());
            }
            out.println(config.name() + " ready on " + String.join(", ", on));
            out.flush();
            started = true;
            return host;
        } finally {
            if (!started) {
                host.close();
            }
        }
    }

    /** The host's node loop as the loop that runs the bus's turns (docs/bus.md, "Identity, transports and the loop"). */
    private static BusDriver busDriver(io.spectrum.host.runtime.HostRuntime runtime) {
        return new BusDriver() {
            @Override
            public io.spectrum.link.Readiness readiness() {
                return runtime.readiness();
            }

            @Override
            public void share(java.util.function.IntSupplier turn, boolean polled) {
                runtime.share(turn, polled);
            }

            @Override
            public boolean onLoopThread() {
                return runtime.isNodeThread();
            }

            @Override
            public void unshare(java.util.function.IntSupplier turn) {
                runtime.unshare(turn);
            }

            @Override
            public io.spectrum.wide.WideNode node() {
                return runtime.wideNode();
            }
        };
    }

    /**
     * The metrics listener at the configuration's address; the default address, when busy, gives way
     * to a free port (as the dashboard's does), an address given does not.
     */
    private static MetricsServer startMetrics(HostConfig config, HostRuntime model, FabricView fabric, PrintWriter out)
            throws StartFailure {
        HostConfig.Endpoint at = config.metrics();
        InetSocketAddress address = new InetSocketAddress(at.host(), at.port());
        if (address.isUnresolved()) {
            throw new StartFailure("cannot open the metrics listener on " + at + ": no such host name"
                    + " (give --metrics an address of this machine, or --metrics none)");
        }
        try {
            return config.metricsDefault() ? MetricsServer.startOrAnyPort(address, model, fabric, out::println)
                    : MetricsServer.start(address, model, fabric);
        } catch (IOException e) {
            throw new StartFailure("cannot open the metrics listener on " + at + ": " + e.getMessage()
                    + " (give --metrics another [HOST:]PORT, or --metrics none)");
        }
    }

    /** The metrics listener ({@code GET /metrics}), or null without one. */
    public MetricsServer metrics() {
        return metrics;
    }

    /** The checked configuration this host was started with. */
    public HostConfig config() {
        return config;
    }

    /** The mounted boards and their links, in the configuration's order. */
    public List<HostService.Board> boards() {
        return boards;
    }

    /** The running bus, or null without {@code --bus} (this package's tests). */
    io.spectrum.bus.server.BusHost bus() {
        HostBusSetup.Started b = busHost;
        return b == null ? null : b.host();
    }

    /** The node, the dashboard and the terminal view. */
    public HostService service() {
        return service;
    }

    /** The runtime that runs this host's node on its own thread and presents it to the views as a {@code HostModel}. */
    public HostRuntime runtime() {
        return service.runtime();
    }

    /**
     * Once a second: while a scraper asks for {@code /metrics} (within {@link MetricsServer#SCRAPER_TTL_NANOS}),
     * hold every board value the walks found, so the next scrape shows them without a dashboard open
     * (a scraper is a view, as a page is; one silent that long is forgotten and what only it showed is
     * no longer subscribed); then print what the host holds that changed (or redraw the table).
     */
    public void tick() {
        if (metrics != null) {
            if (metrics.scrapedWithin(MetricsServer.SCRAPER_TTL_NANOS)) {
                service.runtime().showBoards("metrics");
                scraped = true;
            } else if (scraped) {
                service.runtime().hide("metrics");
                scraped = false;
            }
        }
        service.tick();
    }

    /** Prints what arrived since the last {@link #tick} (once more when stopping). */
    public void flush() {
        service.flush();
    }

    /** Stops the bus, the broker view, the bridge, the dashboard, the node and the links (idempotent). */
    @Override
    public void close() {
        if (metrics != null) {
            metrics.close();
            metrics = null;
        }
        if (busHost != null) {
            busView.host(null);
            busHost.host().close();
            busHost = null;
        }
        if (mirror != null) {
            mirror.close();
            mirror = null;
        }
        bridge.close();
        service.close();
    }
}
