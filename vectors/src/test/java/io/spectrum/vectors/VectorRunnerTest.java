package io.spectrum.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

class VectorRunnerTest {
    private static final List<VectorResult> RESULTS = new ArrayList<>();

    @TestFactory
    Stream<DynamicTest> everyVector() {
        VectorRunner runner = new VectorRunner();
        return VectorLoader.loadDefault().stream().map(v -> DynamicTest.dynamicTest(v.suite() + "/" + v.id(), () -> {
            VectorResult r = runner.check(v);
            synchronized (RESULTS) {
                RESULTS.add(r);
            }
            assertTrue(r.ok(), () -> String.join("\n", r.failures()));
        }));
    }

    @AfterAll
    static void printSummary() {
        System.out.println("vector summary (ok/total per category):");
        System.out.print(VectorRunner.summary(RESULTS));
    }

    @Test
    void roundTripLineProtocol() {
        VectorRunner r = new VectorRunner();
        assertEquals("010803000000aabbcc", r.roundTripLine("010803000000AABBCC"));
        assertEquals("ERR:FRAME_INVALID", r.roundTripLine("01010100AA"));
        assertEquals("ERR:FRAME_TRUNCATED", r.roundTripLine("0100"));
        assertEquals("ERR:EMPTY_LINE", r.roundTripLine("  "));
        assertEquals("ERR:BAD_HEX", r.roundTripLine("0g"));
    }

    @Test
    void classpathSetsAreComplete() {
        List<Vector> lib = VectorLoader.loadClasspath(VectorLoader.LIBTRACER_V1);
        assertEquals(89, lib.size());
        assertEquals(4, lib.stream().filter(Vector::reject).count());
        assertTrue(VectorLoader.loadClasspath(VectorLoader.SPECTRUM_V1).size() >= 4);
    }

    @Test
    void directoryFromThePropertyIsUsed(@TempDir Path tmp) throws Exception {
        Path c = tmp.resolve("mine").resolve("framing").resolve("ok-status");
        Files.createDirectories(c);
        Files.write(c.resolve("input.bin"), new byte[] {9, 0, 0, 0});
        Files.writeString(c.resolve("expected.json"),
                "{\"name\":\"ok-status\",\"category\":\"framing\",\"hex\":\"09000000\",\"total_bytes\":4,"
                        + "\"decoded\":{\"type\":\"0x09 STATUS\",\"length\":0}}");
        String old = System.getProperty(VectorLoader.DIR_PROPERTY);
        System.setProperty(VectorLoader.DIR_PROPERTY, tmp.resolve("mine").toString());
        try {
            List<Vector> vs = VectorLoader.loadDefault();
            assertEquals(1, vs.size());
            assertEquals("framing/ok-status", vs.get(0).id());
            assertEquals("mine", vs.get(0).suite());
            List<VectorResult> rs = new VectorRunner().runAll(vs);
            ByteArrayOutputStream bo = new ByteArrayOutputStream();
            VectorRunner.writeTap(rs, new PrintStream(bo, true, StandardCharsets.UTF_8));
            assertEquals("TAP version 13\n1..1\nok 1 - framing/ok-status\n", bo.toString(StandardCharsets.UTF_8).replace("\r", ""));
        } finally {
            if (old == null) {
                System.clearProperty(VectorLoader.DIR_PROPERTY);
            } else {
                System.setProperty(VectorLoader.DIR_PROPERTY, old);
            }
        }
    }

    @Test
    void mismatchesAreReported(@TempDir Path tmp) throws Exception {
        Path c = tmp.resolve("framing").resolve("lie");
        Files.createDirectories(c);
        Files.write(c.resolve("input.bin"), new byte[] {9, 0, 0, 0});
        Files.writeString(c.resolve("expected.json"), "{\"hex\":\"09000000\",\"decoded\":{\"type\":\"0x08 ERROR\",\"length\":3,"
                + "\"opt\":{\"raw\":\"0x40\",\"PL\":1}}}");
        Path r = tmp.resolve("framing").resolve("bad-reject");
        Files.createDirectories(r);
        Files.write(r.resolve("reject.bin"), new byte[] {9, 0, 0, 0});
        Files.writeString(r.resolve("expected.json"), "{\"reject\":\"FRAME_INVALID\",\"decoded\":null}");
        List<VectorResult> rs = new VectorRunner().runAll(VectorLoader.loadDirectory(tmp));
        assertEquals(2, rs.size());
        assertFalse(rs.get(0).ok());
        assertTrue(rs.get(0).failures().get(0).contains("decoded a reject vector"));
        VectorResult lie = rs.get(1);
        assertEquals(4, lie.failures().size(), lie.failures().toString());
    }
}
