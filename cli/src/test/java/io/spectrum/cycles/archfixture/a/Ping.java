package io.spectrum.cycles.archfixture.a;

import io.spectrum.cycles.archfixture.b.Pong;

/** Uses a class of package b, which uses this one back: the negative control of {@code PackageCyclesTest}. */
public final class Ping {
    /** Answers through the other package. */
    public int ping(Pong p) {
        return p == null ? 0 : 1;
    }
}
