package io.spectrum.bus.state;

import io.spectrum.bus.server.BusServer;

/** {@link LatestAndRetentionTest} with every connection over a Unix socket (the local link, frames through {@link BusServer}). */
class LatestAndRetentionOverSocketTest extends LatestAndRetentionTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.UNIX_SOCKET;
    }
}
