package io.spectrum.bus.protocol;

import io.spectrum.wire.Dispatch;
import io.spectrum.wire.BusError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;
import java.util.List;
import org.junit.jupiter.api.Test;

class BusFramesTest {

    private static BusFields publish(byte[] payload) {
        return BusFields.of().put("topic", "cam.frames").putBytes("payload", payload)
                .putRecords("attachments", List.of(BusFields.of().put("name", "frame").put("artifactId", 7L)))
                .putStrings("ids", List.of("dlv-1", "dlv-2")).put("replayLatest", true)
                .putRecord("ref", BusFields.of().put("digest", "ab"));
    }

    @Test
    void aRequestRoundTripsItsCommandRouteAndEveryFieldType() throws Exception {
        byte[] frame = BusFrames.request("topic.publish", "/app/r/5", publish(new byte[] {1, 2, 3}));
        // an ordinary libtracer v1 frame: the codec decodes it
        assertEquals(WireError.OK, new FrameDecoder().decode(frame, 0, frame.length, new TlvIndex()));
        BusFrames.Decoded d = BusFrames.decode(frame, 0, frame.length);
        assertEquals(FwdView.OP_WRITE, d.op());
        assertEquals("topic.publish", d.command());
        assertEquals("/$bus/topic/publish", d.dst());
        assertEquals("/app/r/5", d.src());
        BusFields f = d.fields();
        assertEquals("cam.frames", f.string("topic"));
        assertArrayEquals(new byte[] {1, 2, 3}, f.bytes("payload"));
        assertEquals(7L, f.records("attachments").get(0).u64("artifactId"));
        assertEquals(List.of("dlv-1", "dlv-2"), f.strings("ids"));
        assertTrue(f.bool("replayLatest"));
        assertEquals("ab", f.record("ref").string("digest"));
    }

    @Test
    void aPayloadOverSixtyFourKibUsesLongLengths() throws Exception {
        byte[] big = new byte[300_000];
        big[299_999] = 9;
        byte[] frame = BusFrames.request("topic.publish", "/app/r/1", publish(big));
        BusFrames.Decoded d = BusFrames.decode(frame, 0, frame.length);
        assertArrayEquals(big, d.fields().bytes("payload"));
    }

    @Test
    void aReplyEchoesTheRouteAndCarriesResultOrTypedError() throws Exception {
        byte[] req = BusFrames.request("rpc.call", "/app/r/9", BusFields.of().put("target", "svc"));
        BusFrames.Decoded d = BusFrames.decode(req, 0, req.length);
        byte[] ok = BusFrames.result(d, BusFields.of().put("accepted", true));
        BusFrames.Decoded r = BusFrames.decode(ok, 0, ok.length);
        assertTrue(r.isReply());
        assertEquals("/app/r/9", r.dst());
        assertTrue(r.fields().bool("accepted"));
        assertNull(r.error());

        byte[] err = BusFrames.error(d, new BusException(BusError.TARGET_CHANGED, "svc is now inc-3", Dispatch.UNKNOWN));
        BusFrames.Decoded e = BusFrames.decode(err, 0, err.length);
        assertEquals(FwdView.KIND_ERROR, e.kind());
        assertEquals(BusError.TARGET_CHANGED, e.error().code());
        assertEquals(Dispatch.UNKNOWN, e.error().dispatch());
        assertEquals("TARGET_CHANGED: svc is now inc-3", e.error().getMessage());
    }

    @Test
    void anEventWantsNoReply() throws Exception {
        byte[] ev = BusFrames.event("topic.message", BusFields.of().put("deliveryId", "dlv-3"));
        BusFrames.Decoded d = BusFrames.decode(ev, 0, ev.length);
        assertEquals("topic.message", d.command());
        assertEquals("", d.src().replace("/", ""));
        assertFalse(d.isReply());
    }

    @Test
    void strictReading_repeatedKeyWrongTypeUnknownFieldAndGarbageAreInvalidEnvelope() throws Exception {
        byte[] frame = BusFrames.request("topic.declare", "/a/r", BusFields.of().put("name", "t").put("retained", 1L));
        BusFields f = BusFrames.decode(frame, 0, frame.length).fields();
        assertEquals(BusError.INVALID_ENVELOPE, assertThrows(BusException.class, () -> f.string("retained")).code());
        assertEquals(BusError.INVALID_ENVELOPE, assertThrows(BusException.class, () -> f.u64("missing")).code());
        assertEquals(BusError.INVALID_ENVELOPE, assertThrows(BusException.class, () -> f.allowOnly("name")).code());
        // a repeated key: splice the name pair in twice by hand
        byte[] twice = BusFrames.request("topic.declare", "/a/r", BusFields.of().put("name", "t").put("namf", "u"));
        int at = indexOf(twice, "namf".getBytes());
        twice[at + 3] = 'e';
        assertEquals(BusError.INVALID_ENVELOPE,
                assertThrows(BusException.class, () -> BusFrames.decode(twice, 0, twice.length)).code());
        byte[] junk = {1, 2, 3};
        assertEquals(BusError.INVALID_ENVELOPE,
                assertThrows(BusException.class, () -> BusFrames.decode(junk, 0, junk.length)).code());
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
