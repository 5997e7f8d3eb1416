package io.spectrum.cli;

import io.spectrum.board.Board;
import io.spectrum.board.LinkSpec;
import io.spectrum.host.MiniHost;
import io.spectrum.link.Link;
import io.spectrum.time.SystemClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code spectrum host}: a minimal host that connects to boards ({@code --peer HOST:PORT} dials a
 * board's UDP listener, {@code --serial DEVICE --baud N} opens its serial line), subscribes to their
 * vertices and prints every update; it re-subscribes by itself when a board comes back.
 */
@Command(name = "host", mixinStandardHelpOptions = true,
        description = "Connect to boards, subscribe to their vertices and print updates.")
public final class HostCommand implements Callable<Integer> {
    @Option(names = "--peer", paramLabel = "HOST:PORT", description = "A board's UDP address (repeatable).")
    List<String> peers = new ArrayList<>();

    @Option(names = "--serial", paramLabel = "DEVICE", description = "A board's serial device (repeatable).")
    List<String> serials = new ArrayList<>();

    @Option(names = "--baud", defaultValue = "115200", description = "Serial baud rate (8N1). Default: ${DEFAULT-VALUE}.")
    int baud;

    @Option(names = "--path", paramLabel = "PATH", description = "Vertex to subscribe on every board (repeatable; "
            + "default /board/temp /board/humidity /board/counter /board/led /board/name).")
    List<String> paths = new ArrayList<>();

    @Option(names = "--name", defaultValue = "host", description = "Host name.")
    String name;

    @Option(names = "--ping", paramLabel = "MS", defaultValue = "1000", description = "Probe a quiet board after this long.")
    long pingMillis;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "5000", description = "Report a silent board down after this long.")
    long timeoutMillis;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0", description = "Stop after this long (0: until Ctrl-C).")
    double duration;

    @Option(names = "--exit-with-stdin", description = "Stop when stdin closes (for a parent process).")
    boolean exitWithStdin;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (peers.isEmpty() && serials.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --peer HOST:PORT or --serial DEVICE");
        }
        List<String> watch = paths.isEmpty()
                ? List.of(Board.TEMP.toString(), Board.HUMIDITY.toString(), Board.COUNTER.toString(),
                        Board.LED.toString(), Board.NAME.toString())
                : paths;
        PrintWriter out = spec.commandLine().getOut();
        MiniHost host = new MiniHost(name, (board, path, value, seq, stale) -> {
            out.println(board + " " + path + " = " + value + (stale ? " (stale)" : ""));
            out.flush();
        });
        int id = 1;
        List<String> names = new ArrayList<>();
        try {
            for (String p : peers) {
                Link l = LinkSpec.udpDial(id++, p, pingMillis, timeoutMillis, SystemClock.INSTANCE);
                host.addBoard(l, watch);
                names.add(l.name());
            }
            for (String s : serials) {
                Link l = LinkSpec.serial(id++, s, baud, pingMillis, timeoutMillis, SystemClock.INSTANCE);
                host.addBoard(l, watch);
                names.add(l.name());
            }
        } catch (IllegalArgumentException | java.io.IOException e) {
            host.close();
            spec.commandLine().getErr().println("spectrum host: cannot open a link: " + e.getMessage());
            return 2;
        }
        host.start();
        out.println(name + " ready on " + String.join(", ", names));
        out.flush();
        NodeProcess.runUntilStopped(host, duration, exitWithStdin);
        out.println(name + " stopped");
        out.flush();
        return 0;
    }
}
