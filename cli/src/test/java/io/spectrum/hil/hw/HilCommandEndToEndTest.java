package io.spectrum.hil.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.cli.SpectrumCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** {@code spectrum hil --port DEVICE --report FILE} against an emulated board, as a user runs it on a real one. */
class HilCommandEndToEndTest {
    @Test
    @Timeout(180)
    void hilCommandRunsTheSuiteOverTheSerialPortAndWritesTheReport() throws Exception {
        Path dir = HilJUnit.workDir("cli");
        Path report = dir.resolve("report.md");
        Files.deleteIfExists(report);
        try (EmulatedBoardTarget board = EmulatedBoardTarget.start("cli", BoardProcess.sameJvm(),
                dir, Duration.ofSeconds(5))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cl = new CommandLine(new SpectrumCommand());
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            int rc = cl.execute("hil", "--port", board.pair().hostEnd().toString(), "--report", report.toString());
            assertEquals(0, rc, out + "\n" + err + "\n" + board.diagnostics());
            String printed = out.toString();
            assertTrue(printed.contains("PASS handshake-caps"), printed);
            assertTrue(printed.contains("| scenario | result | time ms | detail |"), printed);
            String md = Files.readString(report);
            assertTrue(md.startsWith("# HIL conformance: host"), md);
            // no reset line and no pins from the command line: the two reset scenarios and the two pin
            // scenarios are skipped, the rest pass
            assertTrue(md.matches("(?s).*- result: \\d+ passed, 0 failed, 4 skipped of \\d+\n.*"), md);
            assertTrue(md.contains("| board-reset-serves-again | SKIP |"), md);
            assertTrue(md.contains("| declared-input-edge-reaches-host | SKIP |"), md);
            assertTrue(md.contains("| declared-output-drives-pin | SKIP |"), md);
        }
    }
}
