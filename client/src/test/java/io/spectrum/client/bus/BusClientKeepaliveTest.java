package io.spectrum.client.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.link.local.LocalLink;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.wide.Grants;
import io.spectrum.bus.store.StoreConfig;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that has nothing to say stays connected: the bus closes connections silent for its idle
 * timeout, and {@link BusClient} pings at a third of the timeout the hello reply names. The host and
 * the client run on the system clock here, so the test waits several timeouts (it asserts the
 * outcome, not when the pings went).
 */
class BusClientKeepaliveTest {
    private static final long IDLE_MS = 400;

    @TempDir
    Path tmp;

    @Test
    void aQuietClientOutlivesSeveralIdleTimeouts_overTheSocketAndInProcess() throws Exception {
        Path socket = tmp.resolve("bus.sock");
        LocalLink listener = LocalLink.listen(2, UnixDomainSocketAddress.of(socket), BusClient.linkConfig(),
                SystemClock.INSTANCE);
        BusHost host = BusHost.start(StoreConfig.builder(tmp.resolve("store")).build(),
                BusLimits.builder().idleTimeoutMillis(IDLE_MS).build(), name -> Grants.open(), List.of(listener));
        try (BusClient viaSocket = BusClient.connect(UnixDomainSocketAddress.of(socket), "quiet.socket", 5_000);
             BusClient inProcess = BusClient.connect(new InProcessTransport(host.connectInProcess("quiet.local")), 5_000)) {
            Thread.sleep(5 * IDLE_MS); // nothing asked meanwhile: only the clients' own pings
            assertEquals(2, host.stats().connections(), "both quiet clients are still connected");
            assertEquals(2, viaSocket.stats().u64("connections"));
            assertEquals(2, inProcess.stats().u64("connections"));
            assertTrue(viaSocket.notices().isEmpty() && inProcess.notices().isEmpty(), "no connection.closing");
        } finally {
            host.close();
        }
    }
}
