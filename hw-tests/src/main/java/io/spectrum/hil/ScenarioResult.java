package io.spectrum.hil;

/** The outcome of one scenario on one target. */
public record ScenarioResult(String scenario, Outcome outcome, long millis, String detail) {
    public enum Outcome { PASS, FAIL, SKIP }

    public boolean passed() {
        return outcome == Outcome.PASS;
    }
}
