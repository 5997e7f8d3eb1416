package io.spectrum.link.local;

import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bytes of the hello and of the closing notice, pinned as docs/links.md and docs/extensions.md show them. */
class LocalFramesTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void theHelloIsACapsReadCarryingTheAnnouncementWithTheName() {
        byte[] hello = LocalHello.frame("svc");
        assertEquals(expectedHello(), HEX.formatHex(hello));
        LocalHello r = new LocalHello();
        assertEquals(WireError.OK, r.read(hello, 0, hello.length));
        assertTrue(r.hasName());
        assertEquals("svc", Utf8.toString(hello, r.nameOffset(), r.nameLength()));
        // an ordinary FWD READ for every other reader
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(hello, 0, hello.length, x));
        FwdView v = new FwdView();
        assertEquals(WireError.OK, v.wrap(x, 0));
        assertEquals(FwdView.OP_READ, v.opcode());
        assertTrue(v.srcEmpty());
    }

    /** FWD{VALUE u8 0, PATH /$node/caps, PATH "", SETTINGS{spectrum.ext 1, spectrum.name "svc"}}. */
    private static String expectedHello() {
        String caps = "06000b00" + "05" + HEX.formatHex(Utf8.bytes("$node")) + "04" + HEX.formatHex(Utf8.bytes("caps"));
        String body = "0100010000"
                + caps
                + "06000000"
                + "0b402e00"
                + "02000c00" + HEX.formatHex(Utf8.bytes("spectrum.ext")) + "010002000100"
                + "02000d00" + HEX.formatHex(Utf8.bytes("spectrum.name")) + "02000300" + HEX.formatHex(Utf8.bytes("svc"));
        return String.format("0f40%02x00", body.length() / 2) + body;
    }

    @Test
    void aHelloWithoutANameIsStillAHello() {
        byte[] hello = LocalHello.frame(null);
        LocalHello r = new LocalHello();
        assertEquals(WireError.OK, r.read(hello, 0, hello.length));
        assertFalse(r.hasName());
    }

    @Test
    void otherFramesAreNoHello() {
        LocalHello r = new LocalHello();
        byte[] b = new byte[128];
        // a caps READ without the announcement: a plain v1 request, not a hello
        TlvWriter w = new TlvWriter(4).wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(FwdView.OP_READ, 1).raw(io.spectrum.wire.PathHandle.of("/$node/caps").frame())
                .leaf(TlvType.PATH, new byte[0]).end();
        assertEquals(WireError.VERSION_MISMATCH, r.read(b, 0, w.length()));
        // a READ of another path with the announcement
        w = new TlvWriter(4).wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(FwdView.OP_READ, 1).raw(io.spectrum.wire.PathHandle.of("/a").frame())
                .leaf(TlvType.PATH, new byte[0]);
        io.spectrum.wire.Extensions.announce(w, Utf8.bytes("x")).end();
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, r.read(b, 0, w.length()));
        // a WRITE of /$node/caps
        w = new TlvWriter(4).wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(FwdView.OP_WRITE, 1).raw(io.spectrum.wire.PathHandle.of("/$node/caps").frame())
                .leaf(TlvType.PATH, new byte[0]).value(1, 1);
        io.spectrum.wire.Extensions.announce(w).end();
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, r.read(b, 0, w.length()));
        // not a frame at all
        assertEquals(WireError.FRAME_TRUNCATED, r.read(new byte[] {1, 0, 9, 0}, 0, 4));
    }

    @Test
    void helloNamesAreBounded() {
        assertThrows(IllegalArgumentException.class, () -> LocalHello.frame(""));
        assertThrows(IllegalArgumentException.class, () -> LocalHello.frame("x".repeat(65)));
        assertEquals(WireError.OK, new LocalHello().read(LocalHello.frame("x".repeat(64)), 0,
                LocalHello.frame("x".repeat(64)).length));
    }

    @Test
    void theClosingNoticeIsABareErrorWithItsReasonAndText() {
        byte[] b = new byte[ClosingNotice.BYTES];
        assertEquals(ClosingNotice.BYTES, ClosingNotice.write(b, 0, WireError.FLOW_BACKPRESSURE));
        assertEquals("08401c00" + "010002004000" + "03001200" + HEX.formatHex(Utf8.bytes("connection.closing")),
                HEX.formatHex(b));
        ClosingNotice r = new ClosingNotice();
        assertEquals(WireError.FLOW_BACKPRESSURE, r.reason(b, 0, b.length));
        byte[] plain = new byte[16];
        int n = new TlvWriter(2).wrap(plain, 0, plain.length).error(WireError.FLOW_BACKPRESSURE).length();
        assertEquals(-1, r.reason(plain, 0, n), "an ERROR without the text is no notice");
    }
}
