package io.spectrum.cli;

import io.spectrum.board.BoardMain;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code spectrum replay FILE --as NAME [--speed X] (--udp … | --peer … | --serial …)}: a board node
 * ({@link BoardMain}, the same link options as {@code spectrum board}) that republishes a recording
 * ({@link ReplayProgram}).
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Run a board that republishes a recording of 'spectrum record' at its original pace (or --speed times faster).",
                "The board takes the link options of 'spectrum board' (--udp HOST:PORT | --peer HOST:PORT | --serial DEVICE, "
                        + "--baud, --ping, --timeout, --frame, --duration, ...). A path recorded through a host that "
                        + "mounted the board as NAME loses that name (/board1/temp --as board1 is the board's /temp, which "
                        + "a host mounting it as board1 shows as /board1/temp again); a path recorded from a board is kept whole. "
                        + "Vertices are "
                        + "declared from the recording. The pace starts when every recorded vertex has a subscriber (a host mounting "
                        + "the board), or 3 s after the first one has, unless --no-wait.",
                "",
                "Example: spectrum replay demo.jsonl --as board1 --udp 127.0.0.1:7701", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "2:bad arguments, an unreadable recording, or a link that cannot be opened"})
public final class ReplayCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "A recording (JSON lines of 'spectrum record').")
    Path file;

    @Option(names = "--as", paramLabel = "NAME", required = true, description = "The board's name.")
    String as;

    @Option(names = "--speed", paramLabel = "X", defaultValue = "1", description = "Replay X times faster (default: ${DEFAULT-VALUE}, the original pace).")
    double speed;

    @Option(names = "--no-wait", description = "Start the pace at once instead of when subscribed.")
    boolean noWait;

    @Unmatched
    List<String> boardArgs = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ReplayProgram program;
        try {
            program = ReplayProgram.load(file, as, speed, !noWait);
        } catch (IOException e) {
            err.println("replay: cannot read " + file + ": " + e.getMessage());
            err.flush();
            return 2;
        } catch (IllegalArgumentException e) {
            err.println("replay: " + file + ": " + e.getMessage());
            err.flush();
            return 2;
        }
        List<String> args = new ArrayList<>(boardArgs);
        args.add("--name");
        args.add(as);
        out.println("replaying " + program.items().size() + " values from " + file + " as " + as
                + (speed == 1 ? "" : " at " + speed + "x") + (noWait ? "" : " (starting when subscribed)"));
        out.flush();
        int code = BoardMain.run(args.toArray(new String[0]), out, err, name -> program);
        if (program.refused() > 0) {
            err.println("replay: " + program.refused() + " values did not fit their declaration and were not published");
            err.flush();
        }
        return code;
    }
}
