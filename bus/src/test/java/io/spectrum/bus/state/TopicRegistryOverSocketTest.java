package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link TopicRegistryTest} with every connection over a Unix socket (the local link, frames through {@link BusServer}). */
class TopicRegistryOverSocketTest extends TopicRegistryTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.UNIX_SOCKET;
    }
}
