package io.spectrum.cli;

import io.spectrum.cli.options.PeerOptions;
import io.spectrum.cli.output.ClientOutput;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.ValueFormat;
import io.spectrum.client.ValueText;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;
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

/**
 * {@code spectrum write --peer HOST:PORT PATH VALUE}: writes one value. A vertex that declares what
 * it holds gets VALUE parsed by its declaration ({@link ValueFormat#parse}); what does not fit is
 * refused here, before anything is sent, with one line and exit 2.
 */
@Command(name = "write", mixinStandardHelpOptions = true,
        description = {"Write a value to a path on a running node.",
                "The path must exist there (a remote write never creates one). A vertex that declares what it "
                        + "holds (spectrum read PATH:settings.app) takes VALUE in its unit (23.5 or 23.5 °C for a "
                        + "temperature, 1 for an LED); a value out of its range, finer than its steps or not a number "
                        + "is refused before sending (exit 2). Without a declaration an integer is sent as a VALUE "
                        + "(--width bytes, little-endian), anything else as text (NAME). --width, --text and --hex "
                        + "send exactly what they say (for experts; the node still checks it).",
                "",
                "Example: spectrum write --peer 127.0.0.1:7700 /led 1",
                "         spectrum write -t /led -m 1      (as mosquitto_pub; --peer from SPECTRUM_PEER)", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written", "1:refused by the node (the reason is printed)",
                "2:bad arguments, or a value the vertex's declaration does not take (the reason is printed)"})
public final class WriteCommand implements Callable<Integer> {
    @Mixin
    PeerOptions peer;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PATH", description = "The vertex path.")
    String path;

    @Parameters(index = "1", arity = "0..1", paramLabel = "VALUE", description = "The value: a number in the vertex's unit, text, or a whole TLV in hex with --hex.")
    String value;

    @Option(names = {"-t", "--topic"}, paramLabel = "PATH", description = "The vertex path (as mosquitto_pub -t).")
    String topic;

    @Option(names = {"-m", "--message"}, paramLabel = "VALUE", description = "The value (as mosquitto_pub -m).")
    String message;

    @Option(names = "--width", paramLabel = "N",
            description = "Send an integer VALUE of N bytes: 1, 2, 4 or 8 (default without a declaration: 4).")
    Integer width;

    @Option(names = "--text", description = "Send VALUE as text (NAME) even if it looks like a number.")
    boolean text;

    @Option(names = "--hex", description = "VALUE is a complete TLV in hex, sent as is.")
    boolean hex;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine cl = spec.commandLine();
        if (topic != null && path != null && value == null && message == null) {
            value = path; // write -t PATH VALUE
            path = null;
        }
        if (topic != null && path != null || message != null && value != null) {
            throw new CommandLine.ParameterException(cl, "give the path once (PATH or -t) and the value once (VALUE or -m)");
        }
        path = topic != null ? topic : path;
        value = message != null ? message : value;
        if (path == null || value == null) {
            throw new CommandLine.ParameterException(cl, "give PATH and VALUE (or -t PATH -m VALUE)");
        }
        boolean expert = hex || text || width != null;
        byte[] raw = expert ? encode(cl) : null;
        PrintWriter out = cl.getOut();
        try (PeerClient c = peer.connect(cl)) {
            VertexSchema schema;
            try {
                schema = expert ? null : c.declaration(path);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "bad path '" + path + "': " + e.getMessage());
            }
            byte[] tlv = raw;
            if (tlv == null && schema != null) {
                ValueFormat.Parsed parsed = ValueFormat.parse(value, schema);
                if (!parsed.ok()) {
                    if (peer.json()) {
                        out.println(ClientOutput.error("value", path + ": " + parsed.reason()).put("path", path));
                        out.flush();
                    } else {
                        PrintWriter err = cl.getErr();
                        err.println(path + ": " + parsed.reason());
                        err.flush();
                    }
                    return 2;
                }
                tlv = parsed.tlv();
            } else if (tlv == null) {
                tlv = encode(cl);
            }
            Reply r;
            try {
                r = c.write(path, tlv);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "bad path '" + path + "': " + e.getMessage());
            }
            ValueText sent = ValueFormat.render(tlv, schema);
            if (peer.json()) {
                out.println(ClientOutput.json(path, r.ok() ? Reply.result(tlv, r.frame()) : r, sent));
            } else {
                out.println(path + " <- " + sent.text() + ": " + (r.ok() ? "ok" : ClientOutput.refusal(r, peer.peer, c, path)
                        + hint(r, schema, path)));
            }
            out.flush();
            return r.ok() ? 0 : 1;
        }
    }

    /** Why the node refused, when the declaration says. */
    private static String hint(Reply r, VertexSchema schema, String path) {
        if (r.code() == WireError.ACCESS_DENIED && schema != null && !schema.allows(AccessMask.WRITE)) {
            return " (the vertex is read-only)";
        }
        if (r.code() == WireError.SCHEMA_TYPE_MISMATCH) {
            return " (the vertex does not hold this; see spectrum read " + path + ":settings.app)";
        }
        return "";
    }

    byte[] encode(CommandLine cl) {
        if (hex && text) {
            throw new CommandLine.ParameterException(cl, "--hex and --text exclude each other");
        }
        if (hex) {
            byte[] tlv;
            try {
                tlv = HexFormat.of().parseHex(value.replaceAll("\\s+", ""));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "--hex: '" + value + "' is not hex");
            }
            TlvIndex idx = new TlvIndex(256, 64);
            int code = new FrameDecoder().decode(tlv, 0, tlv.length, idx);
            if (code != WireError.OK) {
                throw new CommandLine.ParameterException(cl, "--hex " + value + " is not one complete TLV: "
                        + WireError.identity(code) + " at byte " + idx.errorOffset() + "; nothing was sent");
            }
            return tlv;
        }
        byte[] b = new byte[value.length() * 4 + 16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        Long n = text ? null : parseLong(value);
        int width = this.width == null ? 4 : this.width;
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
