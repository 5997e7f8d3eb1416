package io.spectrum.cli;

import io.spectrum.board.Board;
import io.spectrum.link.Link;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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

    @Option(names = "--name", defaultValue = "board", description = "Board name, published as /board/name.")
    String name;

    @Option(names = "--period", paramLabel = "MS", defaultValue = "250", description = "Update period of the demo values.")
    long periodMillis;

    @Mixin
    LinkOptions linkOptions;

    @Mixin
    RunOptions run;

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
            link = udp != null ? linkOptions.udpListen(1, udp)
                    : peer != null ? linkOptions.udpDial(1, peer)
                    : linkOptions.serial(1, serial);
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
        NodeProcess.runUntilStopped(board, run.duration, run.exitWithStdin);
        out.println(name + " stopped");
        out.flush();
        return 0;
    }
}
