package io.spectrum.hil.oracle;

import io.spectrum.client.Requests;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.PathView;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The HIL's oracle encoder: the bytes a scenario sends that the one client
 * ({@link io.spectrum.client.PeerClient}, which builds only well-formed requests) deliberately cannot
 * — FWDs without src or with a NAME op, REPLYs sent as requests, ragged PATHs, FIELD mode 7, CRC
 * trailers — and the byte-exact values and records a scenario expects back. Each returns one encoded
 * TLV as a fresh byte array, exactly libtracer's shapes (PATH, SUBSCRIBER/SETTINGS,
 * FWD/FIELD) or deliberately wrong ones. Used by the scenarios at run time ({@code spectrum hil}),
 * hence in main. Every byte is written by the wire
 * package's {@link TlvWriter} and every constant (ops, FIELD modes, policy bits, names) is the wire
 * vocabulary's ({@link FwdView}, {@link FieldView}, {@link io.spectrum.wire.DeliveryPolicy},
 * {@link Names}): the HIL is not an independent encoder, its independence is in the scenarios'
 * expected bytes and outcomes.
 */
public final class Wire {
    private Wire() {
    }

    /** Runs a TlvWriter build into a scratch buffer and returns the bytes. */
    public interface Build {
        /** Writes the TLVs into {@code w}. */
        void into(TlvWriter w);
    }

    /**
     * The bytes {@code b} writes; {@link IllegalStateException} when the writer refuses them or a container is left
     * open.
     */
    public static byte[] build(Build b) {
        byte[] buf = new byte[64 * 1024];
        TlvWriter w = new TlvWriter().wrap(buf, 0, buf.length);
        b.into(w);
        if (w.error() != WireError.OK || w.depth() != 0) {
            throw new IllegalStateException("could not build TLV: " + WireError.identity(w.error()));
        }
        return Arrays.copyOf(buf, w.length());
    }

    /** Packed PATH body of a text path: "/temp" -> 04 'temp'. "/" is empty. */
    public static byte[] pathBody(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String seg : text.split("/")) {
            if (seg.isEmpty()) {
                continue;
            }
            byte[] b = seg.getBytes(StandardCharsets.UTF_8);
            out.write(b.length);
            out.write(b, 0, b.length);
        }
        return out.toByteArray();
    }

    /** A PATH TLV of {@code text} ("/board/temp"). */
    public static byte[] path(String text) {
        return leaf(TlvType.PATH, pathBody(text));
    }

    /** Text of a packed PATH body, as the wire's {@link PathView} renders it. */
    public static String pathText(byte[] body) {
        return new PathView().wrap(body, 0, body.length).toText();
    }

    /** One leaf TLV of {@code type} carrying {@code payload}. */
    public static byte[] leaf(int type, byte[] payload) {
        return build(w -> w.leaf(type, payload));
    }

    /** A VALUE TLV of {@code v} in {@code width} bytes, little-endian. */
    public static byte[] value(long v, int width) {
        return build(w -> w.value(v, width));
    }

    /** A NAME TLV of {@code s} in UTF-8. */
    public static byte[] name(String s) {
        return leaf(TlvType.NAME, s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * SUBSCRIBER{PATH target[, SETTINGS{NAME delivery_policy VALUE u16 policy}]}; policy null means
     * no SETTINGS child (the policy word is then absent, which reads as 0).
     */
    public static byte[] subscriber(String target, Integer policy, byte[]... extraSettings) {
        return build(w -> {
            w.begin(TlvType.SUBSCRIBER).raw(path(target));
            if (policy != null || extraSettings.length > 0) {
                w.begin(TlvType.SETTINGS);
                if (policy != null) {
                    w.leaf(TlvType.NAME, Names.DELIVERY_POLICY).value(policy, 2);
                }
                for (byte[] s : extraSettings) {
                    w.raw(s);
                }
                w.end();
            }
            w.end();
        });
    }

    /** FIELD with one level: {@code :name}, {@code :name[]} (index < 0) or {@code :name[index]}. */
    public static byte[] field(String fieldName, int index, int mode) {
        return build(w -> {
            w.begin(TlvType.FIELD).raw(name(fieldName));
            if (index >= 0) {
                w.value(index, 4).value(mode, 1);
            } else if (mode != FieldView.MODE_SCALAR) {
                w.value(mode, 1);
            }
            w.end();
        });
    }

    /**
     * FWD{VALUE u8 op, dst, [field], src, payload...}. Every argument is already encoded, so a
     * scenario can put wrong bytes in any position.
     */
    public static byte[] fwd(int op, byte[] dst, byte[] field, byte[] src, byte[]... payload) {
        byte[] f = Requests.fwd(op, dst, field, src, payload); // the client's envelope builder
        if (f == null) {
            throw new IllegalStateException("a FWD of more than 64 KiB");
        }
        return f;
    }
}
