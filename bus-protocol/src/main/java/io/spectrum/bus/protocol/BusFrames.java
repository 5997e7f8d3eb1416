package io.spectrum.bus.protocol;

import io.spectrum.wire.Dispatch;
import io.spectrum.wire.BusError;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;
import java.util.Arrays;

/**
 * The one owner of the host bus's frame shapes over libtracer v1 (docs/bus.md). Every bus message
 * is an ordinary FWD frame, so it crosses any libtracer v1 link and a dissector
 * shows it without a warning:
 *
 * <ul>
 *   <li>a request: {@code FWD{VALUE u8 WRITE, PATH /$bus/<command>, PATH <reply route>,
 *       SETTINGS fields}} — the command's dots are path separators ({@code topic.declare} is
 *       {@code /$bus/topic/declare}); the reply route is chosen by the client per request, so
 *       replies correlate by route;
 *   <li>a reply: {@code FWD{VALUE u8 REPLY, PATH <request's src>, PATH <request's dst>, VALUE u8
 *       kind, payload}} — RESULT with a SETTINGS of the reply's fields, or ERROR with
 *       {@code STATUS{ERROR{VALUE u16 tr code, NAME "<BUS_ERROR>"}, DESCRIPTION text,
 *       SETTINGS{NAME dispatch NAME "<state>"}}} (a v1 reader takes the registry code);
 *   <li>an event the bus sends unasked (a delivery or a notice): {@code FWD{VALUE u8 WRITE,
 *       PATH /$bus/<kind>, PATH "" (no reply wanted), SETTINGS fields}}.
 * </ul>
 *
 * A {@code $} path is node-internal (docs/extensions.md), so a plain libtracer peer never writes
 * one and a node that does not run a bus refuses it.
 */
public final class BusFrames {
    /** The first segment of every bus path. */
    public static final String ROOT = "$bus";
    private static final byte[] EMPTY_PATH = {TlvType.PATH, 0, 0, 0};
    private static final byte[] DISPATCH = Utf8.bytes("dispatch");

    private BusFrames() {
    }

    /** {@code /$bus/topic/declare} for {@code topic.declare}. */
    public static String commandPath(String command) {
        return "/" + ROOT + "/" + command.replace('.', '/');
    }

    /** The command (or event kind) a bus path names: {@code topic.declare}; null when not a bus path. */
    public static String commandOf(String path) {
        String prefix = "/" + ROOT + "/";
        return path.startsWith(prefix) && path.length() > prefix.length()
                ? path.substring(prefix.length()).replace('/', '.') : null;
    }

    /**
     * True for a path under the bus's root ({@code /$bus} itself or {@code /$bus/...}): what a bus
     * connection's frame addressed there is for the bus; any other dst is for the host's node
     * (docs/bus.md, "The host's node through the bus").
     */
    public static boolean isBusPath(String path) {
        String root = "/" + ROOT;
        return path.startsWith(root) && (path.length() == root.length() || path.charAt(root.length()) == '/');
    }

    /**
     * The dst of a FWD frame as text ("" when the dst is a path reference, which no bus frame uses),
     * or null when the frame is no well-formed FWD: how a bus connection tells its frames for the
     * node from its frames for the bus ({@link #isBusPath}) before reading one as a bus message.
     */
    public static String fwdDst(byte[] buf, int off, int len) {
        FwdView fwd = fwd(buf, off, len);
        return fwd == null ? null : dstText(fwd);
    }

    /** The FWD in {@code buf}, decoded once, or null when the frame is no well-formed FWD. */
    private static FwdView fwd(byte[] buf, int off, int len) {
        TlvIndex idx = new TlvIndex(Math.max(64, len / 4 + 16), 16);
        FwdView fwd = new FwdView();
        if (new FrameDecoder().decode(buf, off, len, idx) != WireError.OK || fwd.wrap(idx, 0) != WireError.OK) {
            return null;
        }
        return fwd;
    }

    /** A FWD's dst as text ("" for a path reference, which no bus frame uses). */
    private static String dstText(FwdView fwd) {
        return fwd.dstIsPathRef() ? "" : render(fwd.index(), fwd.dst());
    }

    /**
     * The dst of a frame a bus connection sends for the host's node (docs/bus.md, "The host's node
     * through the bus"), decoded once; null when it is not for the node: not a well-formed FWD, a dst
     * under {@code /$bus}, or a READ or AWAIT with an empty src, which wants an answer and names no
     * route for it (a node drops it unanswered; the local link's hello, a READ of {@code /$node/caps}
     * carrying the client's announcement, is one, so a bus never relays it).
     */
    public static String relayDst(byte[] buf, int off, int len) {
        FwdView fwd = fwd(buf, off, len);
        if (fwd == null) {
            return null;
        }
        String dst = dstText(fwd);
        if (isBusPath(dst) || (fwd.opcode() == FwdView.OP_READ || fwd.opcode() == FwdView.OP_AWAIT) && fwd.srcEmpty()) {
            return null;
        }
        return dst;
    }

