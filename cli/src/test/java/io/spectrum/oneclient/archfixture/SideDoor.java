package io.spectrum.oneclient.archfixture;

import io.spectrum.node.fwd.RemoteClient;

/** A command-side class that asks a board through the node's engine directly: the negative control of {@code OneClientTest}. */
public final class SideDoor {
    private SideDoor() {
    }

    /** The engine's request state, read past the client. */
    public static int ask(RemoteClient engine, int request) {
        return engine.requestState(request);
    }
}
