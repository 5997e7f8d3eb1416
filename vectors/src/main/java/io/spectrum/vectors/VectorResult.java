package io.spectrum.vectors;

import java.util.List;

/** The outcome of one vector: ok, or the list of mismatches found. */
public record VectorResult(Vector vector, List<String> failures) {
    public boolean ok() {
        return failures.isEmpty();
    }
}