    /** A request frame. */
    public static byte[] request(String command, String replyRoute, BusFields body) {
        return fwd(FwdView.OP_WRITE, NodePath.of(commandPath(command)).tlv(), NodePath.of(replyRoute).tlv(), -1, body, null);
    }

    /** An event frame (delivery or notice). */
    public static byte[] event(String kind, BusFields body) {
        return fwd(FwdView.OP_WRITE, NodePath.of(commandPath(kind)).tlv(), EMPTY_PATH, -1, body, null);
    }

    /** The bytes {@link #event} would produce, without building it. */
    public static long eventSize(String kind, BusFields body) {
        long inner = 5 + NodePath.of(commandPath(kind)).tlv().length + EMPTY_PATH.length + body.encodedSize();
        return inner + (inner > 0xFFFF ? 6 : 4);
    }

    /** A RESULT reply to the request {@code to}. */
    public static byte[] result(Decoded to, BusFields value) {
        return fwd(FwdView.OP_REPLY, to.srcTlv, to.dstTlv, FwdView.KIND_RESULT, value, null);
    }

    /** An ERROR reply to the request {@code to}. */
    public static byte[] error(Decoded to, BusException e) {
        return fwd(FwdView.OP_REPLY, to.srcTlv, to.dstTlv, FwdView.KIND_ERROR, null, e);
    }

    private static byte[] fwd(int op, byte[] dst, byte[] src, int kind, BusFields body, BusException err) {
        byte[] message = err == null ? null : Utf8.bytes(String.valueOf(err.getMessage()));
        byte[] code = err == null ? null : Utf8.bytes(err.code().wireName());
        byte[] dispatch = err == null ? null : Utf8.bytes(err.dispatch().wireName());
        int payload = body != null ? body.encodedSize()
                : err != null ? 4 + (4 + 6 + 4 + code.length) + (4 + message.length)
                        + (4 + 4 + DISPATCH.length + 4 + dispatch.length) : 0;
        int inner = 5 + dst.length + src.length + (kind >= 0 ? 5 : 0) + payload;
        int size = inner + (inner > 0xFFFF ? 6 : 4);
        byte[] buf = new byte[size];
        TlvWriter w = new TlvWriter().wrap(buf, 0, size);
        w.begin(TlvType.FWD, BusFields.opt(inner)).value(op, 1).raw(dst).raw(src);
        if (kind >= 0) {
            w.value(kind, 1);
        }
        if (body != null) {
            body.writeTo(w);
        } else if (err != null) {
            w.begin(TlvType.STATUS)
                    .begin(TlvType.ERROR).value(err.code().tracerCode(), 2).leaf(TlvType.NAME, code).end()
                    .leaf(TlvType.DESCRIPTION, message)
                    .begin(TlvType.SETTINGS).leaf(TlvType.NAME, DISPATCH).leaf(TlvType.NAME, dispatch).end()
                    .end();
        }
        w.end();
        if (w.error() != WireError.OK) {
            throw new IllegalStateException("bus frame encoding failed: " + WireError.identity(w.error()));
        }
        return w.length() == size ? buf : Arrays.copyOf(buf, w.length());
    }

    /**
     * A decoded bus frame: its op, its dst as text ({@link #command()} for a bus path), the raw
     * dst and src PATH TLVs (a reply echoes them), the reply kind, and the fields or the error.
     */
    public record Decoded(int op, String dst, byte[] dstTlv, byte[] srcTlv, String src, int kind,
            BusFields fields, BusException error) {
        /** The command or event kind ({@code topic.declare}), or null when dst is not a bus path. */
        public String command() {
            return commandOf(dst);
        }

        /** True for a reply frame (FWD op REPLY); false for a request or an event. */
        public boolean isReply() {
            return op == FwdView.OP_REPLY;
        }
    }

