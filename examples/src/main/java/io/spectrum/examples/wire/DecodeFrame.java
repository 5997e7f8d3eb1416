package io.spectrum.examples.wire;

import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.PathView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.util.HexFormat;

/**
 * Decodes one libtracer v1 frame with the codec's flyweights (docs/wire.md): {@link FrameDecoder}
 * fills a caller-owned {@link TlvIndex} (a flat record per TLV pointing into the buffer; nothing is
 * copied), {@link FwdView} reads a FWD's positional children and {@link PathView} walks a PATH in
 * place. All four are made once and re-pointed at every frame; a refusal is a code, never an exception.
 *
 * <pre>java -cp … io.spectrum.examples.wire.DecodeFrame [HEX]</pre>
 *
 * <p>prints {@code FWD READ /sensor/temp from /reply-ep (4 TLVs)} for the default frame.
 */
public final class DecodeFrame {
    /** The libtracer v1 conformance vector {@code fwd/fwd-read}: FWD{READ, dst /sensor/temp, src /reply-ep}. */
    public static final String FWD_READ_HEX =
            "0F402200010001000006000C000673656E736F720474656D7006000900087265706C792D6570";

    private final FrameDecoder decoder = new FrameDecoder();
    private final TlvIndex index = new TlvIndex();
    private final FwdView fwd = new FwdView();
    private final PathView path = new PathView();

    /**
     * Decodes {@code frame} and says what it is: {@code FWD READ /sensor/temp from /reply-ep (4 TLVs)}
     * for a FWD, {@code VALUE (1 TLVs)} for another root type, or the refusal
     * ({@code refused: tr::frame::truncated at offset 0}).
     */
    public String describe(byte[] frame) {
        int rc = decoder.decode(frame, 0, frame.length, index);
        if (rc != WireError.OK) {
            return "refused: " + WireError.identity(rc) + " at offset " + index.errorOffset();
        }
        String tlvs = " (" + index.count() + " TLVs)";
        if (index.type(0) != TlvType.FWD) {
            return TlvType.name(index.type(0)) + tlvs;
        }
        rc = fwd.wrap(index, 0); // entry 0 is the root
        if (rc != WireError.OK) {
            return "FWD refused: " + WireError.identity(rc);
        }
        StringBuilder sb = new StringBuilder("FWD ").append(FwdView.opName(fwd.opcode())).append(' ');
        pathText(fwd.dst(), sb).append(" from ");
        return pathText(fwd.src(), sb).append(tlvs).toString();
    }

    private StringBuilder pathText(int entry, StringBuilder sb) {
        return path.wrap(index, entry) == WireError.OK ? path.appendText(sb) : sb.append("(a PATH_REF)");
    }

    /** Prints what the frame {@code args[0]} (hex; default {@link #FWD_READ_HEX}) is. */
    public static void main(String[] args) {
        try {
            System.out.println(new DecodeFrame().describe(HexFormat.of().parseHex(args.length > 0 ? args[0] : FWD_READ_HEX)));
        } catch (IllegalArgumentException e) {
            System.err.println("not hex: " + e.getMessage());
            System.exit(2);
        }
    }
}
