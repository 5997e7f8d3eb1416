package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The codec's one reader of the delivery-mode keys and the consumed message (docs/extensions.md "Delivery modes"). */
class DeliveryModeTest {
    /** SETTINGS{pairs} from (key, value TLV) pairs, parsed and read by {@link DeliveryMode#parse}. */
    static long parse(Object... kv) {
        byte[] b = new byte[256];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length).begin(TlvType.SETTINGS);
        for (int i = 0; i < kv.length; i += 2) {
            w.leaf(TlvType.NAME, (Spelling) kv[i]);
            if (kv[i + 1] instanceof Spelling fixed) {
                w.raw(fixed);
            } else {
                w.raw((byte[]) kv[i + 1]);
            }
        }
        w.end();
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(b, 0, w.length(), x));
        SettingsReader r = new SettingsReader();
        assertEquals(WireError.OK, r.wrap(x, 0));
        return DeliveryMode.parse(r);
    }

    static byte[] v(long n, int width) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length).value(n, width);
        return Arrays.copyOf(b, w.length());
    }

    @Test
    void absentKeys_areNoMode_andOtherKeysAreSkipped() {
        assertEquals(0, parse());
        assertEquals(0, parse(Names.DELIVERY_POLICY, v(0x20, 2), Names.TOPIC, v(1, 1)));
    }

    @Test
    void absentQueueAndInFlight_readAsTheLimits() {
        long latest = parse(Names.MODE, v(DeliveryMode.LATEST, 1));
        assertEquals(DeliveryMode.LATEST, DeliveryMode.kind(latest));
        assertEquals(1, DeliveryMode.maxQueued(latest));
        assertEquals(2, DeliveryMode.maxInFlight(latest));
        long bounded = parse(Names.MODE, v(DeliveryMode.BOUNDED, 1), Names.MODE_INFLIGHT, v(3, 2));
        assertEquals(DeliveryMode.BOUNDED, DeliveryMode.kind(bounded));
        assertEquals(64, DeliveryMode.maxQueued(bounded));
        assertEquals(3, DeliveryMode.maxInFlight(bounded));
    }

    @Test
    void malformedKeys_areTypeMismatch_aboveTheLimitIsBackpressure() {
        final long tm = -WireError.SCHEMA_TYPE_MISMATCH;
        final long bp = -WireError.FLOW_BACKPRESSURE;
        assertEquals(tm, parse(Names.MODE, v(3, 1)));
        assertEquals(tm, parse(Names.MODE, v(1, 2)), "a u16 mode");
        assertEquals(tm, parse(Names.MODE, Names.EMPTY_STATUS));
        assertEquals(tm, parse(Names.MODE, v(2, 1), Names.MODE, v(2, 1)), "repeated");
        assertEquals(tm, parse(Names.MODE, v(2, 1), Names.MODE_QUEUE, v(2, 2), Names.MODE_QUEUE, v(2, 2)));
        assertEquals(tm, parse(Names.MODE_INFLIGHT, v(1, 2)), "without a mode");
        assertEquals(tm, parse(Names.MODE, v(2, 1), Names.MODE_QUEUE, v(0, 2)));
        assertEquals(tm, parse(Names.MODE, v(1, 1), Names.MODE_QUEUE, v(2, 2)), "latest holds one");
        assertEquals(bp, parse(Names.MODE, v(1, 1), Names.MODE_INFLIGHT, v(3, 2)));
        assertEquals(bp, parse(Names.MODE, v(2, 1), Names.MODE_QUEUE, v(65535, 2)));
        assertEquals(bp, parse(Names.MODE, v(2, 1), Names.MODE_INFLIGHT, v(17, 2)));
    }

    @Test
    void consumed_readsExactlyThePairItsWriterWrites() {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        DeliveryMode.writeConsumed(w, 7);
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(b, 0, w.length(), x));
        assertEquals(7, DeliveryMode.consumed(x, 0));
        w = new TlvWriter().wrap(b, 0, b.length);
        DeliveryMode.writeConsumed(w, -1L);
        assertEquals(WireError.OK, new FrameDecoder().decode(b, 0, w.length(), x));
        assertEquals(Long.MAX_VALUE, DeliveryMode.consumed(x, 0), "a u64 above 2^63 is above any delivery number");
        w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, Names.CONSUMED).value(1, 8).leaf(TlvType.NAME, Names.TOPIC)
                .value(1, 1).end();
        assertEquals(WireError.OK, new FrameDecoder().decode(b, 0, w.length(), x));
        assertEquals(-1, DeliveryMode.consumed(x, 0), "anything more is no consumed message");
        w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, Names.CONSUMED).value(1, 4).end();
        assertEquals(WireError.OK, new FrameDecoder().decode(b, 0, w.length(), x));
        assertEquals(-1, DeliveryMode.consumed(x, 0), "a u32 is no u64");
    }
}
