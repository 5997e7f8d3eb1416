package io.spectrum.link.local;

import io.spectrum.wire.ErrorView;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/**
 * The last frame a {@link LocalLink} sends on a connection it closes (docs/extensions.md, "Local
 * link notice {@code connection.closing}"): a bare libtracer ERROR (nothing is being answered) whose
 * identity is the registry code of the reason and whose DESCRIPTION is {@code connection.closing}:
 *
 * <pre>
 * 08 40 1C 00                                  ERROR, 28 B
 *    01 00 02 00 40 00                         VALUE u16 reason (0x0040 tr::flow::backpressure)
 *    03 00 12 00 "connection.closing"          DESCRIPTION, 18 B
 * </pre>
 *
 * Reasons: {@link WireError#FLOW_BACKPRESSURE} when the connection's CONTROL lane overflowed,
 * {@link WireError#TRANSPORT_DOWN} when the link itself closes. A plain v1 peer reads an unsolicited
 * error and the EOF after it. One reader instance is single-threaded.
 */
public final class ClosingNotice {
    static final byte[] TEXT = {
        'c', 'o', 'n', 'n', 'e', 'c', 't', 'i', 'o', 'n', '.', 'c', 'l', 'o', 's', 'i', 'n', 'g'};
    /** Bytes of a notice. */
    public static final int BYTES = 4 + 6 + 4 + TEXT.length;

    private final FrameDecoder decoder = new FrameDecoder(4, FrameDecoder.MAX_TLV_BYTES);
    private final TlvIndex index = new TlvIndex(8, 4);
    private final ErrorView error = new ErrorView();

    /** Writes the notice with {@code reason} (a WireError code) into {@code out[off, off+BYTES)}. */
    public static int write(byte[] out, int off, int reason) {
        TlvWriter w = new TlvWriter(2).wrap(out, off, BYTES);
        w.begin(TlvType.ERROR).value(reason, 2).leaf(TlvType.DESCRIPTION, TEXT).end();
        return w.error() == WireError.OK ? w.length() : -1;
    }

    /** The reason code when {@code b[off, off+len)} is a closing notice, else -1. */
    public int reason(byte[] b, int off, int len) {
        if (decoder.decode(b, off, len, index) != WireError.OK || error.wrap(index, 0) != WireError.OK) {
            return -1;
        }
        int d = error.description();
        return d != TlvIndex.NONE && index.payloadEquals(d, TEXT) ? error.code() : -1;
    }
}
