package io.spectrum.oneclient.archfixture;

import io.spectrum.client.PeerClient;

/** A command-side class that asks through the one client: the positive control of {@code OneClientTest}. */
public final class FrontDoor {
    private FrontDoor() {
    }

    /** Hands the client back: the control only needs a dependency on it. */
    public static Object ask(PeerClient client) {
        return client;
    }
}
