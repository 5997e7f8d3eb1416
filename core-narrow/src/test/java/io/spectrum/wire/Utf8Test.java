package io.spectrum.wire;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one UTF-8 encoder: the JDK's bytes, and a byte bound that never cuts a character in two. */
class Utf8Test {
    private static final String MIXED = "i2c 1/0x48 °C ü € 𝄞 end";

    @Test
    void encodesAsTheJdkDoes() {
        byte[] out = new byte[64];
        int n = Utf8.encode(MIXED, out, 3);
        assertArrayEquals(MIXED.getBytes(StandardCharsets.UTF_8), Arrays.copyOfRange(out, 3, 3 + n));
        assertEquals(n, Utf8.encodedLength(MIXED));
    }

    @Test
    void aBoundCutsBeforeTheFirstCharacterThatDoesNotFit() {
        byte[] full = MIXED.getBytes(StandardCharsets.UTF_8);
        for (int max = 0; max <= full.length; max++) {
            byte[] out = new byte[64];
            int n = Utf8.encode(MIXED, out, 0, max);
            String back = new String(out, 0, n, StandardCharsets.UTF_8);
            assertEquals(true, n <= max && MIXED.startsWith(back), "max " + max + ": " + back);
            int next = back.length() < MIXED.length() ? MIXED.codePointAt(back.length()) : -1;
            int nextBytes = next < 0 ? 0 : new String(Character.toChars(next)).getBytes(StandardCharsets.UTF_8).length;
            assertEquals(true, next < 0 || n + nextBytes > max, "max " + max + ": stopped early at " + n);
        }
        byte[] reason = new byte[StaleReason.MAX_BYTES + 8];
        assertEquals(StaleReason.MAX_BYTES, StaleReason.encode("x".repeat(500), reason, 0), "a reason is held to its bound");
        assertEquals("\uFFFD", new String(reason, 0, Utf8.encode("\uD800", reason, 0, 8), StandardCharsets.UTF_8),
                "an unpaired surrogate is U+FFFD");
    }
}
