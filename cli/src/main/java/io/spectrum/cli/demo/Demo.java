package io.spectrum.cli.demo;

import io.spectrum.link.serial.pty.PtyPair;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.host.runtime.HostService;
import io.spectrum.link.Link;
import io.spectrum.time.SystemClock;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code spectrum demo}: a host node in this JVM and emulated boards in their own JVMs, linked by
 * pseudo-terminal pairs ({@link PtyPair}: the serial link: COBS framing + CRC-32C) or by UDP loopback. The host
 * side is {@link HostService}: each board mounted as /boardN (its vertices at /boardN/temp ...),
 * a terminal view of every board vertex found (it subscribes to what it shows) printing new values
 * once a second, and the dashboard. Suspending the "view" subscriber of a vertex in the dashboard
 * silences it in the terminal.
 */
public final class Demo implements AutoCloseable {
    /** What to run. */
    public record Options(int boards, boolean forceUdp, long durationSeconds, int dashboardPort,
                          boolean ansi, List<String> boardCommand, Path workDir, int clientPort) {
        /** The clients' port README's {@code ls}/{@code read}/{@code sub} lines name. */
        public static final int DEFAULT_CLIENT_PORT = 7701;
    }

    private final Options options;
    private final PrintWriter out;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final CountDownLatch stop = new CountDownLatch(1);
    private HostService service;
    private Path workDir;
    private boolean ownWorkDir;

    /** A demo with {@code options}, printing to {@code out}; nothing starts until {@link #run()}. */
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
                service.tick();
            }
            service.flush();
            out.println("demo: stopping (boards, pseudo-terminals, dashboard)");
            out.flush();
            return 0;
        } finally {
            close();
        }
    }

    /** Makes {@link #run()} close everything and return; safe from any thread (a shutdown hook, a test). */
    public void stop() {
        stop.countDown();
    }

    private void start() throws IOException {
        if (options.workDir() != null) {
            workDir = Files.createDirectories(options.workDir());
        } else {
            workDir = Files.createTempDirectory("spectrum-demo-");
            ownWorkDir = true;
        }
        String noPty = PtyPair.unavailableReason();
        boolean serial = !options.forceUdp() && noPty == null;
        out.printf("Spectrum demo: a host and %d emulated boards (separate JVMs) linked %s%n", options.boards(),
                serial ? "by pseudo-terminal pairs (serial link: COBS framing + CRC-32C)"
                        : "over UDP loopback" + (options.forceUdp() ? "" : " (" + noPty + ")"));
        out.flush();

        List<HostService.Board> boards = new ArrayList<>();
        for (int i = 1; i <= options.boards(); i++) {
            String name = "board" + i;
            List<String> args = new ArrayList<>(options.boardCommand());
            args.addAll(List.of("--name", name, "--exit-with-stdin")); // a board never outlives the demo
            Link link;
            if (serial) {
                PtyPair pty = new PtyPair(workDir, name);
                resources.add(pty);
                args.addAll(List.of("--serial", pty.boardEnd().toString(), "--baud", "115200"));
                link = LinkSpec.serial(i, pty.hostEnd().toString(), 115200, LinkSpec.DEFAULT_PING_MILLIS,
                        LinkSpec.DEFAULT_TIMEOUT_MILLIS, SystemClock.INSTANCE);
            } else {
                int port = freeUdpPort();
                args.addAll(List.of("--udp", "127.0.0.1:" + port));
                link = LinkSpec.udpDial(i, "127.0.0.1:" + port, LinkSpec.DEFAULT_PING_MILLIS,
                        LinkSpec.DEFAULT_TIMEOUT_MILLIS, SystemClock.INSTANCE);
            }
            ChildJvm board = new ChildJvm(name, List.of("-Xmx64m", "-XX:+UseSerialGC"), args, line -> {
                synchronized (out) {
                    out.println(line);
                    out.flush();
                }
            });
            resources.add(board);
            boards.add(new HostService.Board(name, link));
            out.printf("  %s: pid %d, %s%n", name, board.pid(), link.name());
        }
        Link clients = clientListener(options.boards() + 1);
        service = new HostService("spectrum demo host", boards, List.of(clients),
                options.dashboardPort(), options.ansi(), out).terminalShowsBoards(true);
        resources.add(service);
        service.start();
        // the host's Prometheus listener, as spectrum host serves it (docs/grafana/spectrum.json shows these boards)
        io.spectrum.host.metrics.MetricsServer metrics = io.spectrum.host.metrics.MetricsServer.startOrAnyPort(
                new java.net.InetSocketAddress("127.0.0.1", io.spectrum.host.HostConfig.DEFAULT_METRICS_PORT), service.runtime(),
                io.spectrum.host.view.FabricView.NONE, out::println);
        resources.add(metrics);
        out.println("metrics: " + metrics.url());
        out.println(options.durationSeconds() > 0 ? "running for " + options.durationSeconds() + " s" : "Ctrl-C stops the demo");
        out.flush();
    }

    /**
     * The host's UDP listener for clients on 127.0.0.1 ({@code spectrum ls/read/sub --peer}): the port
     * asked for, else (busy) any free one; either way the address is printed.
     */
    private Link clientListener(int id) throws IOException {
        int port = options.clientPort();
        if (port != 0 && !udpPortFree(port)) {
            out.printf("port %d is busy; clients reach the host on a free port instead%n", port);
            port = 0;
        }
        Link link = LinkSpec.udpListen(id, "127.0.0.1:" + port, LinkSpec.DEFAULT_PING_MILLIS,
                LinkSpec.DEFAULT_TIMEOUT_MILLIS, SystemClock.INSTANCE);
        String address = link.name().substring(link.name().indexOf(' ') + 1); // "udp HOST:PORT"
        out.printf("clients: udp %s (spectrum ls --peer %s)%n", address, address);
        return link;
    }

    private static boolean udpPortFree(int port) {
        try (DatagramSocket s = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
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
