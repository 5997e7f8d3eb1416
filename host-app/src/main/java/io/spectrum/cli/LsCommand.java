package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.host.client.PeerClient;
import io.spectrum.host.runtime.ValueText;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code spectrum ls --peer HOST:PORT PATH...}: values and subscriber counts. */
@Command(name = "ls", mixinStandardHelpOptions = true,
        description = {"List paths on a running node with values and subscriber counts.",
                "Subscriber counts come from each path's :subscribers[] list (suspended ones counted apart). "
                        + "Name the paths: a libtracer v1 NARROW node does not enumerate its children.",
                "",
                "Example: spectrum ls --peer 127.0.0.1:7700 /board/temp /board/counter /board/led", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every path answered", "1:a path was refused", "2:bad arguments"})
public final class LsCommand implements Callable<Integer> {
    private static final byte[] DELIVERY_POLICY = "delivery_policy".getBytes(StandardCharsets.US_ASCII);

    @Mixin
    PeerOptions peer;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Vertex paths.")
    List<String> paths;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int rc = 0;
        try (PeerClient c = peer.connect(spec.commandLine())) {
            if (!peer.json) {
                out.printf("%-32s %-18s %s%n", "PATH", "VALUE", "SUBSCRIBERS");
            }
            for (String p : paths) {
                PeerClient.Reply value;
                PeerClient.Reply subs;
                try {
                    value = c.read(p);
                    subs = c.subscribers(p);
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "bad path '" + p + "': " + e.getMessage());
                }
                int[] counts = subs.ok() ? count(subs.payload()) : new int[] {0, 0};
                rc |= value.ok() || subs.ok() ? 0 : 1;
                if (peer.json) {
                    ObjectNode o = ClientOutput.json(p, value);
                    o.put("subscribers", counts[0]);
                    o.put("suspended", counts[1]);
                    out.println(o);
                } else {
                    String v = value.ok() ? ValueText.of(value.payload(), 0, value.payload().length).text()
                            : ClientOutput.refusal(value, peer.peer);
                    out.printf("%-32s %-18s %s%n", p, v, counts[0] == 0 ? "-"
                            : counts[0] + (counts[1] > 0 ? " (" + counts[1] + " suspended)" : ""));
                }
                out.flush();
            }
        }
        return rc;
    }

    /** {subscribers, suspended} in a POINT of renderings (holes are empty STATUS). */
    static int[] count(byte[] point) {
        int[] n = {0, 0};
        if (point == null) {
            return n;
        }
        TlvIndex x = new TlvIndex(1024, 16);
        if (new FrameDecoder().decode(point, 0, point.length, x) != WireError.OK || x.type(0) != TlvType.POINT) {
            return n;
        }
        for (int s = x.firstChild(0); s != TlvIndex.NONE; s = x.nextSibling(s)) {
            if (x.type(s) != TlvType.SUBSCRIBER) {
                continue;
            }
            n[0]++;
            for (int c = x.firstChild(s); c != TlvIndex.NONE; c = x.nextSibling(c)) {
                if (x.type(c) != TlvType.SETTINGS) {
                    continue;
                }
                for (int k = x.firstChild(c); k != TlvIndex.NONE; k = x.nextSibling(k)) {
                    int v = x.nextSibling(k);
                    if (v == TlvIndex.NONE) {
                        break;
                    }
                    if (x.payloadEquals(k, DELIVERY_POLICY) && x.bodyLength(v) == 2 && (x.valueAsLong(v) & 0x0200) != 0) {
                        n[1]++;
                    }
                    k = v;
                }
            }
        }
        return n;
    }
}
