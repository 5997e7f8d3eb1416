package io.spectrum.vectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.SubscriberRenderer;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spectrum's own vectors agree with the renderer that produces them at run time. */
class SpectrumVectorsTest {
    private static byte[] bytes(String suite, String id) {
        List<Vector> vs = VectorLoader.loadClasspath(suite);
        return vs.stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow().bytes();
    }

    private static byte[] render(byte[] rec, boolean s) {
        byte[] out = new byte[rec.length + SubscriberRenderer.MAX_GROWTH];
        int n = new SubscriberRenderer().render(rec, 0, rec.length, s, out, 0, out.length);
        return Arrays.copyOf(out, n);
    }

    @Test
    void rule3RenderingsArePinned() {
        byte[] absent = bytes(VectorLoader.LIBTRACER_V1, "subscriber/policy-absent");
        assertArrayEquals(bytes(VectorLoader.SPECTRUM_V1, "subscriber/render-rule3-into-settings"), render(absent, true));
        byte[] client = {0x04, 0x40, 0x0B, 0x00, 0x06, 0x00, 0x07, 0x00, 0x06, 'c', 'l', 'i', 'e', 'n', 't'};
        byte[] suspended = bytes(VectorLoader.SPECTRUM_V1, "subscriber/policy-suspended");
        assertEquals(44, suspended.length);
        assertArrayEquals(suspended, render(client, true));
    }

