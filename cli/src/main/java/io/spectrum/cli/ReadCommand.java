package io.spectrum.cli;

import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code spectrum read --peer HOST:PORT PATH...}: the last-known value of each path. */
@Command(name = "read", mixinStandardHelpOptions = true,
        description = {"Read the last-known value of paths on a running node.",
                "",
                "Example: spectrum read --peer 127.0.0.1:7700 /board/temp", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every path answered", "1:a path was refused (the reason is printed)", "2:bad arguments"})
public final class ReadCommand implements Callable<Integer> {
    @Mixin
    PeerOptions peer;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Vertex paths, e.g. /board/temp.")
    List<String> paths;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int rc = 0;
        try (PeerClient c = peer.connect(spec.commandLine())) {
            for (String p : paths) {
                Reply r;
                try {
                    r = c.read(p);
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "bad path '" + p + "': " + e.getMessage());
                }
                rc |= r.ok() ? 0 : 1;
                if (peer.json) {
                    out.println(ClientOutput.json(p, r));
                } else {
                    out.println(p + " = " + (r.ok() ? ClientOutput.text(r.value()).text() : ClientOutput.refusal(r, peer.peer)));
                }
            }
        }
        out.flush();
        return rc;
    }
}
