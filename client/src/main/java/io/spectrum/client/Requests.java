package io.spectrum.client;

import io.spectrum.node.api.NodePath;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.util.Arrays;

/**
 * The request shapes the client sends, each built with the wire's {@link TlvWriter} and named with
 * the wire vocabulary ({@link Names}, {@link FieldView}, {@link DeliveryPolicy}): the FWD envelope,
 * FIELD selectors (with Spectrum's generation level, docs/extensions.md) and SUBSCRIBER
 * records. Host side: each returns a fresh array.
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

    /**
     * A READ's trailing child asking for the topic stamp on the answer: {@code SETTINGS{[the pairs of
     * announcement], NAME "spectrum.topic" VALUE u8 1}} ({@code announcement} null: the pair alone).
     */
    public static byte[] askStamp(byte[] announcement) {
        TlvIndex x = new TlvIndex();
        boolean merge = announcement != null
                && new FrameDecoder().decode(announcement, 0, announcement.length, x) == WireError.OK;
        return build(w -> {
            w.begin(TlvType.SETTINGS);
            if (merge) {
                w.raw(announcement, x.bodyOffset(0), x.bodyLength(0));
            }
            w.leaf(TlvType.NAME, Names.TOPIC).value(Names.TOPIC_STAMP, 1).end();
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
     * {@code :subscribers[N]}, with the generation guard when {@code generation >= 0}
     * ({@code :subscribers[N@G]}, spelled by {@link FieldView#element}). A node that holds another
     * generation at N answers {@code path::not_found} and changes nothing.
     */
    public static byte[] subscribersAt(int index, long generation) {
        return build(w -> FieldView.element(w.begin(TlvType.FIELD), Names.SUBSCRIBERS, index, generation).end());
    }

    /** {@code :children[]}: FIELD{NAME children, VALUE u8 ELEMENT}. */
    public static byte[] children() {
        return build(w -> w.begin(TlvType.FIELD).leaf(TlvType.NAME, Names.CHILDREN)
                .value(FieldView.MODE_ELEMENT, 1).end());
    }

    /**
     * {@code :settings.app}: FIELD{NAME settings, NAME app}, the owner-declared namespace where a
     * vertex's declaration lives (docs/extensions.md, "Vertex declarations").
     */
    public static byte[] settingsApp() {
        return build(w -> w.begin(TlvType.FIELD).leaf(TlvType.NAME, Names.SETTINGS).leaf(TlvType.NAME, Names.APP).end());
    }

    /**
     * A FIELD selector from its text form, the inverse of {@link FieldView#toText()} without the
     * leading colon: levels separated by {@code .}, each a name with an optional {@code []},
     * {@code [*]}, {@code [N]} or {@code [N@G]} (e.g. {@code settings.app.unit}, {@code schema},
     * {@code subscribers[2]}). The bytes are checked with {@link FieldView}, the one FIELD reader.
     *
     * @throws IllegalArgumentException naming what is wrong with {@code text}
     */
    public static byte[] field(String text) {
        String[] levels = text.split("\\.", -1);
        byte[] out = build(w -> {
            w.begin(TlvType.FIELD);
            for (String level : levels) {
                fieldLevel(w, level, text);
            }
            w.end();
        });
        TlvIndex x = new TlvIndex();
        if (out == null || new FrameDecoder().decode(out, 0, out.length, x) != WireError.OK
                || new FieldView().wrap(x, 0) != WireError.OK) {
            throw new IllegalArgumentException("':" + text + "' is not a field selector (e.g. :settings.app, :schema, :subscribers[])");
        }
        return out;
    }

    private static void fieldLevel(TlvWriter w, String level, String text) {
        int b = level.indexOf('[');
        String name = b < 0 ? level : level.substring(0, b);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("':" + text + "' has an empty level name");
        }
        byte[] nameBytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (b < 0) {
            w.leaf(TlvType.NAME, nameBytes);
            return;
        }
        if (!level.endsWith("]")) {
            throw new IllegalArgumentException("':" + text + "': '" + level + "' does not end with ]");
        }
        String inside = level.substring(b + 1, level.length() - 1);
        if (inside.equals("*")) {
            w.leaf(TlvType.NAME, nameBytes).value(FieldView.MODE_WILDCARD, 1);
            return;
        }
        int index = -1;
        long generation = -1;
        if (!inside.isEmpty()) {
            String[] ig = inside.split("@", -1);
            try {
                index = Integer.parseInt(ig[0]);
                if (ig.length == 2) {
                    generation = Long.parseLong(ig[1]);
                } else if (ig.length > 2) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("':" + text + "': '[" + inside + "]' is not [N] or [N@G]");
            }
        }
        FieldView.element(w, nameBytes, index, generation); // [N@G]: the codec's generation level
    }

    /**
     * SUBSCRIBER{PATH route, [SETTINGS{[NAME delivery_policy VALUE u16 policy], [NAME spectrum.topic
     * VALUE u8 1]}]}: no SETTINGS when {@code policy < 0} and not {@code stamped}; a policy word only
     * when {@code policy >= 0}.
     */
    public static byte[] subscriber(String route, int policy, boolean stamped) {
        return subscriber(route, policy, stamped ? Names.TOPIC_STAMP : 0);
    }

    /**
     * As {@link #subscriber(String, String, int, boolean)} with {@code NAME spectrum.topic VALUE u8
     * topic} when {@code topic != 0} ({@link Names#TOPIC_STAMP}, | {@link Names#TOPIC_WITH_PATH} for
     * the written vertex's path in the stamp).
     */
    public static byte[] subscriber(String route, int policy, int topic) {
        byte[] target = path(route);
        final boolean stamped = topic != 0;
        return build(w -> {
            w.begin(TlvType.SUBSCRIBER).raw(target);
            if (policy >= 0 || stamped) {
                w.begin(TlvType.SETTINGS);
                if (policy >= 0) {
                    w.leaf(TlvType.NAME, Names.DELIVERY_POLICY).value(policy & 0xFFFF, DeliveryPolicy.WIDTH);
                }
                if (stamped) {
                    w.leaf(TlvType.NAME, Names.TOPIC).value(topic & 0xFF, 1);
                }
                w.end();
            }
            w.end();
        });
    }

    /**
     * As {@link #subscriber(String, int, int)} plus the delivery-mode keys (docs/extensions.md "Delivery
     * modes"): {@code NAME spectrum.mode VALUE u8 mode} ({@code DeliveryMode.LATEST} / {@code BOUNDED}),
     * then {@code spectrum.queue} and {@code spectrum.inflight} VALUE u16 when {@code > 0} (0: the
     * node's limit).
     */
    public static byte[] subscriber(String route, int policy, int topic, int mode, int maxQueued, int maxInFlight) {
        byte[] target = path(route);
        return build(w -> {
            w.begin(TlvType.SUBSCRIBER).raw(target).begin(TlvType.SETTINGS);
            if (policy >= 0) {
                w.leaf(TlvType.NAME, Names.DELIVERY_POLICY).value(policy & 0xFFFF, DeliveryPolicy.WIDTH);
            }
            if (topic != 0) {
                w.leaf(TlvType.NAME, Names.TOPIC).value(topic & 0xFF, 1);
            }
            w.leaf(TlvType.NAME, Names.MODE).value(mode & 0xFF, 1);
            if (maxQueued > 0) {
                w.leaf(TlvType.NAME, Names.MODE_QUEUE).value(maxQueued & 0xFFFF, 2);
            }
            if (maxInFlight > 0) {
                w.leaf(TlvType.NAME, Names.MODE_INFLIGHT).value(maxInFlight & 0xFFFF, 2);
            }
            w.end().end();
        });
    }

    /** The consumed message {@code SETTINGS{NAME spectrum.consumed, VALUE u64 upTo}} (the codec's writer). */
    public static byte[] consumed(long upTo) {
        return build(w -> DeliveryMode.writeConsumed(w, upTo));
    }

    /** The empty STATUS: the clear sentinel of {@code :subscribers[N]}. A copy. */
    public static byte[] emptyStatus() {
        return Names.EMPTY_STATUS.copy();
    }
}
