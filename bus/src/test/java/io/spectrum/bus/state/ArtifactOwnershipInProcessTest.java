package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link ArtifactOwnershipTest} with every connection over the in-process transport (frames through {@link BusServer}). */
class ArtifactOwnershipInProcessTest extends ArtifactOwnershipTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.IN_PROCESS;
    }
}
