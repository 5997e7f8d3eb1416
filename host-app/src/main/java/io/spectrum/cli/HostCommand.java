package io.spectrum.cli;

import io.spectrum.host.runtime.HostService;
import io.spectrum.link.Link;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code spectrum host}: the host node on real links, with the live view and the dashboard. */
@Command(name = "host", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the host node with the dashboard.",
                "Connects to boards by serial or UDP, mirrors their vertices under /board1, /board2, ... (in the "
                        + "order given: --serial first, then --peer), prints new values and serves the dashboard "
                        + "on 127.0.0.1. Ctrl-C stops it.",
                "",
                "Examples:",
                "  spectrum host --serial /dev/ttyUSB0 --baud 115200",
                "  spectrum host --peer 192.168.1.20:7700 --udp 0.0.0.0:7701", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "1:a link could not be opened", "2:bad arguments"})
public final class HostCommand implements Callable<Integer> {
    @Option(names = "--serial", paramLabel = "DEVICE", description = "A board on this serial port (repeatable).")
    List<String> serial = new ArrayList<>();

    @Option(names = "--baud", paramLabel = "N", defaultValue = "115200", description = "Serial baud rate (default: ${DEFAULT-VALUE}).")
    int baud;

    @Option(names = "--peer", paramLabel = "HOST:PORT", description = "A board listening on UDP there (repeatable).")
    List<String> peers = new ArrayList<>();

    @Option(names = "--udp", paramLabel = "HOST:PORT",
            description = "Also listen on UDP there for clients (spectrum ls/read/write/sub/tap --peer).")
    String udp;

    @Option(names = "--mirror", paramLabel = "PATH", split = ",",
            description = "Board vertices to mirror (default: /board/temp,/board/humidity,/board/counter,/board/led,/board/name).")
    List<String> mirror;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080",
            description = "Dashboard port on 127.0.0.1 (default: ${DEFAULT-VALUE}; a free one if busy; 0 = any).")
    int port;

    @Option(names = "--no-dashboard", description = "Do not serve the dashboard.")
    boolean noDashboard;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0", description = "Stop after this many seconds (default: run until Ctrl-C).")
    long duration;

    @Option(names = "--table", description = "Redraw a table in place (the default on a terminal).")
    boolean table;

    @Option(names = "--lines", description = "Print new values as lines (the default when not a terminal).")
    boolean lines;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        if (serial.isEmpty() && peers.isEmpty() && udp == null) {
            throw new CommandLine.ParameterException(cl, "nothing to connect: give --serial DEVICE, --peer HOST:PORT or --udp HOST:PORT");
        }
        if (table && lines) {
            throw new CommandLine.ParameterException(cl, "--table and --lines exclude each other");
        }
        if (baud <= 0 || port < 0 || port > 65535 || duration < 0) {
            throw new CommandLine.ParameterException(cl, "--baud must be positive, --port 0..65535, --duration >= 0");
        }
        PrintWriter out = cl.getOut();
        List<HostService.Board> boards = new ArrayList<>();
        List<Link> clients = new ArrayList<>();
        int id = 1;
        try {
            for (String dev : serial) {
                SerialLink link = SerialLink.open(id, dev, new SerialLinkConfig().baud(baud), SystemClock.INSTANCE);
                boards.add(new HostService.Board("board" + id++, link));
            }
            for (String p : peers) {
                boards.add(new HostService.Board("board" + id, UdpLink.dial(id++, parse(cl, "--peer", p), new UdpLinkConfig(), SystemClock.INSTANCE)));
            }
            if (udp != null) {
                clients.add(UdpLink.listen(id, parse(cl, "--udp", udp), new UdpLinkConfig(), SystemClock.INSTANCE));
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof CommandLine.ParameterException pe) {
                throw pe;
            }
            boards.forEach(b -> b.link().close());
            clients.forEach(Link::close);
            cl.getErr().println("spectrum host: cannot open a link: " + e.getMessage());
            cl.getErr().flush();
            return 1;
        }
        for (HostService.Board b : boards) {
            out.printf("%s: %s%n", b.name(), b.link().name());
        }
        for (Link l : clients) {
            out.printf("clients: %s (spectrum ls --peer ...)%n", l.name());
        }
        boolean ansi = table || !lines && System.console() != null && !"dumb".equals(System.getenv("TERM"));
        HostService service = new HostService("spectrum host", boards, clients,
                mirror == null || mirror.isEmpty() ? HostService.DEFAULT_MIRROR : mirror,
                noDashboard ? -1 : port, ansi, out);
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                finished.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "host-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            service.start();
            long end = duration > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(duration) : Long.MAX_VALUE;
            while (System.nanoTime() < end && !stop.await(1, TimeUnit.SECONDS)) {
                service.tick();
            }
            service.flush();
            out.println("host: stopping");
            out.flush();
            return 0;
        } finally {
            service.close();
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
    }

    private static java.net.InetSocketAddress parse(CommandLine cl, String option, String value) {
        try {
            return UdpLink.parseHostPort(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, option + " " + value + ": " + e.getMessage() + " (e.g. 127.0.0.1:7700)");
        }
    }
}