    @Test
    void announcementIsTheV1ReadPlusOneTrailingChild_asTheCodecWritesIt() {
        byte[] plain = bytes(VectorLoader.LIBTRACER_V1, "fwd/fwd-read");
        byte[] announced = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-read-announce");
        byte[] built = new byte[plain.length + Extensions.ANNOUNCE_BYTES];
        TlvWriter w = new TlvWriter().wrap(built, 0, built.length);
        w.begin(0x0F).raw(plain, 4, plain.length - 4);
        Extensions.announce(w).end();
        assertEquals(WireError.OK, w.error());
        assertArrayEquals(announced, Arrays.copyOf(built, w.length()));
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(announced, 0, announced.length, x));
        int src = x.child(0, 2);
        assertEquals(Extensions.VERSION, new Extensions().announced(x, x.nextSibling(src)));
    }

    @Test
    void retainFalse_theNotRetainedWriteIsTheV1WritePlusTheAnnouncementChild_asTheCodecWritesAndReadsIt() {
        byte[] plain = bytes(VectorLoader.LIBTRACER_V1, "fwd/fwd-write-value");
        byte[] notRetained = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-write-not-retained");
        byte[] built = new byte[notRetained.length + 16];
        TlvWriter w = new TlvWriter().wrap(built, 0, built.length);
        w.begin(0x0F).raw(plain, 4, plain.length - 4);
        Extensions.announceNotRetained(w).end();
        assertEquals(WireError.OK, w.error());
        assertArrayEquals(notRetained, Arrays.copyOf(built, w.length()));
        Extensions e = new Extensions();
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(notRetained, 0, notRetained.length, x));
        int payload = x.child(0, 3);
        assertEquals(Extensions.NOT_RETAINED, e.retain(x, x.nextSibling(payload)));
        assertEquals(Extensions.VERSION, e.announced(x, x.nextSibling(payload)), "the child is an announcement");
        TlvIndex p = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(plain, 0, plain.length, p));
        assertEquals(Extensions.RETAINED, e.retain(p, p.nextSibling(p.child(0, 3))), "a plain v1 write retains");
    }

    @Test
    void clear_theClearingWriteIsTheEmptyStatusPlusTheAnnouncementChild_asTheCodecWritesAndReadsIt() {
        byte[] plain = bytes(VectorLoader.LIBTRACER_V1, "fwd/fwd-write-value");
        byte[] clearing = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-write-clear");
        TlvIndex p = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(plain, 0, plain.length, p));
        int payloadAt = p.start(p.child(0, 3)); // op, dst and src as libtracer's write has them, then the empty STATUS
        byte[] built = new byte[clearing.length + 16];
        TlvWriter w = new TlvWriter().wrap(built, 0, built.length);
        w.begin(0x0F).raw(plain, 4, payloadAt - 4).raw(io.spectrum.wire.Names.EMPTY_STATUS);
        Extensions.announceClear(w, true).end();
        assertEquals(WireError.OK, w.error());
        assertArrayEquals(clearing, Arrays.copyOf(built, w.length()));
        Extensions e = new Extensions();
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(clearing, 0, clearing.length, x));
        int payload = x.child(0, 3);
        assertEquals(Extensions.CLEAR_NOTIFY, e.clear(x, x.nextSibling(payload)));
        assertEquals(Extensions.RETAINED, e.retain(x, x.nextSibling(payload)), "a clear says nothing of retention");
        assertEquals(Extensions.NOT_CLEAR, e.clear(p, p.nextSibling(p.child(0, 3))), "a plain v1 write clears nothing");
    }

    @Test
    void declarationsReadBackAsTheDemoBoardDeclaresThem() {
        byte[] temp = bytes(VectorLoader.SPECTRUM_V1, "settings/declaration-temp");
        VertexSchema t = VertexSchema.fromSettings(temp, 0, temp.length);
        assertEquals("VALUE i16 Cel x0.01 r-s", t.toString());
        assertEquals("board temperature", t.description());
        byte[] rendered = new byte[t.settingsLength()];
        t.copySettings(rendered, 0, rendered.length);
        assertArrayEquals(temp, rendered, "the codec writes the vector's bytes");
        byte[] led = bytes(VectorLoader.SPECTRUM_V1, "settings/declaration-led");
        assertEquals("VALUE u8 0..1 rws", VertexSchema.fromSettings(led, 0, led.length).toString());
    }

    @Test
    void holderPairAndChallenge_asTheCodecWritesAndReadsThem() {
        long token = 0x0123456789ABCDEFL;
        byte[] clear = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-clear-hold");
        byte[] toggle = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-toggle-generation");
        // the same FWD head (op, dst, [3@9], src) as the pinned guarded toggle
        assertArrayEquals(Arrays.copyOfRange(toggle, 4, 86), Arrays.copyOfRange(clear, 4, 86));
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(clear, 0, clear.length, x));
        int payload = x.child(0, 4);
        byte[] built = new byte[clear.length];
        TlvWriter w = new TlvWriter().wrap(built, 0, built.length);
        w.begin(0x0F).raw(clear, 4, x.end(payload) - 4);
        Extensions.announce(w, token).end();
        assertArrayEquals(clear, Arrays.copyOf(built, w.length()));
        Extensions e = new Extensions();
        assertEquals(Extensions.VERSION, e.announced(x, x.nextSibling(payload)));
        assertEquals(token, e.holdToken(x, x.nextSibling(payload)));

        byte[] challenge = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-reply-hold-challenge");
        assertEquals(WireError.OK, new FrameDecoder().decode(challenge, 0, challenge.length, x));
        int status = x.child(0, 4);
        assertEquals(WireError.ACCESS_DENIED, io.spectrum.wire.StatusView.errorCode(x, status, -1));
        assertEquals(token, e.holdToken(x, x.nextSibling(status)));
    }

    @Test
    void stampWithPath_namesTheWrittenVertexAfterSeqStaleOp() {
        byte[] d = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-deliver-stamp-path");
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(d, 0, d.length, x));
        int payload = x.child(0, 3);
        int stamp = x.nextSibling(payload);
        io.spectrum.wire.SettingsReader outer = new io.spectrum.wire.SettingsReader();
        assertEquals(WireError.OK, outer.wrap(x, stamp));
        io.spectrum.wire.SettingsReader r = new io.spectrum.wire.SettingsReader();
        assertEquals(WireError.OK, outer.enter(io.spectrum.wire.Names.TOPIC, r));
        assertEquals(2, r.u64(io.spectrum.wire.Names.STAMP_SEQ, -1));
        int path = r.find(io.spectrum.wire.Names.STAMP_PATH, io.spectrum.wire.TlvType.PATH, io.spectrum.wire.SettingsReader.ANY_WIDTH);
        assertEquals(io.spectrum.wire.TlvType.PATH, x.type(path));
        byte[] want = io.spectrum.node.api.NodePath.of("/sensor/temp").tlv();
        assertArrayEquals(want, Arrays.copyOfRange(d, x.start(path), x.end(path)));
    }

    @Test
    void modeKeys_readStrictlyByTheCodec_boundedQueue2InFlight1() {
        byte[] d = bytes(VectorLoader.SPECTRUM_V1, "subscriber/ext-mode-keys");
        io.spectrum.wire.SubscriberView v = new io.spectrum.wire.SubscriberView();
        assertEquals(WireError.OK, v.wrap(d, 0, d.length));
        long m = io.spectrum.wire.DeliveryMode.parse(v.qosReader());
        assertEquals(io.spectrum.wire.DeliveryMode.BOUNDED, io.spectrum.wire.DeliveryMode.kind(m));
        assertEquals(2, io.spectrum.wire.DeliveryMode.maxQueued(m));
        assertEquals(1, io.spectrum.wire.DeliveryMode.maxInFlight(m));
        assertEquals(0, v.policy(), "a v1 reader still reads the qos: no delivery_policy, 0");
    }

    @Test
    void consumedMessage_asTheCodecWritesAndReadsIt() {
        byte[] d = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-write-consumed");
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(d, 0, d.length, x));
        int payload = x.child(0, 4);
        assertEquals(2, io.spectrum.wire.DeliveryMode.consumed(x, payload));
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        io.spectrum.wire.DeliveryMode.writeConsumed(w, 2);
        assertArrayEquals(Arrays.copyOfRange(d, x.start(payload), x.end(payload)), Arrays.copyOf(b, w.length()));
    }

    @Test
    void consumedAnswer_namesTheLastDelivered_asTheCodecWritesIt() {
        byte[] d = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-reply-consumed");
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(d, 0, d.length, x));
        int payload = x.child(0, 4);
        assertEquals(2, io.spectrum.wire.DeliveryMode.delivered(x, payload));
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        io.spectrum.wire.DeliveryMode.writeDelivered(w, 2);
        assertArrayEquals(Arrays.copyOfRange(d, x.start(payload), x.end(payload)), Arrays.copyOf(b, w.length()));
    }

    @Test
    void modeStamp_carriesDlvAndReplacedAfterSeqStaleOp() {
        byte[] d = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-deliver-stamp-mode");
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(d, 0, d.length, x));
        int stamp = x.nextSibling(x.child(0, 3));
        io.spectrum.wire.SettingsReader outer = new io.spectrum.wire.SettingsReader();
        assertEquals(WireError.OK, outer.wrap(x, stamp));
        io.spectrum.wire.SettingsReader r = new io.spectrum.wire.SettingsReader();
        assertEquals(WireError.OK, outer.enter(io.spectrum.wire.Names.TOPIC, r));
        assertEquals(5, r.u64(io.spectrum.wire.Names.STAMP_SEQ, -1));
        assertEquals(2, r.u64(io.spectrum.wire.Names.STAMP_DLV, -1));
        assertEquals(3, r.u64(io.spectrum.wire.Names.STAMP_REPLACED, -1));
    }

    @Test
    void staleStamp_carriesTheReasonLast_asUtf8() {
        byte[] d = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-deliver-stamp-stale");
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(d, 0, d.length, x));
        int stamp = x.nextSibling(x.child(0, 3));
        io.spectrum.wire.SettingsReader outer = new io.spectrum.wire.SettingsReader();
        assertEquals(WireError.OK, outer.wrap(x, stamp));
        io.spectrum.wire.SettingsReader r = new io.spectrum.wire.SettingsReader();
        assertEquals(WireError.OK, outer.enter(io.spectrum.wire.Names.TOPIC, r));
        assertEquals(1, r.u64(io.spectrum.wire.Names.STAMP_SEQ, -1));
        assertEquals(1, x.valueAsLong(r.findValue(io.spectrum.wire.Names.STAMP_STALE, 1)));
        int reason = r.find(io.spectrum.wire.Names.STAMP_REASON, io.spectrum.wire.TlvType.VALUE,
                io.spectrum.wire.SettingsReader.ANY_WIDTH);
        assertEquals(io.spectrum.wire.StaleReason.PUBLISHER_GONE,
                io.spectrum.wire.Utf8.toString(d, x.bodyOffset(reason), x.bodyLength(reason)));
        assertEquals(x.end(x.child(stamp, 1)), x.end(reason), "the reason is the stamp's last pair");
    }

    @Test
    void originStamp_isU64MsSinceTheEpoch_beforeTheReason_andTheStampReaderReadsEveryPair() {
        byte[] d = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-deliver-stamp-origin");
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(d, 0, d.length, x));
        io.spectrum.wire.FwdView f = new io.spectrum.wire.FwdView();
        assertEquals(WireError.OK, f.wrap(x, 0));
        io.spectrum.wire.StampView s = new io.spectrum.wire.StampView();
        assertEquals(true, s.wrap(x, f.afterPayload()));
        assertEquals(1, s.seq());
        assertEquals(true, s.stale());
        assertEquals(false, s.deleted());
        assertEquals(1_700_000_000_000L, s.origin(), "2023-11-14T22:13:20Z in ms");
        assertEquals(io.spectrum.wire.StaleReason.PUBLISHER_GONE,
                io.spectrum.wire.Utf8.toString(d, s.reasonOffset(), s.reasonLength()));
        assertEquals(d.length, s.reasonOffset() + s.reasonLength(), "the reason is still the stamp's last pair");
        byte[] stale = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-deliver-stamp-stale");
        assertEquals(WireError.OK, new FrameDecoder().decode(stale, 0, stale.length, x));
        assertEquals(WireError.OK, f.wrap(x, 0));
        assertEquals(true, s.wrap(x, f.afterPayload()));
        assertEquals(0, s.origin(), "a stamp without the pair: no origin");
    }

    @Test
    void backfillRequestAndAnswer_asTheCodecWritesAndReadsThem() {
        byte[] req = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-read-backfill");
        byte[] built = new byte[512];
        TlvWriter w = new TlvWriter().wrap(built, 0, built.length);
        w.begin(0x0F).value(io.spectrum.wire.FwdView.OP_READ, 1)
                .raw(io.spectrum.node.api.NodePath.of("/sensor/temp").tlv())
                .raw(io.spectrum.node.api.NodePath.of("/$reply/3").tlv());
        Extensions.announceAskingBackfill(w, 0, 3).end();
        assertEquals(WireError.OK, w.error());
        assertArrayEquals(req, Arrays.copyOf(built, w.length()), "the host's request, as RemoteClient.readBackfill sends it");
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(req, 0, req.length, x));
        int trailing = x.child(0, 3);
        assertEquals(3, new io.spectrum.wire.Backfill().asked(x, trailing), "the last sequence the asker holds");
        assertEquals(Extensions.VERSION, new Extensions().announced(x, trailing), "an announcing request");

        byte[] rep = bytes(VectorLoader.SPECTRUM_V1, "fwd/fwd-reply-backfill");
        w.wrap(built, 0, built.length);
        w.begin(0x0F).value(io.spectrum.wire.FwdView.OP_REPLY, 1)
                .raw(io.spectrum.node.api.NodePath.of("/$reply/3").tlv())
                .raw(io.spectrum.node.api.NodePath.of("/sensor/temp").tlv())
                .value(io.spectrum.wire.FwdView.KIND_RESULT, 1);
        io.spectrum.wire.Backfill.beginAnswer(w, 6, 2);
        byte[] v = new byte[8];
        for (int i = 0; i < 3; i++) {
            int n = new TlvWriter().wrap(v, 0, v.length).value(40 + 10 * i, 2).length();
            io.spectrum.wire.Backfill.entry(w, 4 + i, 3000 - 1000 * i, 0, v, 0, n);
        }
        w.end().end();
        assertEquals(WireError.OK, w.error());
        assertArrayEquals(rep, Arrays.copyOf(built, w.length()), "the board's answer");
        assertEquals(WireError.OK, new FrameDecoder().decode(rep, 0, rep.length, x));
        io.spectrum.wire.Backfill b = new io.spectrum.wire.Backfill();
        assertEquals(true, b.wrapAnswer(x, x.child(0, 4)));
        assertEquals(6, b.last());
        assertEquals(2, b.evicted());
        for (int i = 0; i < 3; i++) {
            assertEquals(true, b.next());
            assertEquals(4 + i, b.seq());
            assertEquals(3000 - 1000 * i, b.age());
            assertEquals(0, b.origin());
            assertEquals(40 + 10 * i, x.valueAsLong(b.value()));
        }
        assertEquals(false, b.next(), "three values");
    }
}
