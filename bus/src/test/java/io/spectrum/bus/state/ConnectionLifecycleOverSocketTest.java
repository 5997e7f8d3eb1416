package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link ConnectionLifecycleTest} with every connection over a Unix socket (the local link, frames through {@link BusServer}). */
class ConnectionLifecycleOverSocketTest extends ConnectionLifecycleTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.UNIX_SOCKET;
    }
}
