package io.spectrum.hil;

/** The outcome of one scenario on one target. */
public record ScenarioResult(String scenario, Outcome outcome, long millis, String detail) {
    /** PASS: the run returned; FAIL: it threw {@link HilFailure} or anything else; SKIP: it threw {@link HilSkip}. */
    public enum Outcome { PASS, FAIL, SKIP }

    /** True only for PASS (a skip is not a pass). */
    public boolean passed() {
        return outcome == Outcome.PASS;
    }
}
