package io.spectrum.board.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.board.BoardFixture;
import io.spectrum.node.api.VertexSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source that cannot read never looks healthy: nothing is published from text that is not exactly
 * a number in the declared unit, the vertex is marked stale with the reason until a read works, and
 * the board's log says so once per change of state.
 */
class FailingSourcesTest {
    @TempDir
    Path tmp;

    @Test
    void aFileHoldingAnotherUnitIsNeverPublished() throws Exception {
        Path f = tmp.resolve("t.txt");
        Files.writeString(f, "72 mV\n");
        try (BoardFixture b = new BoardFixture("""
                vertices:
                  - {path: /t, type: i16, unit: Cel, scale: 0.01, source: {kind: file, file: t.txt, period: 1s}}
                """, tmp)) {
            assertFalse(b.has("/t"), "72 mV was published on a °C vertex");
            Files.writeString(f, "21.5 °C\n");
            b.step(1000);
            assertEquals(2150, b.raw("/t"));
            Files.writeString(f, "21.25 K");
            b.step(2000);
            assertEquals(2150, b.raw("/t"), "kelvin was published as °C");
            Files.writeString(f, "22Cel");
            b.step(3000);
            assertEquals(2200, b.raw("/t"));
        }
    }

    @Test
    void onlyExactlyOneNumberInTheDeclaredUnitIsAValue() throws Exception {
        VertexSchema cel = VertexSchema.value(2, true).unit("Cel").scale(0.01).build();
        VertexSchema bare = VertexSchema.value(2, true).build();
        assertEquals(21.5, Sysfs.numberIn(" 21.5\n", cel));
        assertEquals(21.5, Sysfs.numberIn("21.5 Cel", cel));
        assertEquals(21.5, Sysfs.numberIn("21.5 °C", cel));
        assertEquals(-0.5, Sysfs.numberIn("-5e-1°C", cel));
        assertEquals(255, Sysfs.numberIn("0xff", bare));
        assertEquals("not a number: \"garbage\"",
                assertThrows(IOException.class, () -> Sysfs.numberIn("garbage", cel)).getMessage());
        assertEquals("\"72 mV\" is not a number in °C (the vertex's unit)",
                assertThrows(IOException.class, () -> Sysfs.numberIn("72 mV", cel)).getMessage());
        assertEquals("\"72 %\" is not a bare number (the vertex declares no unit)",
                assertThrows(IOException.class, () -> Sysfs.numberIn("72 %", bare)).getMessage());
        for (String wrong : List.of("", "21.5 21.6", "21,5", "NaN", "Infinity", "1e999999", "--1", "21.5\n22")) {
            assertThrows(IOException.class, () -> Sysfs.numberIn(wrong, cel), wrong);
        }
    }

    @Test
    void aFailureIsLoggedOncePerChangeOfStateNotEveryPeriod() throws Exception {
        Path f = tmp.resolve("level.txt");
        Files.writeString(f, "7\n");
        List<String> log = captureErr(() -> {
            try (BoardFixture b = new BoardFixture("""
                    vertices:
                      - {path: /level, type: u16, source: {kind: file, file: level.txt, period: 1s}}
                    """, tmp)) {
                Files.writeString(f, "garbage\n");
                for (int i = 1; i <= 5; i++) {
                    b.step(1000L * i);
                }
                assertEquals(7, b.raw("/level"), "the last value is kept (marked stale)");
                Files.writeString(f, "8\n");
                b.step(6000);
                b.step(7000);
                assertEquals(8, b.raw("/level"));
                Files.delete(f);
                b.step(8000);
                b.step(9000);
            }
        });
        String file = f.toString();
        assertEquals(List.of(
                "board: /level: file " + file + ": not a number: \"garbage\" (marked stale until a read works)",
                "board: /level: file " + file + " works again",
                "board: /level: file " + file + ": does not exist (marked stale until a read works)"), log);
    }

    /** What {@code work} printed on System.err, as lines. */
    private static List<String> captureErr(ThrowingRunnable work) throws Exception {
        PrintStream before = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            work.run();
        } finally {
            System.setErr(before);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("board: ")).toList();
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
