package io.spectrum.vectors;

import java.util.List;

/** The outcome of one vector: ok, or the list of mismatches found. */
public record VectorResult(Vector vector, List<String> failures) {
    /** True when the vector passed: no failures were found. */
    public boolean ok() {
        return failures.isEmpty();
    }
}
