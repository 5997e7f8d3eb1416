package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link ConnectionLifecycleTest} with every connection over the in-process transport (frames through {@link BusServer}). */
class ConnectionLifecycleInProcessTest extends ConnectionLifecycleTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.IN_PROCESS;
    }
}
