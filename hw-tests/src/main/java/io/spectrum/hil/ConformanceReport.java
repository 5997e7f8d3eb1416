package io.spectrum.hil;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The conformance report: a Markdown table, one row per scenario (scenario | result | time ms |
 * detail), under a short header naming the target. Written beside the JUnit results
 * (hw-tests/target/surefire-reports/hil-conformance-TARGET.md) and by {@code spectrum hil --report}.
 */
public final class ConformanceReport {
    private ConformanceReport() {
    }

    /**
     * The report as Markdown: a header naming the target and its pass / fail / skip counts, then one row per
     * scenario.
     */
    public static String markdown(String targetName, String targetDescription, List<ScenarioResult> results) {
        int pass = 0;
        int fail = 0;
        int skip = 0;
        for (ScenarioResult r : results) {
            switch (r.outcome()) {
                case PASS -> pass++;
                case FAIL -> fail++;
                case SKIP -> skip++;
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append("# HIL conformance: ").append(cell(targetName)).append("\n\n");
        sb.append("- target: ").append(cell(targetDescription)).append('\n');
        sb.append("- run: ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append('\n');
        sb.append("- result: ").append(pass).append(" passed, ").append(fail).append(" failed, ")
                .append(skip).append(" skipped of ").append(results.size()).append("\n\n");
        sb.append("| scenario | result | time ms | detail |\n");
        sb.append("|---|---|---:|---|\n");
        for (ScenarioResult r : results) {
            sb.append("| ").append(cell(r.scenario()))
                    .append(" | ").append(r.outcome())
                    .append(" | ").append(r.millis())
                    .append(" | ").append(cell(r.detail()))
                    .append(" |\n");
        }
        return sb.toString();
    }

    /** Writes {@link #markdown} to {@code file}, creating its parent directories. */
    public static void write(Path file, String targetName, String targetDescription, List<ScenarioResult> results)
            throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, markdown(targetName, targetDescription, results), StandardCharsets.UTF_8);
    }

    /** One table cell: no line breaks, pipes escaped, long details cut. */
    static String cell(String s) {
        if (s == null) {
            return "";
        }
        String t = s.replace("\r", " ").replace("\n", " ").replace("|", "\\|").trim();
        return t.length() > 300 ? t.substring(0, 297) + "..." : t;
    }
}
