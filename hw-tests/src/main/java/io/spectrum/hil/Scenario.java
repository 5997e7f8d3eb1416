package io.spectrum.hil;

/**
 * One conformance scenario: a name, one sentence saying what it checks, and a run that either
 * returns (pass), throws {@link HilFailure} with a message (fail), or throws {@link HilSkip} (the
 * target cannot do what the scenario needs). Any other exception is a failure too.
 */
public interface Scenario {
    /** Stable kebab-case name, used as the JUnit test name and the report row. */
    String name();

    /** What the scenario checks, in one sentence (docs/hil.md lists them). */
    String checks();

    /** Runs the check against the board: return to pass, throw {@link HilFailure} to fail, {@link HilSkip} to skip. */
    void run(HilContext ctx) throws Exception;
}
