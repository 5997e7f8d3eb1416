package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link MalformedInputTest} with every connection over the in-process transport (frames through {@link BusServer}). */
class MalformedInputInProcessTest extends MalformedInputTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.IN_PROCESS;
    }
}
