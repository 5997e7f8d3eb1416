package io.spectrum.link.local;

import io.spectrum.wire.Extensions;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.PathHandle;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;

/**
 * The hello a {@link LocalLink} client sends as its first frame (docs/links.md, "Local stream link"):
 * an ordinary libtracer v1 FWD READ of {@code /$node/caps} with an empty (silent) {@code src},
 * carrying the Spectrum announcement child with the client's name ({@code spectrum.name},
 * docs/extensions.md), written by {@link Extensions#announce(TlvWriter, byte[])}:
 *
 * <pre>
 * 0F 40 ll 00                 FWD
 *    01 00 01 00 00           VALUE u8 op = READ
 *    06 00 0d 00 ...          PATH /$node/caps
 *    06 00 00 00              PATH src (empty: nothing is answered)
 *    0B 40 .. 00 ...          SETTINGS{spectrum.ext 1, spectrum.name NAME}  (the announcement)
 * </pre>
 *
 * So the hello adds no bytes of its own: the link recognises it and takes the name from it, and the
 * node it is delivered to reads the same announcement (and the same name) as from any request. A
 * client may send any {@code src} instead (it then gets the caps answer). The link accepts a hello
 * without a name (an announcement of {@code spectrum.ext} alone): that connection has no name and
 * the node gives it its connection-scoped one.
 *
 * <p>A reader instance is single-threaded and allocation-free after construction.
 */
public final class LocalHello {
    private static final PathHandle CAPS = PathHandle.of(Names.CAPS_PATH);
    private static final byte[] EMPTY = new byte[0];

    private final FrameDecoder decoder = new FrameDecoder(16, FrameDecoder.MAX_TLV_BYTES);
    private final TlvIndex index = new TlvIndex(64, 8);
    private final FwdView fwd = new FwdView();
    private final Extensions extensions = new Extensions();
    private int nameOffset;
    private int nameLength;

    /**
     * Writes the hello for {@code name} (UTF-8, 1..{@link Names#PEER_NAME_MAX} bytes; null for a
     * hello without a name) into {@code out[off, off+cap)}.
     *
     * @return bytes written
     * @throws IllegalArgumentException when the name is empty, too long or {@code cap} too small
     */
    public static int write(byte[] out, int off, int cap, byte[] name) {
        if (name != null && (name.length < 1 || name.length > Names.PEER_NAME_MAX || !Utf8.isValid(name, 0, name.length))) {
            throw new IllegalArgumentException("a hello name is 1.." + Names.PEER_NAME_MAX + " bytes of UTF-8");
        }
        TlvWriter w = new TlvWriter(4).wrap(out, off, cap);
        w.begin(TlvType.FWD).value(FwdView.OP_READ, 1).raw(CAPS.frame()).leaf(TlvType.PATH, EMPTY);
        if (name != null) {
            Extensions.announce(w, name);
        } else {
            Extensions.announce(w);
        }
        w.end();
        if (w.error() != WireError.OK) {
            throw new IllegalArgumentException("hello does not fit " + cap + " bytes");
        }
        return w.length();
    }

    /** The hello for {@code name} (null: without a name) as a new array. */
    public static byte[] frame(String name) {
        byte[] b = new byte[256];
        int n = write(b, 0, b.length, name == null ? null : Utf8.bytes(name));
        return java.util.Arrays.copyOf(b, n);
    }

    /**
     * Reads {@code b[off, off+len)} as a hello.
     *
     * @return OK when it is one (then {@link #hasName}, {@link #nameOffset}, {@link #nameLength} say
     *     where the name is in {@code b}); FRAME_* when it is no libtracer frame;
     *     SCHEMA_TYPE_MISMATCH when it is a frame but no FWD READ of {@code /$node/caps};
     *     VERSION_MISMATCH when it carries no Spectrum announcement
     */
    public int read(byte[] b, int off, int len) {
        nameOffset = -1;
        nameLength = 0;
        int rc = decoder.decode(b, off, len, index);
        if (rc != WireError.OK) {
            return rc;
        }
        if (fwd.wrap(index, 0) != WireError.OK || fwd.opcode() != FwdView.OP_READ
                || fwd.dstIsPathRef() || !fwd.dstEquals(CAPS.frame(), CAPS.bodyOffset(), CAPS.bodyLength())) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        int first = index.nextSibling(fwd.src());
        if (first == TlvIndex.NONE || extensions.announced(index, first) < 1) {
            return WireError.VERSION_MISMATCH;
        }
        int name = extensions.announcedName(index, first);
        if (name != TlvIndex.NONE) {
            nameOffset = index.bodyOffset(name);
            nameLength = index.bodyLength(name);
        }
        return WireError.OK;
    }

    /** True when the last hello read carries a name. */
    public boolean hasName() {
        return nameOffset >= 0;
    }

    /**
     * Offset in the buffer given to the last {@link #read} of the announced name's UTF-8 bytes, -1
     * when it carried none.
     */
    public int nameOffset() {
        return nameOffset;
    }

    /** Bytes of the announced name, 0 when the last hello carried none. */
    public int nameLength() {
        return nameLength;
    }
}
