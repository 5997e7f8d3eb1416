package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.cli.options.PeerOptions;
import io.spectrum.cli.output.ClientOutput;
import io.spectrum.cli.output.FieldAnswer;
import io.spectrum.cli.output.OutputFormat;
import io.spectrum.cli.output.ValuePrinter;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.Requests;
import io.spectrum.client.ValueLine;
import io.spectrum.client.ValueText;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code spectrum read --peer HOST:PORT PATH[:FIELD]...}: the last-known value of each path, shown
 * by the vertex's declaration ({@code 23.28 °C}), or a field of the vertex decoded.
 */
@Command(name = "read", mixinStandardHelpOptions = true,
        description = {"Read the last-known value of paths on a running node.",
                "A vertex that declares what it holds is shown in its unit (23.28 °C); --json adds value, unit, "
                        + "ucum, raw, seq and stale. A value that is not current is marked stale with the node's reason: "
                        + "/temp = 23.28 °C  (seq 5, stale: board away); in JSON \"stale\": true, \"reason\": \"board away\". PATH:FIELD reads a field of the vertex instead and prints it decoded: "
                        + ":settings.app (the vertex's declaration), :settings.app.unit (one key of it), :schema, "
                        + ":settings, :subscribers[], :children[].",
                "",
                "Example: spectrum read --peer 127.0.0.1:7700 /temp",
                "         spectrum read --peer 127.0.0.1:7700 /temp:settings.app", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every path answered", "1:a path was refused (the reason is printed)", "2:bad arguments"})
public final class ReadCommand implements Callable<Integer> {
    @Mixin
    PeerOptions peer;

    @Parameters(arity = "0..*", paramLabel = "PATH", description = "Vertex paths, e.g. /temp or /temp:settings.app.")
    List<String> paths = new ArrayList<>();

    @Option(names = {"-t", "--topic"}, paramLabel = "PATH", description = "A path to read (repeatable; as mosquitto's -t).")
    List<String> topics = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<String> paths = PeerOptions.paths(spec.commandLine(), this.paths, topics, "read", "");
        ValuePrinter printer = new ValuePrinter(out, peer.format());
        int rc = 0;
        try (PeerClient c = peer.connect(spec.commandLine())) {
            for (String arg : paths) {
                int colon = arg.indexOf(':');
                String p = colon < 0 ? arg : arg.substring(0, colon);
                Reply r;
                try {
                    r = colon < 0 ? c.readStamped(p) : c.read(p, Requests.field(arg.substring(colon + 1)));
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "bad path '" + arg + "': " + e.getMessage());
                }
                rc |= r.ok() ? 0 : 1;
                if (colon >= 0) {
                    printField(out, arg, r);
                } else if (ClientOutput.noValueYet(r, c, p)) {
                    printer.print(ClientOutput.noValueYetJson(p, r), p + " = " + ClientOutput.noValueYetText(r));
                } else {
                    ValueText v = r.ok() ? c.render(p, r.value()) : null;
                    ObjectNode o = ClientOutput.json(p, r, v);
                    if (r.stamped()) { // seq, and a value that is not current is marked, with its reason
                        ClientOutput.stamp(o, r.seq(), r.stale(), r.staleReason(), r.origin());
                    }
                    printer.print(o, ValueLine.text(p, r.ok() ? v.text() : ClientOutput.refusal(r, peer.peer, c, p),
                            r.stale() ? ValueLine.stampText(r.seq(), true, r.staleReason()) : null));
                }
            }
        }
        out.flush();
        return rc;
    }

    private void printField(PrintWriter out, String arg, Reply r) {
        if (peer.format() != OutputFormat.text) { // a field is a structure: JSON also for --format csv
            ObjectNode o = ClientOutput.json(arg, r, null);
            if (r.ok()) {
                o.remove("text");
                o.set("value", FieldAnswer.json(r.value()));
            }
            out.println(o);
        } else {
            out.println(arg + " = " + (r.ok() ? FieldAnswer.text(r.value()) : ClientOutput.refusal(r, peer.peer)));
        }
    }
}
