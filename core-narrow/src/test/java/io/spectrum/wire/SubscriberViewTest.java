package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SubscriberViewTest {
    static final String SUSPENDED_44 = "044028000600070006636C69656E740B40190002000F0064656C69766572795F706F6C696379010002000002";
    static final String RESERVED_BITS = "044028000600070006636c69656e740b40190002000f0064656c69766572795f706f6c69637901000200c1ff";
    static final String ABSENT = "044028000600070006636c69656e740b4019000200100064656c69766572795f636f6d706163740100010000";
    static final String LAST_WINS = "04405c000600070006636c69656e740b404d0002000f0064656c69766572795f706f6c69637901000200010002000f0064656c69766572795f706f6c69637901000200210002000f0064656c69766572795f706f6c696379020004006e6f7065";

    @Test
    void suspendedVector() {
        SubscriberView v = new SubscriberView();
        byte[] b = Hex.bytes(SUSPENDED_44);
        assertEquals(WireError.OK, v.wrap(b, 0, b.length));
        assertEquals(0x0200, v.policy());
        assertTrue(v.suspended());
        assertEquals(0, v.policyMasked());
        assertEquals(42, v.policyOffset());
        assertEquals("/client", new PathView().wrap(v.index(), v.target()) == WireError.OK
                ? new PathView().wrap(b, 8, 7).toText() : "");
    }

    @Test
    void reservedBitsAndAbsentAndLastWins() {
        SubscriberView v = new SubscriberView();
        byte[] b = Hex.bytes(RESERVED_BITS);
        v.wrap(b, 0, b.length);
        assertEquals(0xFFC1, v.policy());
        assertEquals(0xFDC1, v.policyMasked());
        b = Hex.bytes(ABSENT);
        v.wrap(b, 0, b.length);
        assertFalse(v.hasPolicy());
        assertEquals(0, v.policy());
        assertTrue(v.qos() != TlvIndex.NONE);
        assertEquals(0, v.qosReader().u8(Names.DELIVERY_COMPACT, -1));
        b = Hex.bytes(LAST_WINS);
        v.wrap(b, 0, b.length);
        assertEquals(0x0021, v.policy());
        assertEquals(0x0021, Bytes.u16(b, v.policyOffset()));
    }

    @Test
    void targetMustBeFirstChild() {
        SubscriberView v = new SubscriberView();
        // SUBSCRIBER{ SETTINGS{} , PATH /a }
        byte[] b = Hex.bytes("04400a000b400000060002000161");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, v.wrap(b, 0, b.length));
        b = Hex.bytes("04400000");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, v.wrap(b, 0, b.length));
        b = Hex.bytes("0900 0000".replace(" ", ""));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, v.wrap(b, 0, b.length));
        b = Hex.bytes("044003");
        assertEquals(WireError.FRAME_TRUNCATED, v.wrap(b, 0, b.length));
    }

    @Test
    void aclAndSubscriberId() {
        // SUBSCRIBER{ PATH /a, ACL{}, NAME "me" }
        byte[] b = Hex.bytes("044010000600020001610a400000" + "020002006d65");
        SubscriberView v = new SubscriberView();
        assertEquals(WireError.OK, v.wrap(b, 0, b.length));
        assertTrue(v.acl() != TlvIndex.NONE);
        assertTrue(v.index().payloadEquals(v.subscriberId(), Utf8.bytes("me")));
        assertEquals(TlvIndex.NONE, v.qos());
    }
}
