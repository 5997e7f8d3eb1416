package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link RpcTest} with every connection over the in-process transport (frames through {@link BusServer}). */
class RpcInProcessTest extends RpcTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.IN_PROCESS;
    }
}
