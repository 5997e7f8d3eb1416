package io.spectrum.cli;

import io.spectrum.board.Board;
import io.spectrum.board.LinkSpec;
import io.spectrum.link.Link;
import io.spectrum.time.SystemClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code spectrum board}: a NARROW node with demo vertices (/board/temp, /board/humidity,
 * /board/counter updated every period, /board/led writable, /board/name) on a UDP or serial link.
 */
@Command(name = "board", mixinStandardHelpOptions = true,
        description = "Run a NARROW board node with demo vertices on a UDP or serial link.")
public final class BoardCommand implements Callable<Integer> {
    @Option(names = "--udp", paramLabel = "HOST:PORT", description = "Bind and listen on UDP (hosts learn us by dialing).")
    String udp;

    @Option(names = "--peer", paramLabel = "HOST:PORT", description = "Dial a UDP listener instead.")
    String peer;

    @Option(names = "--serial", paramLabel = "DEVICE", description = "Serial device (e.g. /dev/ttyUSB0 or a pty).")
    String serial;

    @Option(names = "--baud", defaultValue = "115200", description = "Serial baud rate (8N1). Default: ${DEFAULT-VALUE}.")
    int baud;

    @Option(names = "--name", defaultValue = "board", description = "Board name, published as /board/name.")
    String name;

    @Option(names = "--period", paramLabel = "MS", defaultValue = "250", description = "Update period of the demo values.")
    long periodMillis;

    @Option(names = "--ping", paramLabel = "MS", defaultValue = "1000", description = "Probe a quiet peer after this long.")
    long pingMillis;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "5000", description = "Report a silent peer down after this long.")
    long timeoutMillis;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0", description = "Stop after this long (0: until Ctrl-C).")
    double duration;

    @Option(names = "--exit-with-stdin", description = "Stop when stdin closes (for a parent process).")
    boolean exitWithStdin;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        int given = (udp != null ? 1 : 0) + (peer != null ? 1 : 0) + (serial != null ? 1 : 0);
        if (given != 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "give exactly one of --udp HOST:PORT, --peer HOST:PORT, --serial DEVICE");
        }
        Link link;
        try {
            link = udp != null ? LinkSpec.udpListen(1, udp, pingMillis, timeoutMillis, SystemClock.INSTANCE)
                    : peer != null ? LinkSpec.udpDial(1, peer, pingMillis, timeoutMillis, SystemClock.INSTANCE)
                    : LinkSpec.serial(1, serial, baud, pingMillis, timeoutMillis, SystemClock.INSTANCE);
        } catch (IllegalArgumentException | java.io.IOException e) {
            spec.commandLine().getErr().println("spectrum board: cannot open the link: " + e.getMessage());
            return 2;
        }
        Board board = new Board(name, periodMillis);
        board.attach(link);
        board.start();
        PrintWriter out = spec.commandLine().getOut();
        out.println(name + " ready on " + link.name());
        out.flush();
        NodeProcess.runUntilStopped(board, duration, exitWithStdin);
        out.println(name + " stopped");
        out.flush();
        return 0;
    }
}
