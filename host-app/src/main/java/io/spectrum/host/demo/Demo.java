package io.spectrum.host.demo;

import io.spectrum.host.dashboard.DashboardServer;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.host.view.TerminalView;
import io.spectrum.link.Link;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.RemoteClient;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.time.SystemClock;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code spectrum demo}: a host node in this JVM and emulated boards in their own JVMs, linked by
 * socat pseudo-terminal pairs (the serial link: COBS framing + CRC-32C) or by UDP loopback. The host
 * mirrors each board's vertices under /boardN, a terminal view subscribes to each board's subtree
 * and prints new values once a second, and the dashboard serves the whole picture. Suspending the
 * "terminal view" subscriber of /board1 in the dashboard silences board1 in the terminal.
 */
public final class Demo implements AutoCloseable {
    /** What to run. */
    public record Options(int boards, boolean forceUdp, long durationSeconds, int dashboardPort,
                          boolean ansi, List<String> boardCommand, Path workDir) { }

    static final String[] VERTICES = {"temp", "humidity", "counter", "led", "name"};
    private static final int DURABILITY = 0x0020;

    private final Options options;
    private final PrintWriter out;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Map<String, String> latest = new TreeMap<>();
    private final CountDownLatch stop = new CountDownLatch(1);
    private final List<Subscription> subscriptions = new ArrayList<>();
    private HostRuntime host;
    private DashboardServer dashboard;
    private Path workDir;
    private boolean ownWorkDir;

    private record Subscription(Link link, String remote, String local, int[] handle, long[] since) { }

    public Demo(Options options, PrintWriter out) {
        this.options = options;
        this.out = out;
    }

    /** Starts everything, runs until the duration passes or {@link #stop()} is called, then closes. */
    public int run() throws IOException, InterruptedException {
        try {
            start();
            long end = options.durationSeconds() > 0
                    ? System.nanoTime() + TimeUnit.SECONDS.toNanos(options.durationSeconds()) : Long.MAX_VALUE;
            while (System.nanoTime() < end && !stop.await(1, TimeUnit.SECONDS)) {
                resubscribeStragglers();
                if (options.ansi()) {
                    out.print(TerminalView.table(host.snapshot(), footer(), true));
                } else {
                    printLatest();
                }
                out.flush();
            }
            if (!options.ansi()) {
                printLatest();
            }
            out.println("demo: stopping (boards, socat, dashboard)");
            out.flush();
            return 0;
        } finally {
            close();
        }
    }

    public void stop() {
        stop.countDown();
    }

    private String footer() {
        return "dashboard: " + dashboard.url() + "   (Ctrl-C stops the demo)";
    }

    private void start() throws IOException {
        if (options.workDir() != null) {
            workDir = Files.createDirectories(options.workDir());
        } else {
            workDir = Files.createTempDirectory("spectrum-demo-");
            ownWorkDir = true;
        }
        boolean serial = !options.forceUdp() && PtyPair.socatAvailable();
        out.printf("Spectrum demo: a host and %d emulated boards (separate JVMs) linked %s%n", options.boards(),
                serial ? "by socat pseudo-terminals (serial link: COBS framing + CRC-32C)"
                        : "over UDP loopback" + (options.forceUdp() ? "" : " (socat is not installed)"));
        out.flush();

        NarrowNode node = new NarrowNode(new NodeConfig());
        host = new HostRuntime("spectrum demo host", node);
        List<Link> links = new ArrayList<>();
        for (int i = 1; i <= options.boards(); i++) {
            String name = "board" + i;
            List<String> args = new ArrayList<>(options.boardCommand());
            args.addAll(List.of("--name", name));
            Link link;
            if (serial) {
                PtyPair pty = new PtyPair(workDir, name);
                resources.add(pty);
                args.addAll(List.of("--serial", pty.boardEnd().toString(), "--baud", "115200"));
                link = SerialLink.open(i, pty.hostEnd().toString(), new SerialLinkConfig().baud(115200), SystemClock.INSTANCE);
            } else {
                int port = freeUdpPort();
                args.addAll(List.of("--udp", "127.0.0.1:" + port));
                link = UdpLink.dial(i, new InetSocketAddress("127.0.0.1", port), new UdpLinkConfig(), SystemClock.INSTANCE);
            }
            ChildJvm board = new ChildJvm(name, List.of("-Xmx64m", "-XX:+UseSerialGC", "-Xshare:auto"), args, line -> {
                synchronized (out) {
                    out.println(line);
                    out.flush();
                }
            });
            resources.add(board);
            links.add(link);
            host.attach(link);
            out.printf("  %s: pid %d, %s%n", name, board.pid(), link.name());
        }
        host.start();
        resources.add(host);
        for (int i = 1; i <= options.boards(); i++) {
            String board = "/board" + i;
            host.watch(board, "terminal view", d -> {
                synchronized (latest) {
                    latest.put(d.path(), d.value().text() + "  (seq " + d.seq() + (d.stale() ? ", stale" : "") + ")");
                }
            });
            for (String v : VERTICES) {
                subscriptions.add(new Subscription(links.get(i - 1), "/board/" + v, board + "/" + v, new int[] {-1}, new long[] {0}));
            }
        }
        for (Subscription s : subscriptions) {
            subscribe(s);
        }
        dashboard = startDashboard();
        resources.add(dashboard);
        out.println("dashboard: " + dashboard.url());
        out.println(options.durationSeconds() > 0 ? "running for " + options.durationSeconds() + " s" : "Ctrl-C stops the demo");
        out.flush();
    }

    private DashboardServer startDashboard() throws IOException {
        try {
            return new DashboardServer(host, new InetSocketAddress("127.0.0.1", options.dashboardPort()), 100);
        } catch (BindException e) {
            out.printf("port %d is busy; the dashboard takes a free port instead%n", options.dashboardPort());
            return new DashboardServer(host, new InetSocketAddress("127.0.0.1", 0), 100);
        }
    }

    private void subscribe(Subscription s) {
        s.handle()[0] = host.subscribeRemote(s.link(), 0, s.remote(), s.local(), DURABILITY);
        s.since()[0] = System.nanoTime();
    }

    /**
     * A board that was still starting when the host subscribed never saw the append (a datagram to a
     * closed port, or a pty nobody read yet); one that is up answers. Re-send what is unanswered
     * after two seconds, and drop what the board refused (a vertex this board does not have).
     */
    private void resubscribeStragglers() {
        RemoteClient client = host.node().remote();
        for (Subscription s : subscriptions) {
            int h = s.handle()[0];
            if (h < 0) {
                continue;
            }
            int state = host.onNodeThread(() -> client.state(h));
            if (state == RemoteClient.REFUSED) {
                host.onNodeThread(() -> {
                    client.forget(h);
                    return null;
                });
                s.handle()[0] = -1;
            } else if (state != RemoteClient.ACKED && System.nanoTime() - s.since()[0] > TimeUnit.SECONDS.toNanos(2)) {
                host.onNodeThread(() -> {
                    client.forget(h);
                    return null;
                });
                subscribe(s);
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

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                out.println("demo: while stopping: " + e);
            }
        }
        resources.clear();
        if (ownWorkDir && workDir != null) {
            try (var files = Files.list(workDir)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(p);
                }
                Files.deleteIfExists(workDir);
            } catch (IOException e) {
                // a temp dir
            }
        }
        out.flush();
    }
}
