package io.spectrum.node.archfixture;

import io.spectrum.cli.DecodeCommand;

/** Negative-control fixture: a "core-narrow" package class that reaches into host-app. */
public final class ReachesIntoHostApp {
    private ReachesIntoHostApp() {
    }

    public static int exit() {
        return new DecodeCommand().hashCode(); // a real reference (a constant would be inlined)
    }
}
