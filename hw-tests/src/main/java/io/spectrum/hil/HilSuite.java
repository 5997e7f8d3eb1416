package io.spectrum.hil;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs scenarios in order against one target and turns each into a {@link ScenarioResult}. The CLI
 * uses {@link #runAll}; the JUnit runner in hw-tests calls {@link #runOne} from one dynamic test per
 * scenario, so both paths judge a scenario the same way.
 */
public final class HilSuite {
    private final List<Scenario> scenarios;

    /** A suite of {@code scenarios}, run in the given order. */
    public HilSuite(List<Scenario> scenarios) {
        this.scenarios = List.copyOf(scenarios);
    }

    /** The scenarios in run order. */
    public List<Scenario> scenarios() {
        return scenarios;
    }

    /**
     * Runs every scenario in order against {@code ctx}, handing each result to {@code onResult} as it comes; never
     * throws.
     */
    public List<ScenarioResult> runAll(HilContext ctx, Consumer<ScenarioResult> onResult) {
        List<ScenarioResult> results = new ArrayList<>();
        for (Scenario s : scenarios) {
            ScenarioResult r = runOne(s, ctx);
            results.add(r);
            onResult.accept(r);
        }
        return results;
    }

    /** Runs one scenario; never throws. */
    public static ScenarioResult runOne(Scenario s, HilContext ctx) {
        long t0 = System.nanoTime();
        ScenarioResult.Outcome outcome;
        String detail;
        try {
            String dead = ctx.target().deadReason();
            if (dead != null) {
                throw new HilFailure("board is down before the scenario: " + dead);
            }
            s.run(ctx);
            outcome = ScenarioResult.Outcome.PASS;
            detail = ctx.takeNote();
        } catch (HilSkip e) {
            outcome = ScenarioResult.Outcome.SKIP;
            detail = e.getMessage();
        } catch (HilFailure e) {
            outcome = ScenarioResult.Outcome.FAIL;
            detail = e.getMessage();
        } catch (Exception | AssertionError e) {
            outcome = ScenarioResult.Outcome.FAIL;
            detail = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        if (outcome != ScenarioResult.Outcome.PASS) {
            ctx.takeNote();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000L;
        return new ScenarioResult(s.name(), outcome, ms, detail == null ? "" : detail);
    }

    /** Exit code of a run: 0 iff nothing failed (skips are listed in the report but do not fail). */
    public static int exitCode(List<ScenarioResult> results) {
        for (ScenarioResult r : results) {
            if (r.outcome() == ScenarioResult.Outcome.FAIL) {
                return 1;
            }
        }
        return results.isEmpty() ? 1 : 0;
    }
}
