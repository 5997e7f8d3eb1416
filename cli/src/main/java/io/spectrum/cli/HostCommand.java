package io.spectrum.cli;

import io.spectrum.cli.options.HistoryOptions;
import io.spectrum.cli.options.HostBusFlags;
import io.spectrum.cli.options.LinkOptions;
import io.spectrum.cli.options.MqttOptions;
import io.spectrum.cli.options.RunOptions;
import io.spectrum.cli.output.BoardStates;
import io.spectrum.host.Host;
import io.spectrum.host.HostConfig;
import io.spectrum.host.HostFile;
import io.spectrum.host.HostFileError;
import io.spectrum.runtime.NodeProcess;
import io.spectrum.host.runtime.HostService;
import io.spectrum.host.runtime.MountSpec;
import io.spectrum.time.Clock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code spectrum host}: mounts boards by name ({@code --peer [NAME=]HOST:PORT} dials a board's UDP
 * listener, {@code --serial [NAME=]DEVICE --baud N} opens its serial line; {@code --top} gives the
 * top-level names of a board whose root cannot be listed), routes clients' requests under
 * {@code /NAME} to them, serves subscriptions itself, prints what it holds, serves the dashboard
 * ({@link HostService}), and answers clients on {@code --udp}. With {@code --bus PATH} it also runs
 * the host bus on that Unix socket ({@link HostBusFlags}). It only turns its options (or the host
 * file of {@code --config}) into a {@link HostConfig}, starts the {@link Host} and prints.
 */
@Command(name = "host", mixinStandardHelpOptions = true, sortOptions = false, subcommands = HostInstallCommand.class,
        description = {"Run the host node with the dashboard.",
                "Mounts boards reached by serial or UDP under their names: every vertex of a board is /NAME/<its own "
                        + "path> through the host (nothing to configure per vertex). A board without a name given is "
                        + "board1, board2, ... (in the order given: --peer first, then --serial). Clients on --udp "
                        + "list, read, write, subscribe and tap any board path there; the host forwards reads and "
                        + "writes to the board and serves subscriptions itself, subscribing on the board once per "
                        + "vertex while someone listens. Prints the values it holds and serves the dashboard on "
                        + "127.0.0.1. Ctrl-C stops it.",
                "",
                "Examples:",
                "  spectrum host --serial /dev/ttyUSB0 --baud 115200",
                "  spectrum host --peer kitchen=192.168.1.20:7700 --udp :7701",
                "  spectrum host --peer ref=127.0.0.1:47100 --top ref=/sensor,/cfg --udp :7701",
                "  spectrum host --bus $XDG_RUNTIME_DIR/spectrum/bus.sock --grants grants.yaml",
                "      (the host bus for programs on this host; spectrum call/services/artifact: docs/bus.md)",
                "  spectrum host --peer kitchen=192.168.1.20:7700 --mqtt mqtt://broker.lan --mqtt-view",
                "      (bridged to MQTT; the dashboard shows the other bridged hosts too: docs/mqtt.md)",
                "  spectrum host --config host.yaml              (the same settings from a host file: docs/host.md)",
                "  spectrum ls --peer 127.0.0.1:7701            (every board's tree)",
                "  spectrum sub --peer 127.0.0.1:7701 /kitchen/temp",
                "(--udp :PORT listens on 127.0.0.1; 0.0.0.0:PORT exposes the host to every network it is on and "
                        + "prints what that allows; see docs/security.md)", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "2:bad arguments, or a link could not be opened (a serial device that does not "
                + "exist, an address in use)"},
        footer = {"", "As boards come and go it prints 'board1 up' and 'board1 down (no answer for 5 s)'; a board that "
                + "never answers is warned about after --timeout."})
public final class HostCommand implements Callable<Integer> {
    @Option(names = "--peer", paramLabel = "[NAME=]HOST:PORT",
            description = "A board's UDP address HOST:PORT, or its link URI (docs/links.md): tcp://HOST:PORT for a "
                    + "node's TCP listener (libtracer's TCP transport), dtls://HOST:PORT, "
                    + "serial:///DEVICE?baud=N; mounted as /NAME (repeatable; default name boardN).")
    List<String> peers = new ArrayList<>();

    @Option(names = "--serial", paramLabel = "[NAME=]DEVICE",
            description = "A board's serial device (or serial:///DEVICE?baud=N, which overrides --baud), mounted as "
                    + "/NAME (repeatable; default name boardN).")
    List<String> serials = new ArrayList<>();

