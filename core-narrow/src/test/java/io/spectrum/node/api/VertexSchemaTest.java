package io.spectrum.node.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wire.AccessMask;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

class VertexSchemaTest {
    private static final VertexSchema TEMP = VertexSchema.value(2, true).unit("Cel").scale(0.01)
            .description("board temperature").readOnly().build();
    private static final VertexSchema LED = VertexSchema.value(1, false).range(0, 1).writable().build();

    @Test
    void aValueMustHaveTheDeclaredTypeWidthAndRange() {
        byte[] b = {0x00, 0x01, 0x02, 0x03};
        assertEquals(WireError.OK, TEMP.check(TlvType.VALUE, b, 0, 2));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, TEMP.check(TlvType.VALUE, b, 0, 4), "wider");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, TEMP.check(TlvType.VALUE, b, 0, 1), "narrower");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, TEMP.check(TlvType.NAME, b, 0, 2), "a NAME");
        assertEquals(WireError.OK, LED.check(TlvType.VALUE, new byte[] {1}, 0, 1));
        VertexSchema permille = VertexSchema.value(2, false).range(0, 1000).build();
        assertEquals(WireError.OK, permille.check(TlvType.VALUE, new byte[] {(byte) 0xE0, 0x01}, 0, 2), "480, little-endian");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, permille.check(TlvType.VALUE, new byte[] {(byte) 0xE9, 0x03}, 0, 2), "1001");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, LED.check(TlvType.VALUE, new byte[] {2}, 0, 1), "out of range");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, LED.check(TlvType.VALUE, new byte[] {(byte) 0xFF}, 0, 1), "unsigned 255");
        // a wider ranged VALUE is read little-endian like every libtracer integer: 500 = F4 01
        VertexSchema humidity = VertexSchema.value(2, false).range(0, 1000).build();
        assertEquals(WireError.OK, humidity.check(TlvType.VALUE, new byte[] {(byte) 0xF4, 0x01}, 0, 2), "500");
        assertEquals(500, humidity.rawValue(new byte[] {(byte) 0xF4, 0x01}, 0));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, humidity.check(TlvType.VALUE, new byte[] {(byte) 0xE9, 0x03}, 0, 2), "1001");
        assertEquals(65535, humidity.rawValue(new byte[] {(byte) 0xFF, (byte) 0xFF}, 0), "unsigned is unsigned");
    }

    @Test
    void aNameIsBoundedBySize() {
        VertexSchema name = VertexSchema.name(8).build();
        assertEquals(WireError.OK, name.check(TlvType.NAME, new byte[8], 0, 8));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, name.check(TlvType.NAME, new byte[9], 0, 9));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, name.check(0x80, new byte[1], 0, 1), "a user type");
    }

    @Test
    void signedValuesSignExtendAndScaleToTheirUnit() {
        byte[] minus = {(byte) 0x38, (byte) 0xFF}; // -200, little-endian
        assertEquals(-200, TEMP.rawValue(minus, 0));
        assertEquals(-2.0, TEMP.toUnit(-200), 1e-9);
        assertEquals(2328, TEMP.fromUnit(23.28));
        assertEquals("°C", TEMP.unitSymbol());
    }

    @Test
    void theSettingsFormRoundTrips() {
        byte[] out = new byte[TEMP.settingsLength()];
        assertEquals(out.length, TEMP.copySettings(out, 0, out.length));
        assertEquals(TlvType.SETTINGS, out[0] & 0xFF);
        VertexSchema back = VertexSchema.fromSettings(out, 0, out.length);
        assertNotNull(back);
        assertEquals(TEMP.toString(), back.toString());
        assertEquals("board temperature", back.description());
        assertEquals(AccessMask.READ | AccessMask.SUBSCRIBE, back.rights());

        byte[] led = new byte[LED.settingsLength()];
        LED.copySettings(led, 0, led.length);
        VertexSchema ledBack = VertexSchema.fromSettings(led, 0, led.length);
        assertTrue(ledBack.ranged() && ledBack.min() == 0 && ledBack.max() == 1, ledBack.toString());
        assertTrue(ledBack.allows(AccessMask.WRITE));
        assertEquals(-WireError.FLOW_BACKPRESSURE, LED.copySettings(new byte[4], 0, 4));
    }

    /** Another node's declaration in its own key order and spelling, plus a key this reader does not know. */
    private static byte[] foreign(boolean pairs) {
        byte[] b = new byte[256];
        io.spectrum.wire.TlvWriter w = new io.spectrum.wire.TlvWriter(4).wrap(b, 0, b.length);
        w.begin(TlvType.SETTINGS);
        w.leaf(TlvType.NAME, io.spectrum.wire.Utf8.bytes("unit")).leaf(TlvType.NAME, io.spectrum.wire.Utf8.bytes("Cel"));
        w.leaf(TlvType.NAME, io.spectrum.wire.Utf8.bytes("scale")).leaf(TlvType.NAME, io.spectrum.wire.Utf8.bytes("1e-2"));
        w.leaf(TlvType.NAME, io.spectrum.wire.Utf8.bytes("type")).leaf(TlvType.NAME, io.spectrum.wire.Utf8.bytes("VALUE"));
        w.leaf(TlvType.NAME, io.spectrum.wire.Utf8.bytes("width")).value(2, 1);
        w.leaf(TlvType.NAME, io.spectrum.wire.Utf8.bytes("vendor.note"));
        if (pairs) {
            w.leaf(TlvType.NAME, io.spectrum.wire.Utf8.bytes("x"));
        }
        w.end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    @Test
    void aDeclarationReadFromAnotherNode_keepsItsBytes_soACopyAnswersWhatItsOwnerAnswers() {
        byte[] theirs = foreign(true);
        VertexSchema copy = VertexSchema.fromSettings(theirs, 0, theirs.length);
        assertNotNull(copy);
        assertEquals("Cel", copy.unit());
        assertEquals(0.01, copy.scale(), 1e-12);
        byte[] out = new byte[copy.settingsLength()];
        assertEquals(theirs.length, copy.copySettings(out, 0, out.length));
        org.junit.jupiter.api.Assertions.assertArrayEquals(theirs, out, "the owner's bytes, not a rendering of the fields");
        byte[] key = io.spectrum.wire.Utf8.bytes("scale");
        byte[] v = new byte[16];
        int n = copy.copyKey(key, 0, key.length, v, 0, v.length);
        assertEquals("1e-2", new String(v, 4, n - 4, java.nio.charset.StandardCharsets.UTF_8), "the key as the owner spelled it");
        byte[] note = io.spectrum.wire.Utf8.bytes("vendor.note");
        assertTrue(copy.copyKey(note, 0, note.length, v, 0, v.length) > 0, "a key this reader does not know is still answered");

        byte[] odd = foreign(false); // a key without a value: not pairs, so the fields are rendered
        VertexSchema rendered = VertexSchema.fromSettings(odd, 0, odd.length);
        assertNotNull(rendered);
        byte[] r = new byte[rendered.settingsLength()];
        rendered.copySettings(r, 0, r.length);
        VertexSchema same = VertexSchema.value(2, false).unit("Cel").scale(0.01).rights(0).build();
        byte[] s = new byte[same.settingsLength()];
        same.copySettings(s, 0, s.length);
        org.junit.jupiter.api.Assertions.assertArrayEquals(s, r);
    }

    @Test
    void badFieldsAreNamedAtConfigurationTime() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VertexSchema.value(3, false))
                .getMessage().startsWith("width"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VertexSchema.value(1, false).range(0, 256).build())
                .getMessage().startsWith("range"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VertexSchema.value(1, false).scale(0))
                .getMessage().startsWith("scale"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VertexSchema.value(1, false).rights(0x08))
                .getMessage().startsWith("rights"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VertexSchema.name(1).range(0, 1))
                .getMessage().startsWith("range"));
    }
}
