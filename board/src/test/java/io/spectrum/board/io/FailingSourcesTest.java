package io.spectrum.board.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pi4j.plugin.mock.provider.i2c.MockI2C;
import io.spectrum.board.BoardFixture;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.StaleReason;
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
        assertEquals("\"72 mV\" is not in °C (the vertex's unit)",
                assertThrows(IOException.class, () -> Sysfs.numberIn("72 mV", cel)).getMessage());
        assertEquals("\"72 %\" is not a bare number (the vertex has no unit)",
                assertThrows(IOException.class, () -> Sysfs.numberIn("72 %", bare)).getMessage());
        assertEquals(-16, Sysfs.numberIn("-0X10", bare));
        for (String wrong : List.of("", "21.5 21.6", "21,5", "NaN", "Infinity", "1e999999", "1e400", "--1", "21.5\n22")) {
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

    @Test
    void garbageInAFileMarksTheVertexStaleWithTheReasonUntilAGoodRead() throws Exception {
        Path f = tmp.resolve("level.txt");
        Files.writeString(f, "7\n");
        try (BoardFixture b = new BoardFixture("""
                vertices:
                  - {path: /level, type: u16, source: {kind: file, file: level.txt, period: 1s}}
                """, tmp)) {
            assertNull(stale(b, "/level"));
            Files.writeString(f, "garbage\n");
            b.step(1000);
            assertEquals(7, b.raw("/level"), "the last value is kept");
            assertEquals(SourceHealth.fit("file " + f, "not a number: \"garbage\""), stale(b, "/level"));
            Files.writeString(f, "72 %\n");
            b.step(2000);
            assertEquals(SourceHealth.fit("file " + f, "\"72 %\" is not a bare number (the vertex has no unit)"),
                    stale(b, "/level"), "a new reason replaces the old");
            Files.writeString(f, "8\n");
            b.step(3000);
            assertEquals(8, b.raw("/level"));
            assertNull(stale(b, "/level"), "the good read's publish cleared the mark");
        }
    }

    /**
     * A source that fails from its very first read leaves no value to keep, but the vertex is still
     * marked, with the reason: "no value yet, and why" (a READ that asks for the stamp and a stamped
     * subscriber are told it, docs/extensions.md "On a READ answer"); the first good read publishes.
     */
    @Test
    void aSourceThatFailsOnItsFirstRead_marksTheVertexWithoutAValueStaleWithTheReason() throws Exception {
        Path f = tmp.resolve("level.txt");
        Files.writeString(f, "garbage\n");
        try (BoardFixture b = new BoardFixture("""
                vertices:
                  - {path: /level, type: u16, source: {kind: file, file: level.txt, period: 1s}}
                """, tmp)) {
            assertFalse(b.has("/level"), "nothing was published");
            assertTrue(b.node.isStale(NodePath.of("/level")), "and the vertex says it is not current");
            assertEquals(SourceHealth.fit("file " + f, "not a number: \"garbage\""), stale(b, "/level"));
            Files.writeString(f, "7\n");
            b.step(1000);
            assertEquals(7, b.raw("/level"));
            assertNull(stale(b, "/level"), "the first good read's publish cleared the mark");
        }
    }

    @Test
    void anI2cReadThatFailsEveryPeriodMarksTheVertexStale() throws Exception {
        try (BoardFixture b = new BoardFixture("""
                platform: mock
                vertices:
                  - {path: /tmp102, type: i16, unit: Cel, scale: 0.0625,
                     source: {kind: i2c, bus: 1, address: 0x48, register: 0, bytes: 2, shift: 4, period: 1s}}
                """, tmp)) {
            MockI2C dev = b.host.pi4j().registry().get("spectrum-i2c-1-72-0", MockI2C.class);
            dev.writeRegister(0, new byte[] {0x19, 0x00}, 0, 2);
            b.step(1000);
            assertEquals(400, b.raw("/tmp102"));
            assertNull(stale(b, "/tmp102"));
            for (int i = 2; i <= 4; i++) {
                b.step(1000L * i); // the mock register is read empty: 0 of 2 bytes, every period
            }
            assertEquals(400, b.raw("/tmp102"), "the last value is kept");
            assertEquals("i2c 1/0x48 reg 0: read 0 of 2 bytes", stale(b, "/tmp102"));
            dev.writeRegister(0, new byte[] {0x1A, 0x00}, 0, 2);
            b.step(5000);
            assertEquals(416, b.raw("/tmp102"));
            assertNull(stale(b, "/tmp102"));
        }
    }

    @Test
    void aOneWireSensorWithGarbageOrABadCrcIsStaleNotCurrent() throws Exception {
        Path sys = tmp.resolve("sys");
        Path dev = Files.createDirectories(sys.resolve("bus/w1/devices/28-0123456789ab"));
        Path t = dev.resolve("temperature");
        Files.writeString(t, "21375\n");
        try (BoardFixture b = new BoardFixture("""
                sys: sys
                vertices:
                  - {path: /water, type: i16, unit: Cel, scale: 0.01, source: {kind: w1, device: 28-0123456789ab, period: 2s}}
                """, tmp)) {
            assertEquals(2138, b.raw("/water"));
            Files.writeString(t, "garbage\n");
            b.step(2000);
            assertEquals(2138, b.raw("/water"));
            assertEquals("w1 28-0123456789ab: temperature: not a number: \"garbage\"", stale(b, "/water"));
            Files.writeString(t, "19000\n");
            b.step(4000);
            assertEquals(1900, b.raw("/water"));
            assertNull(stale(b, "/water"));
        }
    }

    @Test
    void aValueOutsideTheDeclarationIsAFailedReadNotAQuietOne() throws Exception {
        Path f = tmp.resolve("pct.txt");
        Files.writeString(f, "50\n");
        try (BoardFixture b = new BoardFixture("""
                vertices:
                  - {path: /pct, type: u8, unit: "%", range: [0, 100], source: {kind: file, file: pct.txt, period: 1s}}
                """, tmp)) {
            assertEquals(50, b.raw("/pct"));
            Files.writeString(f, "150 %\n");
            b.step(1000);
            assertEquals(50, b.raw("/pct"));
            String reason = stale(b, "/pct");
            assertTrue(reason != null && reason.startsWith("file " + f + ": \"150 %\" does not fit the vertex"), reason);
        }
    }

    @Test
    void aValueWiderThanTheVertexIsRefusedNotCutToItsLowBytes() throws Exception {
        Path f = tmp.resolve("n.txt");
        Files.writeString(f, "100\n");
        try (BoardFixture b = new BoardFixture("""
                vertices:
                  - {path: /n, type: i16, source: {kind: file, file: n.txt, period: 1s}}
                  - {path: /raw, type: u8, source: {kind: i2c, address: 0x48, bytes: 2}}
                platform: mock
                """, tmp)) {
            assertEquals(100, b.raw("/n"));
            Files.writeString(f, "70000\n"); // 0x11170: an i16 keeps 0x1170 = 4464 when cut
            b.step(1000);
            assertEquals(100, b.raw("/n"), "70000 was published on an i16 as its low bytes");
            String reason = stale(b, "/n");
            assertTrue(reason != null && reason.contains("\"70000\" does not fit the vertex"), reason);
            var app = b.host.vertex("/n");
            assertEquals(io.spectrum.wire.WireError.SCHEMA_TYPE_MISMATCH, app.publishUnit(Double.NaN));
            assertEquals(io.spectrum.wire.WireError.SCHEMA_TYPE_MISMATCH, app.publish(-32769));
            assertEquals(io.spectrum.wire.WireError.OK, app.publish(-32768));
            MockI2C dev = b.host.pi4j().registry().get("spectrum-i2c-1-72-0", MockI2C.class);
            dev.writeRegister(0, new byte[] {0x01, 0x02}, 0, 2); // 258 on a u8 vertex
            b.step(2000);
            assertFalse(b.has("/raw"), "258 was published on a u8");
        }
    }

    @Test
    void anAppMarksItsOwnVertexStaleAndAPublishClearsIt() throws Exception {
        try (BoardFixture b = new BoardFixture("""
                vertices:
                  - {path: /app/temp, type: i16, unit: Cel, scale: 0.01, initial: 2000}
                """, tmp)) {
            var v = b.host.vertex("/app/temp");
            assertEquals(io.spectrum.wire.WireError.OK, v.markStale("sensor unplugged"));
            assertEquals("sensor unplugged", stale(b, "/app/temp"));
            v.publish(2100);
            assertNull(stale(b, "/app/temp"));
        }
    }

    @Test
    void aLongReasonKeepsWhatWentWrongAndShortensTheSourceInstead() {
        String source = "file /var/lib/spectrum/sensors/greenhouse/north-bed/soil-moisture-probe-3/level.txt";
        String why = "\"72 mV\" is not in % (the vertex's unit)";
        String fitted = SourceHealth.fit(source, why);
        assertTrue(fitted.getBytes(StandardCharsets.UTF_8).length <= StaleReason.MAX_BYTES, fitted);
        assertTrue(fitted.startsWith("file ...") && fitted.endsWith("probe-3/level.txt: " + why), fitted);
        assertEquals("i2c 1/0x48 reg 0: read 0 of 2 bytes", SourceHealth.fit("i2c 1/0x48 reg 0", "read 0 of 2 bytes"));
    }

    /** The vertex's stale reason as the node holds it, or null when its value is current. */
    private static String stale(BoardFixture b, String path) {
        return b.node.staleReason(NodePath.of(path));
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
