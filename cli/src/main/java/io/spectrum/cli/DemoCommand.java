package io.spectrum.cli;

import io.spectrum.cli.demo.Demo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code spectrum demo}: host + emulated boards, live terminal view and dashboard, no hardware. */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a host and two emulated boards here; no hardware needed.",
                "Each board is its own JVM running the board node, linked to the host through a pair of "
                        + "pseudo-terminals (the serial link) on Linux, over UDP loopback otherwise. "
                        + "Prints new values every second and the dashboard's address; Ctrl-C stops everything.",
                ""},
        footer = {"", "In the dashboard, Suspend on the \"terminal view\" subscriber of /board1 silences board1 here."})
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0",
            description = "Stop after this many seconds (default: run until Ctrl-C).")
    long duration;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080",
            description = "Dashboard port on 127.0.0.1 (default: ${DEFAULT-VALUE}, a free one if that is busy; 0 = any). "
                    + "A port given here that is busy is an error.")
    int port;

    @Option(names = "--clients", paramLabel = "PORT", defaultValue = "" + Demo.Options.DEFAULT_CLIENT_PORT,
            description = "UDP port on 127.0.0.1 where clients (spectrum ls/read/sub --peer) reach the host (default: "
                    + "${DEFAULT-VALUE}, a free one if that is busy, printed; 0 = any).")
    int clients;

    @Option(names = "--udp", description = "Link the boards over UDP loopback instead of pseudo-terminals.")
    boolean udp;

    @Option(names = "--boards", paramLabel = "N", defaultValue = "2", description = "Number of emulated boards (default: ${DEFAULT-VALUE}).")
    int boards;

    @Option(names = "--table", description = "Redraw a table in place (the default when the output is a terminal).")
    boolean table;

    @Option(names = "--lines", description = "Print new values as lines (the default when the output is not a terminal).")
    boolean lines;

    @Option(names = "--work-dir", hidden = true, description = "Where the pty links go (tests).")
    Path workDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (duration < 0 || boards < 1 || boards > 8 || port < 0 || port > 65535 || clients < 0 || clients > 65535) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--duration must be >= 0, --boards 1..8, --port and --clients 0..65535");
        }
        if (port != 0 && spec.commandLine().getParseResult().hasMatchedOption("--port") && !tcpPortFree(port)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "port " + port
                    + " on 127.0.0.1 is in use: give another --port, or --port 0 for any free one");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (table && lines) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--table and --lines exclude each other");
        }
        boolean ansi = table || !lines && System.console() != null && !"dumb".equals(System.getenv("TERM"));
        Demo demo = new Demo(new Demo.Options(boards, udp, duration, port, ansi, boardCommand(), workDir, clients), out);
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            demo.stop();
            try {
                finished.await(10, TimeUnit.SECONDS); // let run() close boards, pseudo-terminals and the dashboard
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return demo.run();
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
    }

    /** How the demo starts an emulated board: {@code spectrum board} in its own JVM. */
    static List<String> boardCommand() {
        return List.of("board");
    }

    private static boolean tcpPortFree(int port) {
        try (java.net.ServerSocket s = new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
