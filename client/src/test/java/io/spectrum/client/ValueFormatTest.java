package io.spectrum.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.VertexSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** Values rendered and parsed through their declaration (the demo board's vertices). */
class ValueFormatTest {
    static final VertexSchema TEMP = VertexSchema.value(2, true).unit("Cel").scale(0.01).readOnly().build();
    static final VertexSchema HUMIDITY = VertexSchema.value(2, false).unit("%").scale(0.1).range(0, 1000).build();
    static final VertexSchema LED = VertexSchema.value(1, false).range(0, 1).writable().build();
    static final VertexSchema U8 = VertexSchema.value(1, false).writable().build();
    static final VertexSchema U64 = VertexSchema.value(8, false).build();
    static final VertexSchema NAME = VertexSchema.name(8).build();

    @Test
    void aBusMessageWithAttachments_readsAsItsPayloadAndItsReferences() {
        io.spectrum.bus.protocol.ArtifactRef ref = new io.spectrum.bus.protocol.ArtifactRef("s1", 17, 2, 10485760, "ab".repeat(32));
        byte[] v = io.spectrum.bus.protocol.MessageValue.of("frame 9".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                java.util.List.of("image"), java.util.List.of(ref));
        assertEquals("frame 9 [image: artifact 17.2 10485760 bytes sha256:" + "ab".repeat(32) + "]",
                ValueFormat.render(v, null).text());
        byte[] plain = io.spectrum.bus.protocol.MessageValue.of("frame 9".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                java.util.List.of(), java.util.List.of());
        assertEquals("frame 9", ValueFormat.render(plain, null).text(), "without attachments: the text itself");
    }

    @Test
    void aDeclaredValueReadsInItsUnit() {
        ValueText t = ValueFormat.render(NodeFixture.value(2328, 2), TEMP);
        assertEquals("23.28 °C", t.text());
        assertEquals(new BigDecimal("23.28"), t.value());
        assertEquals(BigInteger.valueOf(2328), t.raw());
        assertEquals("°C", t.unit());
        assertEquals("Cel", t.ucum());
        assertEquals("23.20 °C", ValueFormat.render(NodeFixture.value(2320, 2), TEMP).text(), "the scale's decimals");
        assertEquals("-2.00 °C", ValueFormat.render(NodeFixture.value(-200, 2), TEMP).text());
        assertEquals("48.3 %", ValueFormat.render(NodeFixture.value(483, 2), HUMIDITY).text());
    }

    @Test
    void unsignedIsUnsigned() {
        assertEquals("255", ValueFormat.render(NodeFixture.value(255, 1), U8).text());
        assertEquals("-1", ValueFormat.render(NodeFixture.value(255, 1), null).text(), "undeclared: signed, as before");
        ValueText big = ValueFormat.render(NodeFixture.value(-1, 8), U64);
        assertEquals("18446744073709551615", big.text());
        assertEquals(new BigInteger("18446744073709551615"), big.raw());
    }

    @Test
    void withoutADeclarationOrOneThatDoesNotFitTheValueIsRaw() {
        ValueText raw = ValueFormat.render(NodeFixture.value(2328, 2), null);
        assertEquals("2328", raw.text());
        assertEquals("", raw.unit());
        assertNull(raw.ucum());
        assertEquals("2328", ValueFormat.render(NodeFixture.value(2328, 4), TEMP).text(), "width differs from the declaration");
        assertEquals("kitchen", ValueFormat.render(ClientFixtures.name("kitchen"), NAME).text());
        assertFalse(ValueFormat.render(ClientFixtures.name("kitchen"), null).numeric());
        assertEquals(ValueText.NONE, ValueFormat.render(null, TEMP));
    }

    @Test
    void writesParseByTheDeclaration() {
        assertArrayEquals(NodeFixture.value(1, 1), ValueFormat.parse("1", LED).tlv());
        assertArrayEquals(NodeFixture.value(2350, 2), ValueFormat.parse("23.5", TEMP).tlv());
        assertArrayEquals(NodeFixture.value(2350, 2), ValueFormat.parse("23.5 °C", TEMP).tlv());
        assertArrayEquals(NodeFixture.value(2350, 2), ValueFormat.parse("23.5Cel", TEMP).tlv());
        assertArrayEquals(NodeFixture.value(-200, 2), ValueFormat.parse("-2", TEMP).tlv());
        assertArrayEquals(NodeFixture.value(255, 1), ValueFormat.parse("255", U8).tlv(), "u8 takes 255");
        assertArrayEquals(ClientFixtures.name("hall"), ValueFormat.parse("hall", NAME).tlv());
    }

    @Test
    void whatDoesNotFitIsRefusedWithOneLine() {
        assertEquals("3 is out of range; the vertex holds a number from 0 to 1", ValueFormat.parse("3", LED).reason());
        assertEquals("3.5 is not a whole number; the vertex holds a number from 0 to 1", ValueFormat.parse("3.5", LED).reason());
        assertEquals("'on' is not a number; the vertex holds a number from 0 to 1", ValueFormat.parse("on", LED).reason());
        assertEquals("12345678901234567890 is out of range; the vertex holds a number from 0 to 1",
                ValueFormat.parse("12345678901234567890", LED).reason());
        assertEquals("400 is out of range; the vertex holds a number from -327.68 to 327.67 °C in steps of 0.01",
                ValueFormat.parse("400", TEMP).reason());
        assertEquals("23.555 is finer than the vertex's steps; it holds a number from -327.68 to 327.67 °C in steps of 0.01",
                ValueFormat.parse("23.555", TEMP).reason());
        assertEquals("256 is out of range; the vertex holds a number from 0 to 255", ValueFormat.parse("256", U8).reason());
        assertEquals("-1 is out of range; the vertex holds a number from 0 to 255", ValueFormat.parse("-1", U8).reason());
        assertEquals("'a long name' is 11 bytes; the vertex holds text of at most 8 bytes",
                ValueFormat.parse("a long name", NAME).reason());
        for (String bad : new String[] {"", "true", "1e99999", "0x10", "NaN", "1,5"}) {
            assertFalse(ValueFormat.parse(bad, LED).ok(), bad);
            assertTrue(ValueFormat.parse(bad, LED).reason().startsWith("'" + bad + "' is not a number")
                    || ValueFormat.parse(bad, LED).reason().contains("out of range"), bad);
        }
    }

    @Test
    void anOverLongNumberIsRefusedByItsLengthBeforeAnyArithmetic() {
        String digits = "9".repeat(200_000); // the bridge stalled for 50 s on 2,000,000 of these in BigDecimal(String)
        for (VertexSchema s : new VertexSchema[] {LED, TEMP, U64, HUMIDITY}) {
            ValueFormat.Parsed p = ValueFormat.parse(digits, s);
            assertFalse(p.ok());
            assertTrue(p.reason().contains("is 200000 characters; a value of this vertex is written in at most "
                    + ValueFormat.maxTextLength(s)), p.reason().substring(0, Math.min(200, p.reason().length())));
            assertTrue(p.reason().length() < 200, "the refusal quotes 40 characters of the input, not all of it");
        }
        assertEquals(3 + ValueFormat.NUMBER_SLACK, ValueFormat.maxTextLength(U8), "255: three characters");
        assertEquals(7 + 3 + ValueFormat.NUMBER_SLACK, ValueFormat.maxTextLength(TEMP), "-327.68 and Cel (°C is shorter)");
        assertEquals(20 + ValueFormat.NUMBER_SLACK, ValueFormat.maxTextLength(U64));
        assertEquals("1e9999 is out of range; the vertex holds a number from 0 to 1", ValueFormat.parse("1e9999", LED).reason());
        assertTrue(ValueFormat.parse("0.50000000000000000000 °C", TEMP).ok(), "trailing zeros within the slack are fine");
        String text = "x".repeat(2_000_000);
        assertTrue(ValueFormat.parse(text, NAME).reason().startsWith("'xxxx"), "a NAME is refused by its byte count");
        assertTrue(ValueFormat.parse(text, NAME).reason().length() < 200);
    }
}
