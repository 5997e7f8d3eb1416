package io.spectrum.node.archfixture;

import io.spectrum.cli.DecodeCommand;

/** Negative-control fixture: a "core-narrow" package class that reaches into the cli module. */
public final class ReachesIntoCli {
    private ReachesIntoCli() {
    }

    public static int exit() {
        return new DecodeCommand().hashCode(); // a real reference (a constant would be inlined)
    }
}
