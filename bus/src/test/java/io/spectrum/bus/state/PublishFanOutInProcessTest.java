package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link PublishFanOutTest} with every connection over the in-process transport (frames through {@link BusServer}). */
class PublishFanOutInProcessTest extends PublishFanOutTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.IN_PROCESS;
    }
}
