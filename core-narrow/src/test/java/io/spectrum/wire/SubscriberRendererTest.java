package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SubscriberRendererTest {
    private final SubscriberRenderer r = new SubscriberRenderer();
    private final byte[] out = new byte[512];

    private String render(String recHex, boolean s) {
        byte[] rec = Hex.bytes(recHex);
        int n = r.render(rec, 0, rec.length, s, out, 0, out.length);
        if (n < 0) {
            throw new AssertionError("refused " + WireError.harnessName(-n));
        }
        return Hex.of(out, 0, n);
    }

    @Test
    void rule3WithoutSettingsGivesTheRfcVectorBytes() {
        // SUBSCRIBER{ PATH{ "client" } } suspended
        String got = render("04400b000600070006636C69656E74", true);
        assertEquals(SubscriberViewTest.SUSPENDED_44, got);
        assertEquals(44, got.length() / 2);
    }

    @Test
    void rule2UnchangedWhenNoWordAndNotSuspended() {
        assertEquals("04400B000600070006636C69656E74", render("04400b000600070006636C69656E74", false));
        assertEquals(SubscriberViewTest.ABSENT.toUpperCase(), render(SubscriberViewTest.ABSENT, false));
    }

    @Test
    void rule1FlipsBit9OfTheWinningWordOnly() {
        assertEquals(SubscriberViewTest.SUSPENDED_44, render(SubscriberViewTest.SUSPENDED_44, true));
        String cleared = render(SubscriberViewTest.SUSPENDED_44, false);
        assertEquals(SubscriberViewTest.SUSPENDED_44.substring(0, 84) + "0000", cleared);
        // reserved bits carried verbatim
        assertEquals(SubscriberViewTest.RESERVED_BITS.toUpperCase().replace("C1FF", "C1FD"),
                render(SubscriberViewTest.RESERVED_BITS, false));
        // last-wins: only the winning (second) word changes; lengths unchanged
        String lw = render(SubscriberViewTest.LAST_WINS, true);
        assertEquals(SubscriberViewTest.LAST_WINS.toUpperCase().replace("01000200210002", "01000200210202"), lw);
    }

    @Test
    void rule3AppendsToTheFirstSettingsChild() {
        // policy-absent record (only delivery_compact) suspended: pair appended inside SETTINGS
        String got = render(SubscriberViewTest.ABSENT, true);
        String expect = SubscriberViewTest.ABSENT.toUpperCase().replace("04402800", "04404100")
                .replace("0B401900", "0B403200") + "02000F0064656C69766572795F706F6C696379" + "010002000002";
        assertEquals(expect, got);
        // build the expectation structurally instead of by hand
        SubscriberView v = new SubscriberView();
        byte[] b = Hex.bytes(got);
        assertEquals(WireError.OK, v.wrap(b, 0, b.length));
        assertEquals(0x0200, v.policy());
        assertEquals(0, v.qosReader().u8(Names.DELIVERY_COMPACT, -1));
        assertEquals(44 + 25, b.length);
        assertEquals(0x41, b[2] & 0xFF);
        assertEquals(0x32, b[17] & 0xFF);
    }

    @Test
    void rule3IntoEmptyOpaqueSettingsAndMalformedWord() {
        // SUBSCRIBER{ PATH /a, SETTINGS (opaque, empty) }
        String got = render("04400a00060002000161" + "0b000000", true);
        assertEquals("044023000600020001610B4019000200" + "0F0064656C69766572795F706F6C696379010002000002", got);
        // a 1-byte policy VALUE is malformed: reads as absent, rule 3 appends a well-formed pair
        String bad = Hex.tlv(0x04, 0x40, "060002000161", Hex.tlv(0x0B, 0x40, "02000F0064656C69766572795F706F6C696379", "0100010001"));
        SubscriberView v = new SubscriberView();
        byte[] b = Hex.bytes(render(bad, true));
        v.wrap(b, 0, b.length);
        assertEquals(0x0200, v.policy());
        assertEquals(Hex.bytes(bad).length + 25, b.length);
    }

    @Test
    void crcTrailersAreRecomputed() {
        // SUBSCRIBER{ PATH /a, SETTINGS{…policy 0x0001} with CRC-32C on SETTINGS }
        TlvWriter w = new TlvWriter().wrap(new byte[128], 0, 128);
        w.begin(TlvType.SUBSCRIBER).leaf(TlvType.PATH, Hex.bytes("0161"))
                .begin(TlvType.SETTINGS, Opt.PL | Opt.CR).leaf(TlvType.NAME, Names.DELIVERY_POLICY).value(1, 2).end()
                .end();
        byte[] rec = java.util.Arrays.copyOf(w.buffer(), w.length());
        int n = r.render(rec, 0, rec.length, true, out, 0, out.length);
        assertEquals(rec.length, n);
        TlvIndex idx = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(out, 0, n, idx));
        SubscriberView v = new SubscriberView();
        v.wrap(idx, 0);
        assertEquals(0x0201, v.policy());
    }

    @Test
    void matchesRenderingReturnsTheToggleBit() {
        byte[] rec = Hex.bytes("04400b000600070006636C69656E74");
        byte[] scratch = new byte[rec.length + SubscriberRenderer.MAX_GROWTH];
        byte[] on = Hex.bytes(SubscriberViewTest.SUSPENDED_44);
        assertEquals(1, r.matchesRendering(rec, 0, rec.length, on, 0, on.length, scratch, 0, scratch.length));
        assertEquals(0, r.matchesRendering(rec, 0, rec.length, rec, 0, rec.length, scratch, 0, scratch.length));
        byte[] other = Hex.bytes("04400b000600070006636C69656E75");
        assertEquals(-1, r.matchesRendering(rec, 0, rec.length, other, 0, other.length, scratch, 0, scratch.length));
        // stored record with a word: both values of bit 9 match, anything else does not
        byte[] dur = Hex.bytes(SubscriberViewTest.SUSPENDED_44.substring(0, 84) + "2000");
        byte[] durOn = Hex.bytes(SubscriberViewTest.SUSPENDED_44.substring(0, 84) + "2002");
        byte[] durPrio = Hex.bytes(SubscriberViewTest.SUSPENDED_44.substring(0, 84) + "2402");
        assertEquals(1, r.matchesRendering(dur, 0, dur.length, durOn, 0, durOn.length, scratch, 0, scratch.length));
        assertEquals(0, r.matchesRendering(durOn, 0, durOn.length, dur, 0, dur.length, scratch, 0, scratch.length));
        assertEquals(-1, r.matchesRendering(dur, 0, dur.length, durPrio, 0, durPrio.length, scratch, 0, scratch.length));
    }

    @Test
    void matchesRenderingWithTrailersUsesTheFullRendering() {
        // the same record with a CRC-32C on its SETTINGS: toggling bit 9 changes the CRC too
        TlvWriter w = new TlvWriter().wrap(new byte[128], 0, 128);
        w.begin(TlvType.SUBSCRIBER).leaf(TlvType.PATH, Hex.bytes("0161"))
                .begin(TlvType.SETTINGS, Opt.PL | Opt.CR).leaf(TlvType.NAME, Names.DELIVERY_POLICY).value(0x20, 2).end()
                .end();
        byte[] rec = java.util.Arrays.copyOf(w.buffer(), w.length());
        byte[] on = new byte[rec.length];
        assertEquals(rec.length, r.render(rec, 0, rec.length, true, on, 0, on.length));
        byte[] scratch = new byte[rec.length + SubscriberRenderer.MAX_GROWTH];
        assertEquals(1, r.matchesRendering(rec, 0, rec.length, on, 0, on.length, scratch, 0, scratch.length));
        assertEquals(0, r.matchesRendering(on, 0, on.length, rec, 0, rec.length, scratch, 0, scratch.length));
        // flipping bit 9 without fixing the CRC is not a rendering
        byte[] bad = rec.clone();
        bad[rec.length - 5] ^= 0x02; // bit 9 of the word, CRC left stale
        assertEquals(-1, r.matchesRendering(rec, 0, rec.length, bad, 0, bad.length, scratch, 0, scratch.length));
    }

    @Test
    void matchesRenderingRejectsOtherDifferences() {
        byte[] rec = Hex.bytes(SubscriberViewTest.LAST_WINS);
        byte[] scratch = new byte[rec.length + SubscriberRenderer.MAX_GROWTH];
        byte[] on = rec.clone();
        int p = SubscriberViewTest.LAST_WINS.indexOf("01000200210002") / 2 + 5;
        on[p] |= 0x02;
        assertEquals(1, r.matchesRendering(rec, 0, rec.length, on, 0, on.length, scratch, 0, scratch.length));
        byte[] loser = rec.clone();
        loser[SubscriberViewTest.LAST_WINS.indexOf("01000200010002") / 2 + 5] |= 0x02; // bit 9 of the losing word
        assertEquals(-1, r.matchesRendering(rec, 0, rec.length, loser, 0, loser.length, scratch, 0, scratch.length));
        byte[] target = rec.clone();
        target[10] = 'C';
        assertEquals(-1, r.matchesRendering(rec, 0, rec.length, target, 0, target.length, scratch, 0, scratch.length));
        assertEquals(-1, r.matchesRendering(Hex.bytes("09000000"), 0, 4, rec, 0, rec.length, scratch, 0, scratch.length));
    }

    @Test
    void tooSmallOutputIsBackpressure() {
        byte[] rec = Hex.bytes("04400b000600070006636C69656E74");
        assertEquals(-WireError.FLOW_BACKPRESSURE, r.render(rec, 0, rec.length, true, out, 0, 43));
        assertEquals(-WireError.SCHEMA_TYPE_MISMATCH, r.render(Hex.bytes("09000000"), 0, 4, true, out, 0, 64));
    }
}
