package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.ValueText;
import io.spectrum.wire.WireError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code spectrum sub --peer HOST:PORT PATH...}: follows paths live. */
@Command(name = "sub", mixinStandardHelpOptions = true,
        description = {"Follow paths on a running node live.",
                "Prints each new value (in its declared unit) with the sequence number and stale flag the node stamps on it, starting "
                        + "with the current value. Stops on Ctrl-C, or after --count values or --duration seconds.",
                "",
                "A subscription to a vertex delivers it and every vertex below; each line names the vertex that was written. "
                        + "'/board1/#' (MQTT style) says so explicitly; '#' only as the last segment, '+' is not supported.",
                "",
                "Example: spectrum sub --peer 127.0.0.1:7700 /board/temp /board/counter",
                "         spectrum sub --peer 127.0.0.1:7700 '/board1/#'", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:followed until stopped", "1:a subscription was refused", "2:bad arguments"})
public final class SubCommand implements Callable<Integer> {
    /** How often the follower checks its slots are still there (a link's default ping interval). */
    static final long CHECK_NANOS = 3_000_000_000L;

    @Mixin
    PeerOptions peer;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Vertex paths to follow (PATH/# : the vertex and everything below).")
    List<String> paths;

    @Option(names = "--count", paramLabel = "N", defaultValue = "0", description = "Stop after N values (0 = no limit).")
    long count;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0", description = "Stop after this many seconds (0 = no limit).")
    long seconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (count < 0 || seconds < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--count and --duration must be 0 or more");
        }
        Follower.check(spec.commandLine(), paths); // a bad pattern is a usage error before anything is sent
        try (PeerClient c = peer.connect(spec.commandLine())) {
            Follower follower = new Follower(c);
            for (int i = 0; i < paths.size(); i++) {
                String p = paths.get(i);
                String route = "/cli/sub/" + i;
                if (!peer.json) {
                    err.println("subscribing to " + p + " on " + peer.peer + " ...");
                    err.flush();
                }
                Reply r;
                try {
                    r = follower.follow(p, route);
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "bad path '" + p + "': " + e.getMessage());
                }
                if (!r.ok()) {
                    err.println(p + ": " + ClientOutput.refusal(r, peer.peer));
                    err.flush();
                    return 1;
                }
            }
            long[] seen = {0};
            long deadline = seconds > 0 ? System.nanoTime() + Duration.ofSeconds(seconds).toNanos() : Long.MAX_VALUE;
            long nextCheck = System.nanoTime() + CHECK_NANOS;
            while (!Thread.currentThread().isInterrupted() && (count == 0 || seen[0] < count) && System.nanoTime() < deadline) {
                c.pumpFor(Duration.ofMillis(100));
                for (Follower.Sample x = follower.next(); x != null && (count == 0 || seen[0] < count); x = follower.next()) {
                    seen[0]++;
                    print(out, x);
                }
                if (System.nanoTime() - nextCheck >= 0) {
                    follower.verify(); // a slot the node evicted or someone cleared is appended again
                    nextCheck = System.nanoTime() + CHECK_NANOS;
                }
            }
        }
        return WireError.OK;
    }

    /** One line per value: the path that was written (which child of a subtree), its value, seq / stale. */
    private void print(PrintWriter out, Follower.Sample x) {
        io.spectrum.client.Delivery d = x.delivery();
        ValueText v = x.value();
        if (peer.json) {
            ObjectNode o = ClientOutput.JSON.createObjectNode();
            o.put("path", x.path());
            ClientOutput.value(o, v);
            if (d.stamped()) {
                o.put("seq", d.seq());
                o.put("stale", d.stale());
                o.put("deleted", d.deleted());
            }
            out.println(o);
        } else {
            out.println(x.path() + " = " + (d.deleted() ? "(cleared)" : v.text())
                    + (d.stamped() ? "  (seq " + d.seq() + (d.stale() ? ", stale" : "") + ")" : ""));
        }
        out.flush();
    }
}
