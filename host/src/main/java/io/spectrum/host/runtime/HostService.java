package io.spectrum.host.runtime;

import io.spectrum.host.dashboard.DashboardServer;
import io.spectrum.host.view.FabricView;
import io.spectrum.host.view.TerminalView;
import io.spectrum.link.Link;
import io.spectrum.time.Clock;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wide.link.QueuedLink;
import io.spectrum.wide.link.QueuedLinkConfig;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * What {@code spectrum host} and {@code spectrum demo} run: a {@link HostRuntime} on a WideNode with each
 * board's link (each on its own I/O thread, {@link QueuedLink}) mounted by name ({@code /board1/...}, every board path kept whole), clients' links mounted as
 * listeners, the dashboard, and a terminal view that prints the values the host holds (the vertices
 * some client or view subscribed to) once a second, or redraws them as a table in place. Nothing is
 * subscribed on a board until a client or a view asks for it.
 */
public final class HostService implements AutoCloseable {
    /**
     * A board reached over {@code link} (peer 0: a dialed UDP peer or the far end of a serial line),
     * mounted as {@code /name}; {@code top} names its top-level vertices when its root cannot be
     * listed (empty otherwise).
     */
    public record Board(String name, Link link, List<String> top) {
        /** Copies {@code top}. */
        public Board {
            top = List.copyOf(top);
        }

        /** A board whose root lists itself (no {@code top} names). */
        public Board(String name, Link link) {
            this(name, link, List.of());
        }
    }

    private final List<Board> boards;
    private final List<Link> clientLinks;
    private final int dashboardPort;
    private final boolean ansi;
    private final PrintWriter out;
    private final HostRuntime host;
    /** What was printed last (lines mode). */
    private final TerminalView terminal = new TerminalView();
    private DashboardServer dashboard;
    private FabricView fabric = FabricView.NONE;
    private boolean terminalShowsBoards;
    /** The grants of the client doors ({@link #grants}), or null. */
    private io.spectrum.wide.PeerAccess access;
    private List<Link> doors = List.of();

    /**
     * @param dashboardPort the dashboard's port on 127.0.0.1 (0 = any free port, -1 = no dashboard)
     * @param ansi          redraw a table in place instead of printing value lines
     */
    public HostService(String nodeName, List<Board> boards, List<Link> clientLinks, int dashboardPort, boolean ansi,
                       PrintWriter out) {
        this(nodeName, boards, clientLinks, dashboardPort, ansi, out, SystemClock.INSTANCE);
    }

    /** @param clock the node's clock: its timers, the loop's deadlines, the host's ({@link HostRuntime}) */
    public HostService(String nodeName, List<Board> boards, List<Link> clientLinks, int dashboardPort, boolean ansi,
                       PrintWriter out, Clock clock) {
        this(nodeName, boards, clientLinks, dashboardPort, ansi, out, clock, HostRuntime.HOST_CONFIG.sharePeers());
    }

