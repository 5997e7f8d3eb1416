package io.spectrum.cli;

import io.spectrum.runtime.LinkNotices;
import io.spectrum.runtime.NodeProcess;
import io.spectrum.board.Board;
import io.spectrum.host.runtime.HostService;
import io.spectrum.link.Link;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code spectrum host}: connects to boards ({@code --peer HOST:PORT} dials a board's UDP listener,
 * {@code --serial DEVICE --baud N} opens its serial line), mirrors their vertices, prints updates,
 * serves the dashboard bound to the node ({@link HostService}), and answers clients on
 * {@code --udp}. The node re-subscribes by itself when a board comes back.
 */
@Command(name = "host", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the host node with the dashboard.",
                "Connects to boards by serial or UDP, mirrors their vertices under /board1, /board2, ... (in the "
                        + "order given: --peer first, then --serial), prints new values and serves the dashboard "
                        + "on 127.0.0.1. Ctrl-C stops it.",
                "",
                "Examples:",
                "  spectrum host --serial /dev/ttyUSB0 --baud 115200",
                "  spectrum host --peer 192.168.1.20:7700 --udp :7701",
                "(--udp :PORT listens on 127.0.0.1; 0.0.0.0:PORT exposes the host to every network it is on and "
                        + "prints what that allows; see docs/security.md)", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "2:bad arguments, or a link could not be opened (a serial device that does not "
                + "exist, an address in use)"},
        footer = {"", "As boards come and go it prints 'board1 up' and 'board1 down (no answer for 5 s)'; a board that "
                + "never answers is warned about after --timeout."})
public final class HostCommand implements Callable<Integer> {
    @Option(names = "--peer", paramLabel = "HOST:PORT", description = "A board's UDP address (repeatable).")
    List<String> peers = new ArrayList<>();

    @Option(names = "--serial", paramLabel = "DEVICE", description = "A board's serial device (repeatable).")
    List<String> serials = new ArrayList<>();

    @Mixin
    LinkOptions linkOptions;

    @Option(names = "--udp", paramLabel = "HOST:PORT",
            description = "Also listen on UDP there for clients (spectrum ls/read/write/sub/tap --peer). A bare :PORT "
                    + "binds 127.0.0.1.")
    String udp;

    @Option(names = "--path", paramLabel = "PATH", description = "Vertex to mirror from every board (repeatable; "
            + "default /board/temp /board/humidity /board/counter /board/led /board/name).")
    List<String> paths = new ArrayList<>();

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "host", description = "Host name (shown on the dashboard).")
    String name;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080",
            description = "Dashboard port on 127.0.0.1 (default: ${DEFAULT-VALUE}; a free one if busy; 0 = any).")
    int port;

    @Option(names = "--no-dashboard", description = "Do not serve the dashboard.")
    boolean noDashboard;

    @Option(names = "--table", description = "Redraw a table in place (the default on a terminal).")
    boolean table;

    @Option(names = "--lines", description = "Print new values as lines (the default when not a terminal).")
    boolean lines;

    @Mixin
    RunOptions run;

    /** {@code --mqtt URL}: the bridge of {@code spectrum bridge}, run in this process as a client of this host. */
    @Mixin
    MqttOptions mqtt;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        if (peers.isEmpty() && serials.isEmpty() && udp == null) {
            throw new CommandLine.ParameterException(cl, "nothing to connect: give --peer HOST:PORT, --serial DEVICE or --udp HOST:PORT");
        }
        if (table && lines) {
            throw new CommandLine.ParameterException(cl, "--table and --lines exclude each other");
        }
        double duration = run.duration;
        if (linkOptions.baud <= 0 || port < 0 || port > 65535 || duration < 0 || linkOptions.pingMillis <= 0
                || linkOptions.timeoutMillis <= 0) {
            throw new CommandLine.ParameterException(cl, "--baud, --ping and --timeout must be positive, --port 0..65535, --duration >= 0");
        }
        List<String> mirror = paths.isEmpty()
                ? List.of(Board.TEMP.toString(), Board.HUMIDITY.toString(), Board.COUNTER.toString(),
                        Board.LED.toString(), Board.NAME.toString())
                : paths;
        PrintWriter out = cl.getOut();
        List<HostService.Board> boards = new ArrayList<>();
        List<Link> clients = new ArrayList<>();
        int id = 1;
        try {
            for (String p : peers) {
                boards.add(new HostService.Board("board" + id, linkOptions.udpDial(id++, p)));
            }
            for (String s : serials) {
                boards.add(new HostService.Board("board" + id, linkOptions.serial(id++, s)));
            }
            if (udp != null) {
                clients.add(linkOptions.udpListen(id, udp));
            }
        } catch (IllegalArgumentException | IOException e) {
            boards.forEach(b -> b.link().close());
            clients.forEach(Link::close);
            cl.getErr().println("spectrum host: cannot open a link: " + e.getMessage());
            cl.getErr().flush();
            return 2;
        }
        for (HostService.Board b : boards) {
            out.printf("%s: %s%n", b.name(), b.link().name());
        }
        for (Link l : clients) {
            out.printf("clients: %s (spectrum ls --peer ...)%n", l.name());
        }
        HostBridge bridge = HostBridge.open(cl, mqtt, linkOptions, name, id + 1, clients);
        boolean ansi = table || !lines && System.console() != null && !"dumb".equals(System.getenv("TERM"));
        HostService service = new HostService(name, boards, clients, mirror, noDashboard ? -1 : port, ansi, out);
        for (Link l : clients) {
            LinkNotices.atStart(l, service.runtime().node()).forEach(cl.getErr()::println);
        }
        cl.getErr().flush();
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                finished.await(10, TimeUnit.SECONDS); // let the loop below close the dashboard, node and links
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "host-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        if (run.exitWithStdin) {
            NodeProcess.watchStdin(stop);
        }
        try {
            service.start();
            bridge.start();
            out.println(name + " ready on " + String.join(", ", boards.stream().map(b -> b.link().name()).toList()));
            out.flush();
            long end = duration > 0 ? System.nanoTime() + (long) (duration * 1e9) : Long.MAX_VALUE;
            BoardStates states = new BoardStates(boards, linkOptions.timeoutMillis, System.nanoTime());
            while (System.nanoTime() < end && !stop.await(1, TimeUnit.SECONDS)) {
                service.tick();
                states.print(service.runtime().snapshot().links(), System.nanoTime(), out);
            }
            service.flush();
            out.println(name + " stopped");
            out.flush();
            return 0;
        } finally {
            bridge.close();
            service.close();
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
    }
}
