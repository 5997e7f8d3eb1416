package io.spectrum.cli;

import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.Callable;

/** {@code spectrum write --peer HOST:PORT PATH VALUE}: writes one value. */
@Command(name = "write", mixinStandardHelpOptions = true,
        description = {"Write a value to a path on a running node.",
                "The path must exist there (a remote write never creates one). An integer is sent as a VALUE "
                        + "(--width bytes, little-endian), anything else as text (NAME).",
                "",
                "Example: spectrum write --peer 127.0.0.1:7700 /board/led 1 --width 1", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written", "1:refused (the reason is printed)", "2:bad arguments"})
public final class WriteCommand implements Callable<Integer> {
    @Mixin
    PeerOptions peer;

    @Parameters(index = "0", paramLabel = "PATH", description = "The vertex path.")
    String path;

    @Parameters(index = "1", paramLabel = "VALUE", description = "The value: an integer, text, or a whole TLV in hex with --hex.")
    String value;

    @Option(names = "--width", paramLabel = "N", defaultValue = "4", description = "Integer width in bytes: 1, 2, 4 or 8 (default: ${DEFAULT-VALUE}).")
    int width;

    @Option(names = "--text", description = "Send VALUE as text (NAME) even if it looks like a number.")
    boolean text;

    @Option(names = "--hex", description = "VALUE is a complete TLV in hex, sent as is.")
    boolean hex;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        byte[] tlv = encode(spec.commandLine());
        PrintWriter out = spec.commandLine().getOut();
        try (PeerClient c = peer.connect(spec.commandLine())) {
            Reply r;
            try {
                r = c.write(path, tlv);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "bad path '" + path + "': " + e.getMessage());
            }
            if (peer.json) {
                out.println(ClientOutput.json(path, r.ok() ? Reply.result(tlv, r.frame()) : r));
            } else {
                out.println(path + " <- " + ClientOutput.text(tlv).text() + ": " + (r.ok() ? "ok" : ClientOutput.refusal(r, peer.peer)));
            }
            out.flush();
            return r.ok() ? 0 : 1;
        }
    }

    byte[] encode(CommandLine cl) {
        if (hex && text) {
            throw new CommandLine.ParameterException(cl, "--hex and --text exclude each other");
        }
        if (hex) {
            try {
                return HexFormat.of().parseHex(value.replaceAll("\\s+", ""));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "--hex: '" + value + "' is not hex");
            }
        }
        byte[] b = new byte[value.length() * 4 + 16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        Long n = text ? null : parseLong(value);
        if (n != null) {
            if (width != 1 && width != 2 && width != 4 && width != 8) {
                throw new CommandLine.ParameterException(cl, "--width must be 1, 2, 4 or 8 (was " + width + ")");
            }
            long min = width == 8 ? Long.MIN_VALUE : -(1L << (8 * width - 1));
            long max = width == 8 ? Long.MAX_VALUE : (1L << (8 * width)) - 1;
            if (n < min || n > max) {
                throw new CommandLine.ParameterException(cl, value + " does not fit in " + width + " bytes; use --width 8");
            }
            w.value(n, width);
        } else {
            w.leaf(TlvType.NAME, value.getBytes(StandardCharsets.UTF_8));
        }
        return Arrays.copyOf(b, w.length());
    }

    private static Long parseLong(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
