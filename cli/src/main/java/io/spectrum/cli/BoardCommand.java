package io.spectrum.cli;

import io.spectrum.board.BoardMain;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code spectrum board}: the demo board that a flashed board runs ({@link BoardMain}), started from
 * the host's command line. Its options are the board's own ({@code spectrum board --help}), parsed by
 * {@link BoardMain} so the command and the board bundle accept exactly the same arguments.
 */
@Command(name = "board", description = "Run a NARROW board node on a UDP or serial link: a board file's vertices (--config FILE, docs/board.md) or the demo board (--help lists its options).")
public final class BoardCommand implements Callable<Integer> {
    @Unmatched
    List<String> args = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        return BoardMain.run(args.toArray(new String[0]), spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
