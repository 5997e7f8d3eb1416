package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TlvWriterTest {
    @Test
    void emptyWithCrcCarriesItsTrailer() {
        byte[] b = new byte[32];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.empty(TlvType.STATUS, Opt.CR | Opt.CW);
        assertEquals(WireError.OK, w.error());
        assertEquals(6, w.length());
        TlvIndex idx = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(b, 0, w.length(), idx));
        assertEquals("09000000", Hex.of(new TlvWriter().wrap(b, 0, 4).empty(TlvType.STATUS, 0).buffer(), 0, 4));
    }

    @Test
    void badValueWidthIsATypedError() {
        TlvWriter w = new TlvWriter().wrap(new byte[32], 0, 32);
        w.value(1, 9);
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, w.error());
    }

    @Test
    void overflowIsBackpressure() {
        TlvWriter w = new TlvWriter().wrap(new byte[8], 0, 8);
        w.begin(TlvType.POINT).value(1, 4).value(2, 4).end();
        assertEquals(WireError.FLOW_BACKPRESSURE, w.error());
    }
}
