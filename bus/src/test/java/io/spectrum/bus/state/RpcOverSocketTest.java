package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link RpcTest} with every connection over a Unix socket (the local link, frames through {@link BusServer}). */
class RpcOverSocketTest extends RpcTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.UNIX_SOCKET;
    }
}
