package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatusErrorViewTest {
    @Test
    void emptyStatusIsOk() {
        StatusView s = new StatusView();
        assertEquals(WireError.OK, s.wrap(Hex.decode("09000000"), 0));
        assertTrue(s.isOk());
        assertEquals(WireError.OK, s.code());
        assertEquals(WireError.OK, s.wrap(Hex.decode("09400000"), 0));
        assertTrue(s.isOk());
    }

    @Test
    void firstErrorAtAnyPosition() {
        // STATUS{ DESCRIPTION "x", ERROR{0x0020}, ERROR{0x0050} }
        TlvIndex idx = Hex.decode("09401900" + "0300010078" + "08400600010002002000" + "08400600010002005000");
        StatusView s = new StatusView();
        assertEquals(WireError.OK, s.wrap(idx, 0));
        assertEquals(WireError.PATH_NOT_FOUND, s.code());
        assertFalse(s.isOk());
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, s.wrap(Hex.decode("094005000300010078"), 0), "no ERROR");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, s.wrap(Hex.decode("0900010078"), 0), "opaque");
    }

    @Test
    void errorForms() {
        ErrorView e = new ErrorView();
        assertEquals(WireError.OK, e.wrap(Hex.decode("08401b0001000200410003001100646561646c696e65206578636565646564"), 0));
        assertEquals(WireError.FLOW_TIMEOUT, e.code());
        assertTrue(e.description() != TlvIndex.NONE);
        assertEquals("tr::flow::timeout", e.identityText());
        TlvIndex idx = Hex.decode("08401c000200180074723a3a61636d653a3a7769646765743a3a6a616d6d6564");
        assertEquals(WireError.OK, e.wrap(idx, 0));
        assertTrue(e.isNamed());
        assertEquals(-1, e.code());
        assertTrue(e.identityEquals(Utf8.bytes("tr::acme::widget::jammed")));
        assertEquals("tr::acme::widget::jammed", e.identityText());
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, e.wrap(Hex.decode("08400500010001 0020".replace(" ", "").substring(0, 18)), 0));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, e.wrap(Hex.decode("08400000"), 0));
    }

    @Test
    void errorCodeOfAReplyPayload() {
        final int none = -7;
        // STATUS{ DESCRIPTION "x", ERROR{0x0020} }: the first ERROR at any position
        assertEquals(WireError.PATH_NOT_FOUND,
                StatusView.errorCode(Hex.decode("09400F00" + "0300010078" + "08400600010002002000"), 0, none));
        // a bare ERROR
        assertEquals(WireError.FLOW_TIMEOUT, StatusView.errorCode(Hex.decode("08400600010002004100"), 0, none));
        // string-form, empty STATUS, no ERROR, a 1-byte code, NONE: no registry code
        assertEquals(none, StatusView.errorCode(Hex.decode("08401c000200180074723a3a61636d653a3a7769646765743a3a6a616d6d6564"), 0, none));
        assertEquals(none, StatusView.errorCode(Hex.decode("09000000"), 0, none));
        assertEquals(none, StatusView.errorCode(Hex.decode("094005000300010078"), 0, none));
        assertEquals(none, StatusView.errorCode(Hex.decode("0840050001000100" + "20"), 0, none));
        assertEquals(none, StatusView.errorCode(Hex.decode("09000000"), TlvIndex.NONE, none));
    }
}
