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
        // NAME subscribers, VALUE u32 3, VALUE u8 1, then NAME spectrum.gen, VALUE u32 9, VALUE u8 1
        String subs3 = "02000b0073756273637269626572730100040003000000" + "0100010001";
        String gen = "02000c00737065637472756d2e67656e";
        assertEquals(WireError.OK, wrap(field(subs3 + gen + "0100040009000000" + "0100010001")));
        assertTrue(f.hasGeneration());
        assertEquals(9, f.generation());
        assertEquals(3, f.index(0));
        assertEquals(1, f.levels(), "the generation level folds into the element before it");
        assertEquals(":subscribers[3@9]", f.toText());
        // the generation is a u32, not bounded by the element index limit
        assertEquals(WireError.OK, wrap(field(subs3 + gen + "01000400ffffffff" + "0100010001")));
        assertEquals(0xFFFF_FFFFL, f.generation());
        assertEquals(WireError.OK, wrap(field(subs3 + gen + "0100040000000100" + "0100010001")));
        assertEquals(0x1_0000L, f.generation());
        // a generation of 2 bytes, with a non-ELEMENT mode, without an index before it, or alone: refused
        assertEquals(WireError.PATH_INVALID, wrap(field(subs3 + gen + "010002000900" + "0100010001")));
        assertEquals(WireError.PATH_INVALID, wrap(field(subs3 + gen + "0100040009000000" + "0100010002")));
        assertEquals(WireError.PATH_INVALID, wrap(field("02000b007375627363726962657273" + "0100010001" + gen + "0100040009000000" + "0100010001")));
        assertEquals(WireError.PATH_INVALID, wrap(field(gen + "0100040009000000" + "0100010001")));
        assertEquals(WireError.PATH_INVALID, wrap(field(subs3 + gen + "0100040009000000" + "0100010001" + gen + "0100040009000000" + "0100010001")),
                "two generations");
        // the earlier spelling (a third VALUE in the level) is no longer read
        assertEquals(WireError.PATH_INVALID, wrap(field("02000b00737562736372696265727301000400030000000100040009000000" + "0100010001")));
        // the one writer spells what the reader reads
        byte[] b = new byte[128];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        FieldView.element(w.begin(TlvType.FIELD), Names.SUBSCRIBERS, 3, 9).end();
        assertEquals(field(subs3 + gen + "0100040009000000" + "0100010001").toLowerCase(), Hex.of(b, 0, w.length()).toLowerCase());
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
