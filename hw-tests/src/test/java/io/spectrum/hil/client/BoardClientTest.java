package io.spectrum.hil.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class BoardClientTest {
    /** A responder that answers every request with the route swap of digest §5.2. */
    static List<byte[]> answer(byte[] request, byte[]... payload) {
        Tlv req = Tlv.decode(request);
        byte[][] tail = new byte[payload.length + 1][];
        tail[0] = Wire.value(FwdView.KIND_RESULT, 1);
        System.arraycopy(payload, 0, tail, 1, payload.length);
        return List.of(Wire.fwd(FwdView.OP_REPLY, req.child(req.children().size() - 1).encoded(), null,
                req.child(1).encoded(), tail));
    }

    @Test
    void readBuildsTheDigestBytesAndMatchesTheReplyByItsRoute() {
        FakeLink link = new FakeLink();
        // an unrelated reply first: the client must not take it for its own
        link.push(Wire.fwd(FwdView.OP_REPLY, Wire.path("/other"), null, Wire.path("/x"), Wire.value(0, 1),
                Wire.value(9, 1)));
        link.respond(f -> answer(f, Wire.value(1234, 4)));
        BoardClient c = new BoardClient(link, 0, Duration.ofSeconds(1));
        Reply r = c.read("/sensor/temp");
        assertTrue(r.isResult());
        assertEquals(1234, r.payload().asLong());
        // fwd/fwd-read shape with our reply endpoint: op, dst, src
        Tlv sent = Tlv.decode(link.sent.get(0));
        assertEquals(TlvType.FWD, sent.type());
        assertEquals("01000100" + "00", HexFormat.of().formatHex(sent.child(0).encoded()));
        assertEquals("06000c000673656e736f720474656d70", sent.child(1).hex());
        assertEquals(BoardClient.REPLY_PREFIX + "1", Wire.pathText(sent.child(2).payload()));
    }

    @Test
    void errorRepliesCarryTheRegistryCode() {
        FakeLink link = new FakeLink();
        link.respond(f -> {
            Tlv req = Tlv.decode(f);
            return List.of(Wire.fwd(FwdView.OP_REPLY, req.child(2).encoded(), null, req.child(1).encoded(),
                    Wire.value(FwdView.KIND_ERROR, 1), Wire.status(WireError.PATH_NOT_FOUND)));
        });
        Reply r = new BoardClient(link, 0, Duration.ofSeconds(1)).read("/nope");
        assertTrue(r.isError());
        assertEquals(WireError.PATH_NOT_FOUND, r.errorCode());
    }

    @Test
    void silenceIsATimeoutNotAHang() {
        FakeLink link = new FakeLink();
        WireException e = assertThrows(WireException.class,
                () -> new BoardClient(link, 0, Duration.ofMillis(30)).read("/x"));
        assertEquals(WireError.FLOW_TIMEOUT, e.code());
    }

    @Test
    void deliveriesAreRecordedByRouteAndUndecodableFramesAreCounted() {
        FakeLink link = new FakeLink();
        BoardClient c = new BoardClient(link, 0, Duration.ofSeconds(1));
        long t0 = System.nanoTime();
        link.push(Wire.fwd(FwdView.OP_WRITE, Wire.path("/hil/s/a"), null, Wire.path("/"), Wire.value(7, 1)));
        link.push(new byte[] {0x01, (byte) 0x81, 0x00, 0x00});
        link.push(Wire.fwd(FwdView.OP_WRITE, Wire.path("/hil/s/b"), null, Wire.path("/"), Wire.value(8, 1)));
        List<Delivery> a = c.awaitDeliveries("/hil/s/a", t0, 1, Duration.ofSeconds(1));
        assertEquals(1, a.size());
        assertEquals(7, a.get(0).payload().asLong());
        assertEquals(1, c.deliveries("/hil/s/b").size());
        assertEquals(1, c.refusedInbound());
    }
}
