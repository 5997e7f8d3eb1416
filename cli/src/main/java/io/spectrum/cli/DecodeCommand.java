package io.spectrum.cli;

import io.spectrum.cli.output.FramePrinter;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FrameEncoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code spectrum decode HEX | --file F [--roundtrip]}: decodes one libtracer v1 frame and prints
 * it as a tree, or with {@code --roundtrip} prints the re-encoded hex. A refusal prints
 * {@code refused: tr::… (NAME) at offset N} and exits 2.
 */
@Command(name = "decode",
        mixinStandardHelpOptions = true,
        description = {"Decode one libtracer v1 frame and print it as a tree.",
            "Example: spectrum decode --file docs/examples/subscribe.bin"})
public final class DecodeCommand implements Callable<Integer> {
    /** Exit code for a refused frame or unreadable input. */
    public static final int EXIT_REFUSED = 2;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "HEX", description = "the frame as hex (spaces allowed)")
    List<String> hex;

    @Option(names = {"-f", "--file"}, paramLabel = "F", description = "read the frame (raw bytes) from a file")
    Path file;

    @Option(names = "--roundtrip", description = "print the re-encoded frame as hex instead of the tree")
    boolean roundtrip;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        byte[] frame;
        try {
            frame = input();
        } catch (IllegalArgumentException | IOException e) {
            err.println("error: " + e.getMessage());
            err.flush();
            return EXIT_REFUSED;
        }
        TlvIndex idx = new TlvIndex(Math.max(16, frame.length / 4 + 1), 64);
        int code = new FrameDecoder().decode(frame, 0, frame.length, idx);
        if (code != WireError.OK) {
            out.println("refused: " + WireError.identity(code) + " (" + WireError.harnessName(code) + ") at offset "
                    + idx.errorOffset());
            out.flush();
            return EXIT_REFUSED;
        }
        if (roundtrip) {
            byte[] buf = new byte[frame.length];
            int n = new FrameEncoder().encode(idx, 0, buf, 0, buf.length);
            if (n < 0) {
                out.println("refused: " + WireError.identity(-n) + " (" + WireError.harnessName(-n) + ") on re-encode");
                out.flush();
                return EXIT_REFUSED;
            }
            out.println(HexFormat.of().formatHex(buf, 0, n));
        } else {
            out.print(FramePrinter.print(idx));
            out.println("(" + frame.length + " bytes, " + idx.count() + " TLVs)");
        }
        out.flush();
        return 0;
    }

    private byte[] input() throws IOException {
        boolean hasHex = hex != null && !hex.isEmpty();
        if (hasHex == (file != null)) {
            throw new IllegalArgumentException("give the frame either as HEX or with --file F");
        }
        if (file != null) {
            return Files.readAllBytes(file);
        }
        String h = String.join("", hex).replaceAll("\\s+", "");
        if (h.startsWith("0x") || h.startsWith("0X")) {
            h = h.substring(2);
        }
        if (h.isEmpty() || h.length() % 2 != 0 || !h.matches("[0-9a-fA-F]*")) {
            throw new IllegalArgumentException("bad hex: expected an even number of hex digits");
        }
        return HexFormat.of().parseHex(h);
    }
}
