package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.cli.options.BrokerOptions;
import io.spectrum.cli.options.PeerOptions;
import io.spectrum.cli.output.ClientOutput;
import io.spectrum.cli.output.OutputFormat;
import io.spectrum.cli.output.ValuePrinter;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.TreeWalk;
import io.spectrum.wire.WireError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code spectrum ls --peer HOST:PORT [PATH...]}: each vertex with its value and subscriber count.
 * With no path it walks the whole tree from {@code /}; a named path is printed as before and its
 * subtree follows, found through {@code :children[]} reads ({@link TreeWalk}) down to {@code --depth}.
 */
@Command(name = "ls", mixinStandardHelpOptions = true,
        description = {"List a running node's vertices with values (in their declared unit) and subscriber counts, as a tree.",
                "With no PATH the walk starts at /; under each listed vertex its children are found with "
                        + ":children[] reads, down to --depth levels. Subscriber counts come from each path's "
                        + ":subscribers[] list (suspended ones counted apart). A node that does not answer "
                        + ":children[] (a plain libtracer v1 peer) shows only the named paths.",
                "",
                "Example: spectrum ls --peer 127.0.0.1:7700",
                "         spectrum ls --peer 127.0.0.1:7700 --depth 0 /temp /led",
                "--json prints the tree as one object per PATH (children nested); --format csv one row per vertex.",
                "With --mqtt URL it lists what MQTT bridges published to that broker instead, every host's boards together: "
                        + "PATH is /<host>/<board>/..., patterns take MQTT's + and #.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every vertex answered", "1:a vertex or listing was refused", "2:bad arguments"})
public final class LsCommand implements Callable<Integer> {
    private static final String ROW = "%-32s %-18s %s%n";

    @Mixin
    PeerOptions peer;

    @Parameters(arity = "0..*", paramLabel = "PATH", description = "Where to start (default: /). Each is listed with its subtree.")
    List<String> paths;

    @Option(names = "--depth", paramLabel = "N", defaultValue = "8",
            description = "How many levels below each PATH to list (default: ${DEFAULT-VALUE}; 0 = only the named paths).")
    int depth;

    @Mixin
    BrokerOptions mqtt;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (mqtt.given()) { // the fabric as the broker holds it: every bridged host's boards (docs/mqtt.md)
            return MqttListing.ls(mqtt.address(spec.commandLine()), paths == null ? List.of() : paths, peer.format(),
                    spec.commandLine().getOut(), spec.commandLine().getErr());
        }
        if (depth < 0 || depth > 64) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--depth must be 0..64 (was " + depth + ")");
        }
        PrintWriter out = spec.commandLine().getOut();
        boolean named = paths != null && !paths.isEmpty();
        List<String> starts = named ? paths : List.of("/");
        int[] rc = {0};
        ValuePrinter csv = new ValuePrinter(out, OutputFormat.csv);
        try (PeerClient c = peer.connect(spec.commandLine())) {
            if (peer.format() == OutputFormat.text) {
                out.printf(ROW, "PATH", "VALUE", "SUBSCRIBERS");
            }
            TreeWalk tree = new TreeWalk(c, depth, v -> {
                rc[0] |= refused(v) ? 1 : 0;
                if (peer.format() == OutputFormat.text) {
                    printRow(out, c, v, named);
                } else if (peer.format() == OutputFormat.csv) {
                    csv.print(json(c, v, named, false), null);
                }
            });
            for (String p : starts) {
                TreeWalk.Vertex root;
                try {
                    root = tree.walk(p);
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "bad path '" + p + "': " + e.getMessage());
                }
                if (peer.json()) {
                    out.println(json(c, root, named, true));
                }
                out.flush();
            }
        }
        return rc[0];
    }

    /**
     * Refused: neither read answered for the vertex (as before for named paths), or its listing
     * failed for another reason than "absent" or "this node has no :children" (a plain v1 peer).
     */
    private static boolean refused(TreeWalk.Vertex v) {
        int e = v.childrenError();
        return !v.answered() || (e != 0 && e != WireError.SCHEMA_NOT_FOUND && e != WireError.PATH_NOT_FOUND);
    }

    private void printRow(PrintWriter out, PeerClient client, TreeWalk.Vertex v, boolean named) {
        String indent = "  ".repeat(v.depth());
        String label = v.depth() == 0 ? v.path() : indent + v.name();
        String value;
        if (v.value().ok()) {
            value = client.render(v.path(), v.value().value()).text();
        } else if (ClientOutput.noValueYet(v.value(), client, v.path())) {
            value = ClientOutput.NO_VALUE_YET; // declared, never published: as read says it
        } else if (parentWithoutValue(v, named)) {
            value = "-"; // a listed vertex without a value of its own
        } else {
            value = ClientOutput.refusal(v.value(), peer.peer);
        }
        int[] n = {v.subscribers().subscribers(), v.subscribers().suspended()};
        out.printf(ROW, label, value, n[0] + (n[1] > 0 ? " (" + n[1] + " suspended)" : ""));
        String more = indent + "  ";
        if (v.childrenError() != 0 && v.childrenError() != WireError.SCHEMA_NOT_FOUND
                && !(v.childrenError() == WireError.PATH_NOT_FOUND && !v.answered())) {
            out.println(more + "(children: " + ClientOutput.refusal(Reply.local(v.childrenError()), peer.peer) + ")");
        }
        if (v.notWalked() > 0) {
            out.println(more + "... " + v.notWalked() + " more below (raise --depth)");
        }
        out.flush();
    }

    /** A listed vertex (a parent) without a value of its own: healthy, shown with no value. */
    private static boolean parentWithoutValue(TreeWalk.Vertex v, boolean named) {
        return v.value().code() == WireError.PATH_NOT_FOUND && v.subscribers().ok()
                && (v.depth() > 0 || !named || v.childrenError() == 0 && (v.walked() || v.notWalked() > 0));
    }

    /** The vertex as JSON, with its children when {@code tree} (else one flat record, for CSV). */
    private static ObjectNode json(PeerClient client, TreeWalk.Vertex v, boolean named, boolean tree) {
        ObjectNode o = ClientOutput.noValueYet(v.value(), client, v.path()) ? ClientOutput.noValueYetJson(v.path(), v.value())
                : parentWithoutValue(v, named) ? ClientOutput.line(v.path()).put("ok", true)
                : ClientOutput.json(v.path(), v.value(), v.value().ok() ? client.render(v.path(), v.value().value()) : null);
        o.put("subscribers", v.subscribers().subscribers());
        o.put("suspended", v.subscribers().suspended());
        if (tree && v.walked()) {
            ArrayNode kids = o.putArray("children");
            for (TreeWalk.Vertex c : v.children()) {
                kids.add(json(client, c, named, true));
            }
        }
        if (v.notWalked() > 0) {
            o.put("notWalked", v.notWalked());
        }
        if (v.childrenError() != 0) {
            o.put("childrenError", WireError.identity(v.childrenError()));
        }
        return o;
    }
}
