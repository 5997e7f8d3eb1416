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
