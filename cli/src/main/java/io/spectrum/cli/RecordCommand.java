package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.cli.options.PeerOptions;
import io.spectrum.cli.output.ClientOutput;
import io.spectrum.cli.output.OutputFormat;
import io.spectrum.client.Delivery;
import io.spectrum.client.Follower;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.node.api.VertexSchema;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code spectrum record --peer HOST:PORT FILE [PATH...]}: follows paths and writes each value as a JSON line. */
@Command(name = "record", mixinStandardHelpOptions = true,
        description = {"Record the values of running paths to a file, one JSON object per line.",
                "Each line holds ts (ISO-8601 UTC), path (the vertex written), value, unit, raw, seq and stale, the fields of "
                        + "'sub --json', plus tlv (the value's bytes, hex) and, on a path's first line, schema (its declaration, "
                        + "hex), so 'spectrum replay' republishes exactly what was seen. Stops on Ctrl-C, or after --count values "
                        + "or --duration seconds.",
                "",
                "Example: spectrum record --peer 127.0.0.1:7700 demo.jsonl '/board1/#' --duration 10", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:recorded until stopped", "1:a subscription was refused", "2:bad arguments or the file cannot be written"})
public final class RecordCommand implements Callable<Integer> {
    @Mixin
    PeerOptions peer;

    @Parameters(index = "0", paramLabel = "FILE", description = "The file to write (JSON lines; '-' for standard output).")
    String file;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "PATH",
            description = "Paths to record (PATH/# : the vertex and everything below). Default: /# (everything).")
    List<String> paths;

    @Option(names = "--count", paramLabel = "N", defaultValue = "0", description = "Stop after N values (0 = no limit).")
    long count;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0", description = "Stop after this many seconds (0 = no limit).")
    double seconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (count < 0 || seconds < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--count and --duration must be 0 or more");
        }
        if (peer.format() != OutputFormat.json && spec.commandLine().getParseResult().hasMatchedOption("--format")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "record writes JSON lines only (what 'spectrum replay' "
                    + "reads): drop -F " + peer.format() + ", or use 'spectrum sub -F " + peer.format() + "' to print that format");
        }
        List<String> patterns = paths == null || paths.isEmpty() ? List.of("/#") : paths;
        PeerOptions.checkPatterns(spec.commandLine(), patterns); // a bad pattern is a usage error before anything is sent
        try (PeerClient c = peer.connect(spec.commandLine()); Sink sink = open()) {
            Follower follower = new Follower(c);
            for (int i = 0; i < patterns.size(); i++) {
                Reply r;
                try {
                    r = follower.follow(patterns.get(i), "/cli/record/" + i);
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "bad path '" + patterns.get(i) + "': " + e.getMessage());
                }
                if (!r.ok()) {
                    err.println(patterns.get(i) + ": " + ClientOutput.refusal(r, peer.peer));
                    err.flush();
                    return 1;
                }
            }
            err.println("recording " + String.join(" ", patterns) + " from " + peer.peer + " to " + file + " (Ctrl-C stops)");
            err.flush();
            long seen = 0;
            long deadline = seconds > 0 ? System.nanoTime() + (long) (seconds * 1e9) : Long.MAX_VALUE;
            long nextCheck = System.nanoTime() + SubCommand.CHECK_NANOS;
            Set<String> described = new HashSet<>();
            while (!Thread.currentThread().isInterrupted() && (count == 0 || seen < count) && System.nanoTime() < deadline) {
                c.pumpFor(Duration.ofMillis(50));
                for (Follower.Sample x = follower.next(); x != null && (count == 0 || seen < count); x = follower.next()) {
                    seen++;
                    sink.line(line(x, described.add(x.path()) ? follower.schema(x.path()) : null).toString());
                }
                for (Follower.Gap g : follower.gaps()) { // not in the file: what was missed is said here
                    err.println("spectrum record: " + g.notice());
                    err.flush();
                }
                if (System.nanoTime() - nextCheck >= 0) {
                    follower.verify();
                    nextCheck = System.nanoTime() + SubCommand.CHECK_NANOS;
                }
            }
            err.println(seen + " values recorded to " + file);
            err.flush();
        } catch (IOException e) {
            err.println("record: cannot write " + file + ": " + e.getMessage());
            err.flush();
            return 2;
        }
        return 0;
    }

    /** One recorded value: the fields of {@code sub --json}, its bytes, and (first line of a path) its declaration. */
    static ObjectNode line(Follower.Sample x, VertexSchema schema) {
        Delivery d = x.delivery();
        ObjectNode o = ClientOutput.JSON.createObjectNode();
        o.put("ts", Instant.now().toString()); // the clock's full precision: replay keeps the pace
        o.put("path", x.path());
        ClientOutput.value(o, x.value());
        if (d.stamped()) {
            ClientOutput.stamp(o, d.seq(), d.stale(), x.reason(), d.origin());
            if (d.deleted()) {
                o.put("deleted", true);
            }
        }
        byte[] tlv = d.value();
        if (tlv != null) {
            o.put("tlv", HexFormat.of().formatHex(tlv));
        }
        if (schema != null) {
            byte[] s = new byte[schema.settingsLength()];
            schema.copySettings(s, 0, s.length);
            o.put("schema", HexFormat.of().formatHex(s));
        }
        return o;
    }

    private Sink open() throws IOException {
        if (file.equals("-")) {
            return new Sink(null, spec.commandLine().getOut());
        }
        BufferedWriter w = Files.newBufferedWriter(Path.of(file), StandardCharsets.UTF_8);
        return new Sink(w, null);
    }

    /** The file (flushed per line, so an interrupted recording keeps what it saw) or standard output. */
    private record Sink(BufferedWriter file, PrintWriter out) implements AutoCloseable {
        void line(String s) throws IOException {
            if (file != null) {
                file.write(s);
                file.newLine();
                file.flush();
            } else {
                out.println(s);
                out.flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (file != null) {
                file.close();
            }
        }
    }
}
