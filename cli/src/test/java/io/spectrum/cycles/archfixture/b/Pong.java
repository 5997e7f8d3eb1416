package io.spectrum.cycles.archfixture.b;

import io.spectrum.cycles.archfixture.a.Ping;

/** Uses a class of package a, which uses this one: the other half of {@code PackageCyclesTest}'s negative control. */
public final class Pong {
    /** Answers through the other package. */
    public int pong(Ping p) {
        return p == null ? 0 : 1;
    }
}
