package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link LatestAndRetentionTest} with every connection over the in-process transport (frames through {@link BusServer}). */
class LatestAndRetentionInProcessTest extends LatestAndRetentionTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.IN_PROCESS;
    }
}
