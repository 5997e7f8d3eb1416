package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FieldViewTest {
    private final FieldView f = new FieldView();

    private int wrap(String hex) {
        return f.wrap(Hex.decode(hex), 0);
    }

    /** A FIELD built from level children hex (length computed). */
    private static String field(String body) {
        int n = body.length() / 2;
        return String.format("1040%02X%02X", n & 0xFF, n >> 8) + body;
    }

    @Test
    void vectorsDecode() {
        assertEquals(WireError.OK, wrap("10401c0002000b0073756273637269626572730100040003000000" + "0100010001"));
        assertEquals(1, f.levels());
        assertEquals(FieldView.MODE_ELEMENT, f.mode(0));
        assertEquals(3, f.index(0));
        assertFalse(f.hasGeneration());
        assertTrue(f.isSubscribers());
        assertEquals(":subscribers[3]", f.toText());
        assertEquals(WireError.OK, wrap("1040140002000b0073756273637269626572730100010002"));
        assertEquals(":subscribers[*]", f.toText());
        assertEquals(WireError.OK, wrap("1040140002000b0073756273637269626572730100010001"));
        assertEquals(":subscribers[]", f.toText());
        assertFalse(f.hasIndex(0));
        assertEquals(WireError.OK, wrap("104019000200080073657474696e677302000300617070020002006b70"));
        assertEquals(":settings.app.kp", f.toText());
        assertEquals(3, f.levels());
        assertEquals(FieldView.MODE_SCALAR, f.mode(2));
    }

    @Test
    void generationExtension() {
        // NAME subscribers, VALUE u32 3, VALUE u32 gen 9, VALUE u8 1
        String body = "02000b00737562736372696265727301000400030000000100040009000000" + "0100010001";
        assertEquals(WireError.OK, wrap(field(body)));
        assertTrue(f.hasGeneration());
        assertEquals(9, f.generation());
        assertEquals(3, f.index(0));
        assertEquals(":subscribers[3@9]", f.toText());
        // generation with a 2-byte width, or with a non-ELEMENT mode, is refused
        assertEquals(WireError.PATH_INVALID, wrap(field("02000b0073756273637269626572730100040003000000010002000900" + "0100010001")));
        assertEquals(WireError.PATH_INVALID, wrap(field("02000b00737562736372696265727301000400030000000100040009000000" + "0100010002")));
    }

    @Test
    void limits() {
        String level = "0200010061";
        assertEquals(WireError.OK, wrap(field(level.repeat(8))));
        assertEquals(8, f.levels());
        assertEquals(WireError.PATH_INVALID, wrap(field(level.repeat(9))), ">8 levels");
        assertEquals(WireError.PATH_INVALID, wrap(field(level + "0100010003")), "mode 3");
        assertEquals(WireError.PATH_INVALID, wrap(field("0100010001" + level)), "non-NAME head");
        assertEquals(WireError.PATH_INVALID, wrap(field(level + "0100040000000100" + "0100010001")), "index 65536");
        assertEquals(WireError.OK, wrap(field(level + "01000400FFFF0000" + "0100010001")));
        assertEquals(65535, f.index(0));
        assertEquals(WireError.PATH_INVALID, wrap(field(level + "010002000100")), "mode of 2 bytes");
        assertEquals(WireError.PATH_INVALID, wrap(field(level + "0100010001".repeat(4))), "4 values");
        assertEquals(WireError.PATH_INVALID, wrap(field(level + "01000400010000000100010000")), "index with SCALAR mode");
        assertEquals(WireError.PATH_INVALID, wrap("10400000"), "no levels");
        assertEquals(WireError.PATH_INVALID, wrap("10000000"), "opaque");
        assertEquals(WireError.PATH_INVALID, wrap(field("02000000")), "empty name");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, wrap("09000000"));
    }
}
