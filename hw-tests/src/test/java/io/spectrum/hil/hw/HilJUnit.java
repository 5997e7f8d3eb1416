package io.spectrum.hil.hw;

import io.spectrum.hil.BoardTarget;
import io.spectrum.hil.ConformanceReport;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.HilSuite;
import io.spectrum.hil.Scenario;
import io.spectrum.hil.ScenarioResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;

/**
 * Turns the suite into JUnit dynamic tests, one per scenario, against one target; when the stream is
 * closed (after the last scenario) it writes the Markdown report beside the surefire XML and closes
 * the target (board process, pty pair, link).
 */
final class HilJUnit {
    private HilJUnit() {
    }

    static Path reportsDir() {
        String root = System.getProperty("spectrum.root");
        Path module = Path.of(System.getProperty("user.dir"));
        if (!module.resolve("pom.xml").toFile().exists() && root != null) {
            module = Path.of(root, "hw-tests");
        }
        return module.resolve("target").resolve("surefire-reports");
    }

    static Path workDir(String name) {
        return reportsDir().getParent().resolve("hil").resolve(name);
    }

    static Stream<DynamicTest> suite(BoardTarget target, HilSuite suite) throws Exception {
        HilContext ctx;
        try {
            ctx = new HilContext(target);
        } catch (Exception e) {
            String diag = target.diagnostics();
            target.close();
            throw new AssertionError("cannot open " + target.describe() + ": " + e.getMessage() + "\n" + diag, e);
        }
        List<ScenarioResult> results = new ArrayList<>();
        Stream<DynamicTest> tests = suite.scenarios().stream().map(s -> DynamicTest.dynamicTest(s.name(),
                () -> check(target, ctx, s, results)));
        return tests.onClose(() -> {
            try {
                ConformanceReport.write(reportsDir().resolve("hil-conformance-" + target.name() + ".md"),
                        target.name(), target.describe(), results);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            } finally {
                target.close();
            }
        });
    }

    private static void check(BoardTarget target, HilContext ctx, Scenario s, List<ScenarioResult> results) {
        ScenarioResult r = HilSuite.runOne(s, ctx);
        results.add(r);
        System.out.printf("[hil %s] %-4s %-40s %6d ms  %s%n", target.name(), r.outcome(), r.scenario(), r.millis(),
                r.detail());
        switch (r.outcome()) {
            case PASS -> { }
            case SKIP -> Assumptions.abort(r.detail());
            case FAIL -> Assertions.fail(s.name() + ": " + r.detail() + "\n" + target.diagnostics());
        }
    }
}
