package io.spectrum.host.runtime;

import io.spectrum.host.dashboard.DashboardServer;
import io.spectrum.host.view.TerminalView;
import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.RemoteClient;
import io.spectrum.node.api.NodeConfig;

import io.spectrum.wire.DeliveryPolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * What {@code spectrum host} and {@code spectrum demo} run: a {@link HostRuntime} on the given links,
 * each board's vertices mirrored under {@code /<board name>/...} by remote subscriptions (re-sent
 * until the board answers), a "terminal view" local subscription per board whose deliveries are
 * printed once a second (or a table redrawn in place), and the dashboard.
 */
public final class HostService implements AutoCloseable {
    /** A board reached over {@code link} (peer 0: a dialed UDP peer or the far end of a serial line). */
    public record Board(String name, Link link) { }

    /** The board vertices mirrored when none are named. */
    public static final List<String> DEFAULT_MIRROR = List.of("/board/temp", "/board/humidity", "/board/counter",
            "/board/led", "/board/name");
    private static final long RESEND_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final List<Board> boards;
    private final List<Link> clientLinks;
    private final List<String> mirror;
    private final int dashboardPort;
    private final boolean ansi;
    private final PrintWriter out;
    private final HostRuntime host;
    private final Map<String, String> latest = new TreeMap<>();
    private final List<Mirror> mirrors = new ArrayList<>();
    private DashboardServer dashboard;

    private static final class Mirror {
        final Link link;
        final String remote;
        final String local;
        int handle = -1;
        long since;
        boolean refused;

        Mirror(Link link, String remote, String local) {
            this.link = link;
            this.remote = remote;
            this.local = local;
        }
    }

    /**
     * @param dashboardPort the dashboard's port on 127.0.0.1 (0 = any free port, -1 = no dashboard)
     * @param ansi          redraw a table in place instead of printing value lines
     */
    public HostService(String nodeName, List<Board> boards, List<Link> clientLinks, List<String> mirror,
                       int dashboardPort, boolean ansi, PrintWriter out) {
        this.boards = List.copyOf(boards);
        this.clientLinks = List.copyOf(clientLinks);
        this.mirror = List.copyOf(mirror);
        this.dashboardPort = dashboardPort;
        this.ansi = ansi;
        this.out = out;
        this.host = new HostRuntime(nodeName, new NarrowNode(HostRuntime.MIRROR_CONFIG));
    }

    public HostRuntime runtime() {
        return host;
    }

    /** The dashboard's address, or null without one. */
    public String dashboardUrl() {
        return dashboard == null ? null : dashboard.url();
    }

    public void start() throws IOException {
        for (Board b : boards) {
            host.attachBoard(b.link(), b.name());
        }
        for (Link l : clientLinks) {
            host.attachListener(l);
        }
        host.start();
        for (Board b : boards) {
            String prefix = "/" + b.name();
            host.watch(prefix, "terminal view", d -> {
                synchronized (latest) {
                    latest.put(d.path(), d.value().text() + "  (seq " + d.seq() + (d.stale() ? ", stale" : "") + ")");
                }
            });
            for (String remote : mirror) {
                Mirror m = new Mirror(b.link(), remote, prefix + localSuffix(remote));
                mirrors.add(m);
                subscribe(m);
            }
        }
        if (dashboardPort >= 0) {
            dashboard = startDashboard();
            out.println("dashboard: " + dashboard.url());
            out.flush();
        }
    }

    /** /board/temp -> /temp (the first segment is the board's own name for itself). */
    static String localSuffix(String remote) {
        int second = remote.indexOf('/', 1);
        return second < 0 ? remote : remote.substring(second);
    }

    private DashboardServer startDashboard() throws IOException {
        try {
            return new DashboardServer(host, new InetSocketAddress("127.0.0.1", dashboardPort), 100);
        } catch (BindException e) {
            out.printf("port %d is busy; the dashboard takes a free port instead%n", dashboardPort);
            return new DashboardServer(host, new InetSocketAddress("127.0.0.1", 0), 100);
        }
    }

    private void subscribe(Mirror m) {
        m.handle = host.subscribeRemote(m.link, 0, m.remote, m.local, DeliveryPolicy.DURABILITY_REQUEST);
        m.since = System.nanoTime();
    }

    /** Once a second: re-send unanswered mirrors, then print what the terminal view received. */
    public void tick() {
        resendUnanswered();
        if (ansi) {
            out.print(TerminalView.table(host.snapshot(), dashboard == null ? "(Ctrl-C stops)"
                    : "dashboard: " + dashboard.url() + "   (Ctrl-C stops)", true));
            out.flush();
        } else {
            printLatest();
        }
    }

    /**
     * A board that was still starting when the host subscribed never saw the append (a datagram to
     * a closed port, a pty nobody read yet). Re-send what is unanswered after two seconds; a
     * refusal (a vertex this board does not have) is reported once and dropped.
     */
    private void resendUnanswered() {
        RemoteClient client = host.node().remote();
        for (Mirror m : mirrors) {
            if (m.refused) {
                continue;
            }
            int h = m.handle;
            int state = h < 0 ? RemoteClient.REFUSED : host.onNodeThread(() -> client.state(h));
            if (state == RemoteClient.REFUSED) {
                if (h >= 0) {
                    host.onNodeThread(() -> {
                        client.forget(h);
                        return null;
                    });
                }
                m.refused = true;
                out.println("note: " + m.remote + " on " + m.link.name() + " refused the subscription; not mirrored");
            } else if (state != RemoteClient.ACKED && System.nanoTime() - m.since > RESEND_NANOS) {
                host.onNodeThread(() -> {
                    client.forget(h);
                    return null;
                });
                subscribe(m);
            }
        }
    }

    private void printLatest() {
        Map<String, String> batch;
        synchronized (latest) {
            batch = new TreeMap<>(latest);
            latest.clear();
        }
        synchronized (out) {
            for (Map.Entry<String, String> e : batch.entrySet()) {
                out.println(e.getKey() + " = " + e.getValue());
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
