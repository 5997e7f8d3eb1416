package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.node.api.Node;
import io.spectrum.testing.MemoryLink;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.SettingsReader;
import io.spectrum.wire.Spelling;
import io.spectrum.wire.StatusView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.Arrays;

/** Frames of the delivery-mode tests: SUBSCRIBER records with mode keys, appends, consumed messages, deliveries taken apart. */
final class ModeWire {
    private ModeWire() {
    }

    /**
     * Feeds {@code frame} from {@code peer} in at the far end of {@code link}, runs the node until it
     * is quiet, and answers the status of the REPLY it sent back.
     */
    static int replyStatus(Node node, MemoryLink link, int peer, byte[] frame) {
        int sent = link.sentCount();
        link.inject(peer, frame);
        pump(node);
        for (int k = sent; k < link.sentCount(); k++) {
            Frame a = new Frame(link.sentAt(k));
            if (a.opcode == FwdView.OP_REPLY) {
                return a.status;
            }
        }
        throw new AssertionError("no REPLY");
    }

    /** Polls and ticks {@code node} until a poll finds nothing (at most 100 rounds). */
    static void pump(Node node) {
        for (int i = 0; i < 100 && node.poll() > 0; i++) {
            node.tick();
        }
    }

    /** A qos pair for {@link #record}: a key and its value TLV. */
    record Pair(Spelling key, byte[] value) {
    }

    static Pair u8(Spelling key, int v) {
        return new Pair(key, Tlv.value(v, 1));
    }

    static Pair u16(Spelling key, int v) {
        return new Pair(key, Tlv.value(v, 2));
    }

    static Pair policy(int word) {
        return u16(Names.DELIVERY_POLICY, word);
    }

    static Pair mode(int kind) {
        return u8(Names.MODE, kind);
    }

    static Pair queue(int n) {
        return u16(Names.MODE_QUEUE, n);
    }

    static Pair inflight(int n) {
        return u16(Names.MODE_INFLIGHT, n);
    }

    static Pair topic(int ask) {
        return u8(Names.TOPIC, ask);
    }

    /** SUBSCRIBER{PATH route, SETTINGS{pairs...}} (no SETTINGS when there are no pairs). */
    static byte[] record(byte[] route, Pair... pairs) {
        byte[] b = new byte[512];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.SUBSCRIBER).raw(route);
        if (pairs.length > 0) {
            w.begin(TlvType.SETTINGS);
            for (Pair p : pairs) {
                w.leaf(TlvType.NAME, p.key()).raw(p.value());
            }
            w.end();
        }
        w.end();
        assertEquals(WireError.OK, w.error());
        return Arrays.copyOf(b, w.length());
    }

    /** FIELD {@code :subscribers[]} (the append door). */
    static byte[] appendField() {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD);
        FieldView.element(w, Names.SUBSCRIBERS, -1, -1).end();
        return Arrays.copyOf(b, w.length());
    }

    /** FIELD {@code :subscribers[n]}. */
    static byte[] slotField(int n) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD);
        FieldView.element(w, Names.SUBSCRIBERS, n, -1).end();
        return Arrays.copyOf(b, w.length());
    }

    /** The consumed message, as the codec writes it. */
    static byte[] consumed(long upTo) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        DeliveryMode.writeConsumed(w, upTo);
        return Arrays.copyOf(b, w.length());
    }

    /** FWD{VALUE u8 op, dst, [field], src, [payload]}. */
    static byte[] fwd(int op, byte[] dst, byte[] field, byte[] src, byte[] payload) {
        byte[] b = new byte[1024];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(op, 1).raw(dst);
        if (field != null) {
            w.raw(field);
        }
        w.raw(src);
        if (payload != null) {
            w.raw(payload);
        }
        w.end();
        assertEquals(WireError.OK, w.error());
        return Arrays.copyOf(b, w.length());
    }

    /** One frame taken apart: a reply's status, or a delivery's route, value and stamp. */
    static final class Frame {
        final byte[] bytes;
        final int opcode;
        final byte[] dst;
        final int status;
        final byte[] value;
        final long seq;
        /** The stamp's dlv / replaced, -1 when absent. */
        final long dlv;
        final long replaced;
        final boolean stamped;

        Frame(byte[] f) {
            bytes = f;
            TlvIndex x = new TlvIndex();
            assertEquals(WireError.OK, new FrameDecoder().decode(f, 0, f.length, x));
            FwdView v = new FwdView();
            assertEquals(WireError.OK, v.wrap(x, 0));
            opcode = v.opcode();
            dst = Arrays.copyOfRange(f, x.start(v.dst()), x.end(v.dst()));
            if (opcode == FwdView.OP_REPLY) {
                status = v.kind() == FwdView.KIND_ERROR ? StatusView.errorCode(x, v.payload(), -1) : WireError.OK;
                value = v.payload() == TlvIndex.NONE ? null : Arrays.copyOfRange(f, x.start(v.payload()), x.end(v.payload()));
                seq = dlv = replaced = -1;
                stamped = false;
                return;
            }
            status = WireError.OK;
            value = Arrays.copyOfRange(f, x.start(v.payload()), x.end(v.payload()));
            int stamp = x.nextSibling(v.payload());
            if (stamp == TlvIndex.NONE) {
                seq = dlv = replaced = -1;
                stamped = false;
                return;
            }
            SettingsReader outer = new SettingsReader();
            assertEquals(WireError.OK, outer.wrap(x, stamp));
            SettingsReader r = new SettingsReader();
            assertEquals(WireError.OK, outer.enter(Names.TOPIC, r));
            stamped = true;
            seq = r.u64(Names.STAMP_SEQ, -1);
            dlv = r.u64(Names.STAMP_DLV, -1);
            replaced = r.u64(Names.STAMP_REPLACED, -1);
        }

        boolean isDelivery() {
            return opcode == FwdView.OP_WRITE;
        }

        /** The delivered VALUE's integer. */
        long number() {
            TlvIndex x = new TlvIndex();
            assertEquals(WireError.OK, new FrameDecoder().decode(value, 0, value.length, x));
            return x.valueAsLong(0);
        }

        @Override
        public String toString() {
            return isDelivery() ? "delivery(dlv " + dlv + ", replaced " + replaced + ", seq " + seq + ")"
                    : "reply(" + WireError.identity(status) + ")";
        }
    }
}