    /**
     * @param sharePeers the remote peers the node keeps shares for at once, each holding slots or awaits
     *     ({@code NodeConfig.sharePeers}; the host's default {@link HostRuntime#HOST_CONFIG} holds 64): a host
     *     whose bus takes more connections gives their number, each connection being a peer of the bus's door
     */
    public HostService(String nodeName, List<Board> boards, List<Link> clientLinks, int dashboardPort, boolean ansi,
                       PrintWriter out, Clock clock, int sharePeers) {
        this.boards = List.copyOf(boards);
        this.clientLinks = List.copyOf(clientLinks);
        this.dashboardPort = dashboardPort;
        this.ansi = ansi;
        this.out = out;
        this.host = new HostRuntime(nodeName, new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(clock)
                .sharePeers(sharePeers).build()));
    }

    /**
     * Checks the requests of the client links in {@code doors} (some of this service's client links) against
     * {@code access} once {@link #start} attaches them (docs/host.md, "The grants file"); null: none checked.
     */
    public HostService grants(io.spectrum.wide.PeerAccess access, List<Link> doors) {
        this.access = access;
        this.doors = List.copyOf(doors);
        return this;
    }

    /** The runtime that runs the node on its own thread and presents it to the dashboard and terminal views. */
    public HostRuntime runtime() {
        return host;
    }

    /** The dashboard's address, or null without one. */
    public String dashboardUrl() {
        return dashboard == null ? null : dashboard.url();
    }

    /**
     * Mounts the boards, attaches the client listeners, starts the node and the dashboard.
     *
     * @throws IllegalArgumentException when a board's name cannot be mounted (taken, not a segment)
     */
    public void start() throws IOException {
        for (Board b : boards) {
            host.mount(queued(b.link()), b.name(), b.top());
        }
        for (Link l : clientLinks) {
            Link q = queued(l);
            host.attachListener(q);
            if (access != null && doors.contains(l)) {
                host.restrict(q, access); // before start: no request of the door is served unchecked
            }
        }
        host.start();
        if (dashboardPort >= 0) {
            dashboard = startDashboard();
            out.println("dashboard: " + dashboard.url());
            out.flush();
        }
    }

    /** Frames one peer may have queued on a client link (the link's per-peer bound). */
    static final int PEER_QUEUE_FRAMES = 64;
    /** The smallest link-wide outbound pool, and the largest: 65,536 frames of at least 512 bytes. */
    static final int MIN_OUTBOUND_FRAMES = 4096;
    static final int MAX_OUTBOUND_FRAMES = 1 << 16;

    /**
     * Each link gets its own I/O thread that hands frames to the node through a queue, and a bounded
     * outbound queue per peer (drop-oldest, a persistently slow peer disconnected: docs/links.md,
     * "QueuedLink"), so a slow client never stalls the node or the other clients. Up to 8,192
     * received frames wait for the node thread (the default 1,024 overflowed when the host started
     * following a board of 1,000 vertices: each edge's append answer and first value arrive in one
     * burst, and a dropped answer waits 2 s for its re-send). The link-wide outbound pool holds every
     * peer's full queue ({@link #outboundFrames}), so one value fanned out to every client in one step
     * is never refused for want of a pooled frame while each peer's own queue has room. Public so a
     * benchmark serves its listener exactly as the host does.
     *
     * @param link a link the host's node serves
     * @return the link behind its own I/O thread and queues
     */
    public static Link queued(Link link) {
        return QueuedLink.wrap(link, QueuedLinkConfig.builder().inboundFrames(8192).peerQueueFrames(PEER_QUEUE_FRAMES)
                .outboundFrames(outboundFrames(link.peers() == null ? 1 : link.peers().capacity())).build());
    }

    /**
     * The outbound pool for a link of {@code peers} peers: each peer's full queue, between
     * {@link #MIN_OUTBOUND_FRAMES} and {@link #MAX_OUTBOUND_FRAMES} (the host's default 64 client peers
     * give 4,096; a table of 1,024 gives 65,536).
     */
    static int outboundFrames(long peers) {
        return (int) Math.max(MIN_OUTBOUND_FRAMES, Math.min(MAX_OUTBOUND_FRAMES, peers * PEER_QUEUE_FRAMES));
    }

    private DashboardServer startDashboard() throws IOException {
        try {
            return new DashboardServer(host, fabric, new InetSocketAddress("127.0.0.1", dashboardPort), 100);
        } catch (BindException e) {
            out.printf("port %d is busy; the dashboard takes a free port instead%n", dashboardPort);
            return new DashboardServer(host, fabric, new InetSocketAddress("127.0.0.1", 0), 100);
        }
    }

    /**
     * What the dashboard shows beyond this node: the MQTT bridge run beside the host and other
     * hosts read from the broker ({@code spectrum host --mqtt}). Set before {@link #start}.
     */
    public HostService fabric(FabricView view) {
        this.fabric = java.util.Objects.requireNonNull(view);
        return this;
    }

    /**
     * Makes the terminal a view of every board vertex found (the demo's few): it subscribes to
     * what it shows, each leaf the walks found. Off by default: then it prints what clients and
     * the dashboard made the host hold.
     */
    public HostService terminalShowsBoards(boolean on) {
        terminalShowsBoards = on;
        return this;
    }

    /** Once a second: print what the host holds that changed (or redraw the table). */
    public void tick() {
        if (terminalShowsBoards) {
            host.showBoards("terminal");
        }
        if (ansi) {
            out.print(TerminalView.table(host.snapshot(), dashboard == null ? "(Ctrl-C stops)"
                    : "dashboard: " + dashboard.url() + "   (Ctrl-C stops)", true));
            out.flush();
        } else {
            printLatest();
        }
    }

    /** One line per held vertex whose value (or stale mark) changed since the last print. */
    private void printLatest() {
        synchronized (out) {
            for (String line : terminal.changes(host.snapshot())) {
                if (!line.startsWith("/$")) {
                    out.println(line);
                }
            }
            out.flush();
        }
    }

    /** Prints what arrived since the last tick (used once more when stopping). */
    public void flush() {
        if (!ansi) {
            printLatest();
        }
    }

    @Override
    public void close() {
        if (dashboard != null) {
            dashboard.close();
        }
        host.close(); // closes the links too
    }
}
