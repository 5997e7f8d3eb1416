package io.spectrum.hil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConformanceReportTest {
    @Test
    void tableHasOneRowPerScenarioAndEscapesCells(@TempDir Path dir) throws Exception {
        List<ScenarioResult> results = List.of(
                new ScenarioResult("handshake-caps", ScenarioResult.Outcome.PASS, 12, "core=1 rfc0035=1"),
                new ScenarioResult("damaged-frames", ScenarioResult.Outcome.FAIL, 340, "got a|b\nsecond line"),
                new ScenarioResult("board-reset", ScenarioResult.Outcome.SKIP, 0, "target has no reset line"));
        Path file = dir.resolve("sub/hil-conformance-emulated.md");
        ConformanceReport.write(file, "emulated", "board on serial /tmp/x @115200", results);
        List<String> lines = Files.readAllLines(file);
        assertEquals("# HIL conformance: emulated", lines.get(0));
        assertTrue(lines.contains("- result: 1 passed, 1 failed, 1 skipped of 3"), lines.toString());
        int header = lines.indexOf("| scenario | result | time ms | detail |");
        assertTrue(header > 0);
        assertEquals("|---|---|---:|---|", lines.get(header + 1));
        assertEquals("| handshake-caps | PASS | 12 | core=1 rfc0035=1 |", lines.get(header + 2));
        assertEquals("| damaged-frames | FAIL | 340 | got a\\|b second line |", lines.get(header + 3));
        assertEquals("| board-reset | SKIP | 0 | target has no reset line |", lines.get(header + 4));
        assertEquals(header + 5, lines.size());
    }
}
