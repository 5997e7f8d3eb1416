package io.spectrum.hil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.hil.scenario.StandardScenarios;
import io.spectrum.link.Link;
import io.spectrum.testing.MemoryLink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HilSuiteTest {
    static Scenario scenario(String name, Runnable body) {
        return new Scenario() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String checks() {
                return "test";
            }

            @Override
            public void run(HilContext ctx) {
                body.run();
            }
        };
    }

    static BoardTarget fakeTarget(boolean canReset) {
        MemoryLink link = new MemoryLink(1); // answers nothing
        return new BoardTarget() {
            @Override
            public String name() {
                return "fake";
            }

            @Override
            public String describe() {
                return "in-memory fake";
            }

            @Override
            public Link link() {
                return link;
            }

            @Override
            public Duration timeout() {
                return Duration.ofMillis(50);
            }

            @Override
            public boolean canReset() {
                return canReset;
            }

            @Override
            public void reset() {
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void eachOutcomeIsJudgedAndExitCodeIsZeroOnlyWithoutFailures() throws Exception {
        HilSuite suite = new HilSuite(List.of(
                scenario("ok", () -> { }),
                scenario("fails", () -> Check.that(false, "board said no")),
                scenario("skips", () -> {
                    throw new HilSkip("no reset line");
                }),
                scenario("crashes", () -> {
                    throw new IllegalStateException("boom");
                })));
        List<ScenarioResult> seen = new ArrayList<>();
        List<ScenarioResult> results = suite.runAll(new HilContext(fakeTarget(false)), seen::add);
        assertEquals(results, seen);
        assertEquals(ScenarioResult.Outcome.PASS, results.get(0).outcome());
        assertEquals(ScenarioResult.Outcome.FAIL, results.get(1).outcome());
        assertEquals("board said no", results.get(1).detail());
        assertEquals(ScenarioResult.Outcome.SKIP, results.get(2).outcome());
        assertEquals(ScenarioResult.Outcome.FAIL, results.get(3).outcome());
        assertTrue(results.get(3).detail().contains("boom"));
        assertEquals(1, HilSuite.exitCode(results));
        assertEquals(0, HilSuite.exitCode(List.of(results.get(0), results.get(2))));
        assertEquals(1, HilSuite.exitCode(List.of()), "an empty run proves nothing");
    }

    @Test
    void aScenarioWithoutAnswerFailsWithTheTimeoutInsteadOfHanging() throws Exception {
        HilContext ctx = new HilContext(fakeTarget(false));
        ScenarioResult r = HilSuite.runOne(new HilSuite(StandardScenarios.all()).scenarios().get(1), ctx);
        assertEquals(ScenarioResult.Outcome.FAIL, r.outcome());
        assertTrue(r.detail().contains("no reply"), r.detail());
    }

    @Test
    void resetScenarioSkipsWithoutResetLine() throws Exception {
        HilContext ctx = new HilContext(fakeTarget(false));
        Scenario reset = new HilSuite(StandardScenarios.all()).scenarios().stream()
                .filter(s -> s.name().equals("board-reset-serves-again")).findFirst().orElseThrow();
        assertEquals(ScenarioResult.Outcome.SKIP, HilSuite.runOne(reset, ctx).outcome());
    }

    @Test
    void standardScenarioNamesAreUniqueAndDescribed() {
        List<String> names = new ArrayList<>();
        for (Scenario s : new HilSuite(StandardScenarios.all()).scenarios()) {
            assertTrue(s.name().matches("[a-z0-9-]+"), s.name());
            assertTrue(s.checks().length() > 20, s.name());
            assertTrue(!names.contains(s.name()), "duplicate " + s.name());
            names.add(s.name());
        }
    }
}
