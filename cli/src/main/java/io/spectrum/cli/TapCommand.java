package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.cli.options.PeerOptions;
import io.spectrum.cli.output.ClientOutput;
import io.spectrum.cli.output.FramePrinter;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code spectrum tap --peer HOST:PORT PATH...}: subscribes and prints every frame crossing the link, decoded. */
@Command(name = "tap", mixinStandardHelpOptions = true,
        description = {"Print the frames crossing the link to a running node, decoded.",
                "Every libtracer frame sent or received is printed as a tree (type, flags, lengths, paths, "
                        + "FIELD selectors, values). It subscribes to the PATHs first, so deliveries flow. --json prints "
                        + "one object per frame (ts, dir, bytes, hex, frame: the decoded tree, error).",
                "",
                "Example: spectrum tap --peer 127.0.0.1:7700 /temp --count 5", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:tapped until stopped", "1:a subscription was refused", "2:bad arguments (no PATH)"})
public final class TapCommand implements Callable<Integer> {
    @Mixin
    PeerOptions peer;

    @Parameters(arity = "0..*", paramLabel = "PATH", description = "Paths to subscribe to while tapping.")
    List<String> paths = new ArrayList<>();

    @Option(names = {"-t", "--topic"}, paramLabel = "PATH", description = "A path to subscribe to (repeatable).")
    List<String> topics = new ArrayList<>();

    @Option(names = {"-C", "--count"}, paramLabel = "N", defaultValue = "0", description = "Stop after N frames (0 = no limit).")
    long count;

    @Option(names = {"-W", "--duration"}, paramLabel = "SECONDS", defaultValue = "0", description = "Stop after this many seconds (0 = no limit).")
    long seconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (count < 0 || seconds < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--count and --duration must be 0 or more");
        }
        List<String> paths = PeerOptions.paths(spec.commandLine(), this.paths, topics, "tap", " (tap subscribes to it so frames flow)");
        long[] frames = {0};
        TlvIndex idx = new TlvIndex(4096, 64);
        FrameDecoder decoder = new FrameDecoder();
        try (PeerClient c = peer.connect(spec.commandLine())) {
            c.setTap((outbound, buf, off, len) -> {
                if (count > 0 && frames[0] >= count) {
                    return;
                }
                frames[0]++;
                int code = decoder.decode(buf, off, len, idx);
                if (peer.json()) {
                    ObjectNode o = ClientOutput.line(null);
                    o.put("dir", outbound ? "out" : "in");
                    o.put("peer", peer.peer);
                    o.put("bytes", len);
                    o.put("hex", FramePrinter.hex(buf, off, len));
                    if (code == WireError.OK) {
                        o.put("frame", FramePrinter.print(idx));
                    } else {
                        o.put("error", WireError.identity(code));
                        o.put("errorOffset", idx.errorOffset() - off);
                    }
                    out.println(o);
                } else {
                    out.printf("%s %s %d bytes%n", LocalTime.now().withNano(0), outbound ? "-> " + peer.peer : "<- " + peer.peer, len);
                    if (code == WireError.OK) {
                        out.print(FramePrinter.print(idx));
                    } else {
                        out.println("  refused: " + WireError.identity(code) + " at offset " + (idx.errorOffset() - off)
                                + ": " + FramePrinter.hex(buf, off, Math.min(len, 64)));
                    }
                }
                out.flush();
            });
            for (int i = 0; i < paths.size(); i++) {
                Reply r;
                try {
                    r = c.subscribe(paths.get(i), "/cli/tap/" + i, -1, true).reply();
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "bad path '" + paths.get(i) + "': " + e.getMessage());
                }
                if (!r.ok()) {
                    if (peer.json()) {
                        out.println(ClientOutput.json(paths.get(i), r));
                        out.flush();
                    } else {
                        spec.commandLine().getErr().println(paths.get(i) + ": " + ClientOutput.refusal(r, peer.peer));
                        spec.commandLine().getErr().flush();
                    }
                    return 1;
                }
            }
            long deadline = seconds > 0 ? System.nanoTime() + Duration.ofSeconds(seconds).toNanos() : Long.MAX_VALUE;
            while (!Thread.currentThread().isInterrupted() && (count == 0 || frames[0] < count) && System.nanoTime() < deadline) {
                c.pumpFor(Duration.ofMillis(100));
            }
        }
        return 0;
    }
}
