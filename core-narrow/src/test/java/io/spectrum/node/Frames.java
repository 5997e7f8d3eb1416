package io.spectrum.node;

import io.spectrum.node.api.NodePath;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/** Builds FWD requests with TlvWriter and takes replies apart with FrameDecoder (test helper). */
final class Frames {
    static final byte[] REPLY_EP = NodePath.of("/reply-ep").tlv();
    static final byte[] EMPTY_PATH = {6, 0, 0, 0};

    private Frames() {
    }

    static byte[] hex(String h) {
        h = h.replace(" ", "");
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }

    static byte[] value(long v, int width) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, width);
        return java.util.Arrays.copyOf(b, w.length());
    }

    /** FIELD{NAME subscribers [, VALUE u32 N [, VALUE u32 gen]], VALUE u8 mode}; idx < 0 = no index. */
    static byte[] subsField(int idx, int mode, long gen) {
        byte[] b = new byte[128];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD);
        if (mode == io.spectrum.wire.FieldView.MODE_ELEMENT) {
            io.spectrum.wire.FieldView.element(w, "subscribers".getBytes(), idx, gen); // the codec's spelling
        } else {
            w.leaf(TlvType.NAME, "subscribers".getBytes());
            if (idx >= 0) {
                w.value(idx, 4);
            }
            w.value(mode, 1);
        }
        w.end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    static byte[] field(String... names) {
        byte[] b = new byte[256];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD);
        for (String n : names) {
            w.leaf(TlvType.NAME, n.getBytes());
        }
        w.end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    /** FWD{VALUE u8 op, dst, [field], src, [payload...]}. */
    static byte[] fwd(int op, byte[] dst, byte[] field, byte[] src, byte[]... payload) {
        byte[] b = new byte[4096];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(op, 1).raw(dst);
        if (field != null) {
            w.raw(field);
        }
        w.raw(src);
        for (byte[] p : payload) {
            w.raw(p);
        }
        w.end();
        if (w.error() != WireError.OK) {
            throw new IllegalStateException("writer error " + w.error());
        }
        return java.util.Arrays.copyOf(b, w.length());
    }

    /** The FWD request {@code fwd} with the extensions announcement appended as its last child. */
    static byte[] announced(byte[] fwd) {
        byte[] b = new byte[fwd.length + io.spectrum.wire.Extensions.ANNOUNCE_BYTES];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).raw(fwd, 4, fwd.length - 4);
        io.spectrum.wire.Extensions.announce(w).end();
        if (w.error() != WireError.OK || (fwd[1] & 0x08) != 0) {
            throw new IllegalStateException("cannot announce on " + hex(fwd));
        }
        return java.util.Arrays.copyOf(b, w.length());
    }

    /** The FWD WRITE {@code fwd} made non-retained: the announcement child with {@code spectrum.retain} 0 appended. */
    static byte[] notRetained(byte[] fwd) {
        byte[] b = new byte[fwd.length + 64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).raw(fwd, 4, fwd.length - 4);
        io.spectrum.wire.Extensions.announceNotRetained(w).end();
        if (w.error() != WireError.OK || (fwd[1] & 0x08) != 0) {
            throw new IllegalStateException("cannot append to " + hex(fwd));
        }
        return java.util.Arrays.copyOf(b, w.length());
    }

    /** The FWD request {@code fwd} with the announcement of a clearing write ({@code spectrum.clear} {@code notify}) appended. */
    static byte[] clearing(byte[] fwd, boolean notify) {
        byte[] b = new byte[fwd.length + 64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).raw(fwd, 4, fwd.length - 4);
        io.spectrum.wire.Extensions.announceClear(w, notify).end();
        if (w.error() != WireError.OK || (fwd[1] & 0x08) != 0) {
            throw new IllegalStateException("cannot append to " + hex(fwd));
        }
        return java.util.Arrays.copyOf(b, w.length());
    }

    /** The FWD request {@code fwd} with the announcement carrying {@code spectrum.name} (raw UTF-8 bytes) appended. */
    static byte[] named(byte[] fwd, byte[] name) {
        byte[] b = new byte[fwd.length + 64 + name.length];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).raw(fwd, 4, fwd.length - 4);
        io.spectrum.wire.Extensions.announce(w, name).end();
        if (w.error() != WireError.OK || (fwd[1] & 0x08) != 0) {
            throw new IllegalStateException("cannot announce on " + hex(fwd));
        }
        return java.util.Arrays.copyOf(b, w.length());
    }

    static byte[] named(byte[] fwd, String name) {
        return named(fwd, name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** SUBSCRIBER{PATH target [, SETTINGS{NAME delivery_policy VALUE u16 policy}] [+ extra SETTINGS pairs]}. */
    static byte[] subscriber(String target, int policy, boolean withPolicy, boolean topicStamp) {
        return subscriber(target, policy, withPolicy, topicStamp ? 1 : 0);
    }

    /** A SUBSCRIBER record whose qos asks {@code spectrum.topic} VALUE u8 {@code topic} (0 = no key). */
    static byte[] subscriber(String target, int policy, boolean withPolicy, int topic) {
        boolean topicStamp = topic != 0;
        byte[] b = new byte[512];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.SUBSCRIBER).raw(NodePath.of(target).tlv());
        if (withPolicy || topicStamp) {
            w.begin(TlvType.SETTINGS);
            if (withPolicy) {
                w.leaf(TlvType.NAME, "delivery_policy".getBytes()).value(policy, 2);
            }
            if (topicStamp) {
                w.leaf(TlvType.NAME, "spectrum.topic".getBytes()).value(topic, 1);
            }
            w.end();
        }
        w.end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    /** A decoded reply: the fields a test checks. */
    static final class Reply {
        final TlvIndex idx = new TlvIndex();
        byte[] frame;
        int op;
        int dst;
        int src;
        int kind = -1;
        int payload = TlvIndex.NONE;
        int trailing = TlvIndex.NONE;

        int errorCode() {
            if (kind != 1) {
                return WireError.OK;
            }
            return io.spectrum.wire.StatusView.errorCode(idx, payload, WireError.SCHEMA_TYPE_MISMATCH);
        }

        byte[] payloadBytes() {
            if (payload == TlvIndex.NONE) {
                return null;
            }
            return java.util.Arrays.copyOfRange(frame, idx.start(payload), idx.end(payload));
        }

        byte[] bytes(int e) {
            return java.util.Arrays.copyOfRange(frame, idx.start(e), idx.end(e));
        }
    }

    static Reply parse(byte[] frame) {
        Reply r = new Reply();
        r.frame = frame;
        int code = new FrameDecoder().decode(frame, 0, frame.length, r.idx);
        if (code != WireError.OK) {
            throw new IllegalStateException("reply does not decode: " + code + " " + hex(frame));
        }
        TlvIndex x = r.idx;
        if (x.type(0) != TlvType.FWD) {
            throw new IllegalStateException("not a FWD: " + hex(frame));
        }
        int c = x.firstChild(0);
        r.op = (int) x.valueAsLong(c);
        r.dst = x.nextSibling(c);
        r.src = x.nextSibling(r.dst);
        int k = x.nextSibling(r.src);
        if (r.op == 3) {
            r.kind = (int) x.valueAsLong(k);
            r.payload = x.nextSibling(k);
        } else {
            r.payload = k;
        }
        if (r.payload != TlvIndex.NONE) {
            r.trailing = x.nextSibling(r.payload);
        }
        return r;
    }
}
