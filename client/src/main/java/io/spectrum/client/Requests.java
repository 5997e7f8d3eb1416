package io.spectrum.client;

import io.spectrum.node.api.NodePath;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.util.Arrays;

/**
 * The request shapes the client sends, each built with the wire's {@link TlvWriter} and named with
 * the wire vocabulary ({@link Names}, {@link FieldView}, {@link DeliveryPolicy}): the FWD envelope
 * (digest §5.1), FIELD selectors (§5.3, with Spectrum's generation level, docs/extensions.md) and
 * SUBSCRIBER records (§4). Host side: each returns a fresh array.
 */
public final class Requests {
    private static final int SCRATCH = 64 * 1024;

    private Requests() {
    }

    /** A {@link TlvWriter} build into a scratch buffer. */
    interface Build {
        void into(TlvWriter w);
    }

    /** The bytes of one build, or null when it did not fit or did not close. */
    static byte[] build(Build b) {
        byte[] buf = new byte[SCRATCH];
        TlvWriter w = new TlvWriter().wrap(buf, 0, buf.length);
        b.into(w);
        return w.error() == WireError.OK && w.depth() == 0 ? Arrays.copyOf(buf, w.length()) : null;
    }

    /**
     * FWD{VALUE u8 op, dst, [field], src, payload...}: every part already encoded.
     *
     * @return the frame, or null when it exceeds 64 KiB
     */
    public static byte[] fwd(int op, byte[] dst, byte[] field, byte[] src, byte[]... payload) {
        return build(w -> {
            w.begin(TlvType.FWD).value(op, 1).raw(dst);
            if (field != null) {
                w.raw(field);
            }
            w.raw(src);
            for (byte[] p : payload) {
                if (p != null) {
                    w.raw(p);
                }
            }
            w.end();
        });
    }

    /** The PATH TLV of {@code /a/b}; throws IllegalArgumentException for a bad path. */
    public static byte[] path(String text) {
        return NodePath.of(text).tlv().clone();
    }

    /** {@code :subscribers[]}: FIELD{NAME subscribers, VALUE u8 ELEMENT} (the list and the append door). */
    public static byte[] subscribers() {
        return build(w -> w.begin(TlvType.FIELD).leaf(TlvType.NAME, Names.SUBSCRIBERS)
                .value(FieldView.MODE_ELEMENT, 1).end());
    }

    /**
     * {@code :subscribers[N]}, with the generation guard when {@code generation >= 0}:
     * FIELD{NAME subscribers, VALUE u32 N, [VALUE u32 generation,] VALUE u8 ELEMENT}. A node that
     * holds another generation at N answers {@code path::not_found} and changes nothing.
     */
    public static byte[] subscribersAt(int index, long generation) {
        return build(w -> {
            w.begin(TlvType.FIELD).leaf(TlvType.NAME, Names.SUBSCRIBERS).value(index, 4);
            if (generation >= 0) {
                w.value(generation, 4);
            }
            w.value(FieldView.MODE_ELEMENT, 1).end();
        });
    }

    /** {@code :children[]}: FIELD{NAME children, VALUE u8 ELEMENT} (digest §5.4). */
    public static byte[] children() {
        return build(w -> w.begin(TlvType.FIELD).leaf(TlvType.NAME, Names.CHILDREN)
                .value(FieldView.MODE_ELEMENT, 1).end());
    }

    /**
     * SUBSCRIBER{PATH route, [SETTINGS{[NAME delivery_policy VALUE u16 policy], [NAME spectrum.topic
     * VALUE u8 1]}]}: no SETTINGS when {@code policy < 0} and not {@code stamped}; a policy word only
     * when {@code policy >= 0}.
     */
    public static byte[] subscriber(String route, int policy, boolean stamped) {
        byte[] target = path(route);
        return build(w -> {
            w.begin(TlvType.SUBSCRIBER).raw(target);
            if (policy >= 0 || stamped) {
                w.begin(TlvType.SETTINGS);
                if (policy >= 0) {
                    w.leaf(TlvType.NAME, Names.DELIVERY_POLICY).value(policy & 0xFFFF, DeliveryPolicy.WIDTH);
                }
                if (stamped) {
                    w.leaf(TlvType.NAME, Names.TOPIC).value(1, 1);
                }
                w.end();
            }
            w.end();
        });
    }

    /** The empty STATUS: the clear sentinel of {@code :subscribers[N]}. A copy. */
    public static byte[] emptyStatus() {
        return Names.EMPTY_STATUS.clone();
    }
}