    /**
     * Decodes one frame as a bus message.
     *
     * @throws BusException INVALID_ENVELOPE when the frame is not a well-formed bus FWD
     */
    public static Decoded decode(byte[] buf, int off, int len) throws BusException {
        TlvIndex idx = new TlvIndex(Math.max(64, len / 4 + 16), 16);
        int rc = new FrameDecoder().decode(buf, off, len, idx);
        FwdView fwd = new FwdView();
        if (rc == WireError.OK) {
            rc = fwd.wrap(idx, 0);
        }
        if (rc != WireError.OK) {
            throw new BusException(BusError.INVALID_ENVELOPE, "not a FWD frame (" + WireError.identity(rc) + ")");
        }
        int dstE = fwd.dst();
        int srcE = fwd.src();
        if (fwd.dstIsPathRef() || fwd.srcIsPathRef() || fwd.field() != TlvIndex.NONE) {
            throw new BusException(BusError.INVALID_ENVELOPE, "a bus frame is FWD{op, PATH dst, PATH src, body}");
        }
        int op = fwd.opcode();
        byte[] dstTlv = Arrays.copyOfRange(buf, idx.start(dstE), idx.end(dstE));
        byte[] srcTlv = Arrays.copyOfRange(buf, idx.start(srcE), idx.end(srcE));
        String dst = render(idx, dstE);
        String src = render(idx, srcE);
        if (op == FwdView.OP_REPLY) {
            if (fwd.kindEntry() == TlvIndex.NONE) {
                throw new BusException(BusError.INVALID_ENVELOPE, "a bus reply carries its kind");
            }
            if (fwd.kind() == FwdView.KIND_RESULT) {
                return new Decoded(op, dst, dstTlv, srcTlv, src, fwd.kind(), BusFields.read(idx, fwd.payload()), null);
            }
            return new Decoded(op, dst, dstTlv, srcTlv, src, fwd.kind(), null, readError(idx, fwd.payload()));
        }
        if (op != FwdView.OP_WRITE) {
            throw new BusException(BusError.INVALID_ENVELOPE, "a bus request is a WRITE");
        }
        BusFields fields = BusFields.read(idx, fwd.payload());
        if (fwd.afterPayload() != TlvIndex.NONE) {
            throw new BusException(BusError.INVALID_ENVELOPE, "a bus request has one body");
        }
        return new Decoded(op, dst, dstTlv, srcTlv, src, -1, fields, null);
    }

    private static String render(TlvIndex idx, int pathE) {
        return NodePath.render(idx.buffer(), idx.bodyOffset(pathE), idx.bodyLength(pathE));
    }

    private static BusException readError(TlvIndex idx, int status) throws BusException {
        if (status == TlvIndex.NONE || idx.type(status) != TlvType.STATUS) {
            throw new BusException(BusError.INVALID_ENVELOPE, "a bus error reply carries a STATUS");
        }
        byte[] b = idx.buffer();
        int errE = idx.findSibling(idx.firstChild(status), TlvType.ERROR);
        if (errE == TlvIndex.NONE) {
            throw new BusException(BusError.INVALID_ENVELOPE, "a bus error reply carries an ERROR");
        }
        int codeE = idx.firstChild(errE);
        int nameE = codeE == TlvIndex.NONE ? TlvIndex.NONE : idx.findSibling(idx.nextSibling(codeE), TlvType.NAME);
        BusError code = nameE == TlvIndex.NONE ? null
                : BusError.byWireName(Utf8.toString(b, idx.bodyOffset(nameE), idx.bodyLength(nameE)));
        if (code == null) {
            // a plain libtracer error: the nearest bus code by its registry number
            long tr = codeE == TlvIndex.NONE ? 0 : idx.valueAsLong(codeE);
            code = tr == WireError.FLOW_BACKPRESSURE ? BusError.BACKPRESSURE
                    : tr == WireError.ACCESS_DENIED ? BusError.NOT_AUTHORIZED
                    : tr == WireError.VERSION_MISMATCH ? BusError.VERSION_MISMATCH : BusError.INVALID_ENVELOPE;
        }
        int descE = idx.findSibling(idx.firstChild(status), TlvType.DESCRIPTION);
        String message = descE == TlvIndex.NONE ? code.wireName()
                : Utf8.toString(b, idx.bodyOffset(descE), idx.bodyLength(descE));
        String prefix = code.wireName() + ": ";
        if (message.startsWith(prefix)) {
            message = message.substring(prefix.length());
        }
        Dispatch dispatch = Dispatch.NOT_DISPATCHED;
        int setE = idx.findSibling(idx.firstChild(status), TlvType.SETTINGS);
        if (setE != TlvIndex.NONE) {
            String d = BusFields.read(idx, setE).string("dispatch", null);
            Dispatch parsed = d == null ? null : Dispatch.byWireName(d);
            if (parsed != null) {
                dispatch = parsed;
            }
        }
        return new BusException(code, message, dispatch);
    }
}
