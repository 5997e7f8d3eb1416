package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link GrantsAndLimitsTest} with every connection over the in-process transport (frames through {@link BusServer}). */
class GrantsAndLimitsInProcessTest extends GrantsAndLimitsTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.IN_PROCESS;
    }
}