    @Option(names = "--top", paramLabel = "NAME=/A,/B",
            description = "The top-level vertices of board NAME, for a board whose root cannot be listed (e.g. a "
                    + "libtracer reference node: --top ref=/sensor,/cfg); the host lists them as /NAME's children "
                    + "and walks below them (repeatable).")
    List<String> tops = new ArrayList<>();

    @Mixin
    LinkOptions linkOptions;

    @Option(names = "--udp", paramLabel = "HOST:PORT",
            description = "Also listen on UDP there for clients (spectrum ls/read/write/sub/tap --peer). A bare :PORT "
                    + "binds 127.0.0.1; udp://HOST:PORT and dtls://HOST:PORT?keys=DIR&name=NAME are link URIs.")
    String udp;

    @Option(names = "--tcp", paramLabel = "HOST:PORT",
            description = "Also listen on TCP there (libtracer's TCP transport: clients with --peer tcp://HOST:PORT, "
                    + "and libtracer nodes that dial in). A bare :PORT binds 127.0.0.1.")
    String tcp;

    @Option(names = "--grants", paramLabel = "FILE",
            description = "What each client name may do (YAML; docs/host.md, \"The grants file\"): on the node through "
                    + "--udp/--tcp (publish = write, subscribe = read and subscribe, by path: /lab/*) and on the bus "
                    + "(by topic: camera.*). A client's name is its DTLS certificate's, or the one it announces "
                    + "(spectrum.name; a bus client's --name); others are anonymous. Without it every client may "
                    + "do everything.")
    String grants;

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "host", description = "Host name (shown on the dashboard).")
    String name;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080",
            description = "Dashboard port on 127.0.0.1 (default: ${DEFAULT-VALUE}; a free one if busy; 0 = any).")
    int port;

    @Option(names = "--no-dashboard", description = "Do not serve the dashboard.")
    boolean noDashboard;

    @Option(names = "--metrics", paramLabel = "[HOST:]PORT",
            description = "Serve GET /metrics (Prometheus) there, on a listener of its own that serves nothing else "
                    + "(default: " + io.spectrum.host.HostConfig.DEFAULT_METRICS + ", a free port if busy; a bare PORT "
                    + "binds 127.0.0.1; none: no metrics listener). While scraped, the host holds every board value: docs/host.md, \"Metrics\".")
    String metrics;

    @Option(names = "--table", description = "Redraw a table in place (the default on a terminal).")
    boolean table;

    @Option(names = "--lines", description = "Print new values as lines (the default when not a terminal).")
    boolean lines;

    @Mixin
    RunOptions run;

    /** {@code --bus PATH} and its options: the host bus beside the node (docs/bus.md). */
    @Mixin
    HostBusFlags bus;

    /** {@code --mqtt URL}: the bridge of {@code spectrum bridge}, run in this process as a client of this host. */
    @Mixin
    MqttOptions mqtt;

    /** {@code --state-dir DIR}, {@code --history FILE|none} and the history's other options. */
    @Mixin
    HistoryOptions history;

    @Option(names = "--mqtt-view",
            description = "With --mqtt: the dashboard also shows the other hosts' trees as the broker holds them "
                    + "(read-only, live, with their $online).")
    boolean mqttView;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Read the host's settings from this host file (YAML, the options' names as keys, boards as "
                    + "mounts: docs/host.md, \"The host file\") instead of options; --table, --lines, --duration and "
                    + "--exit-with-stdin still apply.")
    String configFile;

    /** The options a host file replaces (everything but how the terminal prints and how long the process runs). */
    private static final java.util.Set<String> PRINTING = java.util.Set.of("--config", "--table", "--lines", "--duration",
            "--exit-with-stdin", "--help", "-h", "--version", "-V");

    /**
     * The mount name of each board in order (--peer first, then --serial): the one given, else
     * {@code boardN} by its position; a name given twice is a usage error.
     */
    private List<String> mountNames(List<MountSpec.Named> peerSpecs, List<MountSpec.Named> serialSpecs) {
        List<MountSpec.Named> all = new ArrayList<>(peerSpecs);
        all.addAll(serialSpecs);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            String n = all.get(i).name() != null ? all.get(i).name() : "board" + (i + 1);
            if (names.contains(n)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "two boards are named " + n
                        + "; give each its own NAME= (--peer NAME=HOST:PORT, --serial NAME=DEVICE)");
            }
            names.add(n);
        }
        return names;
    }

    /** The host's configuration from the options; a bad one is a usage error (exit 2) with the reason. */
    private HostConfig fromOptions(CommandLine cl) {
        List<MountSpec.Named> peerSpecs = new ArrayList<>();
        List<MountSpec.Named> serialSpecs = new ArrayList<>();
        Map<String, List<String>> top = new LinkedHashMap<>();
        try {
            for (String p : peers) {
                peerSpecs.add(MountSpec.parse(p));
            }
            for (String s : serials) {
                serialSpecs.add(MountSpec.parse(s));
            }
            for (String t : tops) {
                MountSpec.Top parsed = MountSpec.top(t);
                top.put(parsed.mount(), parsed.names());
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
        List<String> names = mountNames(peerSpecs, serialSpecs);
        for (String t : top.keySet()) {
            if (!names.contains(t)) {
                throw new CommandLine.ParameterException(cl, "--top " + t + "=...: no board is mounted as " + t
                        + " (the boards are " + String.join(", ", names) + ")");
            }
        }
        HostConfig.Builder b = HostConfig.builder().name(name).udp(udp).tcp(tcp).grants(grants).dashboard(noDashboard ? HostConfig.NO_DASHBOARD : port)
                .mqttView(mqttView);
        int i = 0;
        for (MountSpec.Named p : peerSpecs) {
            String n = names.get(i++);
            b.mount(HostConfig.Mount.udp(n, p.address(), top.getOrDefault(n, List.of())));
        }
        for (MountSpec.Named s : serialSpecs) {
            String n = names.get(i++);
            b.mount(HostConfig.Mount.serial(n, s.address(), top.getOrDefault(n, List.of())));
        }
        if (metrics != null) {
            b.metrics(metrics);
        }
        linkOptions.into(b);
        bus.into(b);
        mqtt.into(b);
        history.into(b);
        try {
            return b.build();
        } catch (HostConfig.Invalid e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
    }

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        if (table && lines) {
            throw new CommandLine.ParameterException(cl, "--table and --lines exclude each other");
        }
        double duration = run.duration;
        if (duration < 0) {
            throw new CommandLine.ParameterException(cl, "--baud, --ping and --timeout must be positive, --port 0..65535, --duration >= 0");
        }
        HostConfig config;
        if (configFile != null) {
            List<String> both = cl.getParseResult().matchedOptions().stream().map(o -> o.longestName())
                    .filter(o -> !PRINTING.contains(o)).distinct().toList();
            if (!both.isEmpty()) {
                throw new CommandLine.ParameterException(cl, "--config " + configFile + " holds the host's settings; give "
                        + String.join(", ", both) + " in the file instead");
            }
            try {
                config = HostFile.read(Path.of(configFile));
            } catch (HostFileError e) {
                cl.getErr().println("spectrum host: " + e.getMessage());
                cl.getErr().flush();
                return 2;
            }
        } else {
            config = fromOptions(cl);
        }
        PrintWriter out = cl.getOut();
        boolean ansi = table || !lines && System.console() != null && !"dumb".equals(System.getenv("TERM"));
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
        Host host = null;
        try {
            try {
                host = Host.start(config, out, cl.getErr(), ansi);
            } catch (Host.StartFailure e) {
                cl.getErr().println("spectrum host: " + e.getMessage());
                cl.getErr().flush();
                return 2;
            }
            Runtime.getRuntime().addShutdownHook(hook);
            if (run.exitWithStdin) {
                NodeProcess.watchStdin(stop);
            }
            Clock clock = config.clock();
            long end = duration > 0 ? clock.nanoTime() + (long) (duration * 1e9) : Long.MAX_VALUE;
            BoardStates states = new BoardStates(host.boards(), config.timeoutMillis(), clock.nanoTime());
            while (clock.nanoTime() - end < 0 && !stop.await(1, TimeUnit.SECONDS)) {
                host.tick();
                states.print(host.runtime().snapshot().links(), clock.nanoTime(), out);
            }
            host.flush();
            out.println(config.name() + " stopped");
            out.flush();
            return 0;
        } finally {
            if (host != null) {
                host.close();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // already shutting down
                }
            }
            finished.countDown();
        }
    }
}
