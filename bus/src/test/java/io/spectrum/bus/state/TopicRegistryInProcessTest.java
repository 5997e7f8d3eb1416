package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link TopicRegistryTest} with every connection over the in-process transport (frames through {@link BusServer}). */
class TopicRegistryInProcessTest extends TopicRegistryTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.IN_PROCESS;
    }
}
