package io.spectrum.client.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spectrum.link.local.LocalLink;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.wide.Grants;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.wire.BusError;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bus link carries frames up to the bus's envelope limit plus the request headroom, and no more. */
class BusClientFrameLimitTest {
    @TempDir
    Path tmp;

    @Test
    void theLinkFrameLimitIsTheBussEnvelopeLimitPlusHeadroom_notTwoMebibytes() {
        assertEquals(BusLimits.defaults().maxEnvelopeBytes() + BusLimits.REQUEST_HEADROOM, BusClient.linkConfig().maxFrame());
        assertEquals(BusLimits.defaults().maxFrameBytes(), BusClient.LINK_MAX_FRAME);
        BusLimits small = BusLimits.builder().maxEnvelopeBytes(8_192).build();
        assertEquals(small.maxFrameBytes(), BusClient.linkConfig(small).maxFrame());
    }

    @Test
    void aRequestOverTheFrameLimitIsRefusedTypedAtOnce_andTheConnectionGoesOn() throws Exception {
        Path socket = tmp.resolve("bus.sock");
        LocalLink listener = LocalLink.listen(2, UnixDomainSocketAddress.of(socket), BusClient.linkConfig(),
                SystemClock.INSTANCE);
        BusHost host = BusHost.start(StoreConfig.builder(tmp.resolve("store")).build(), BusLimits.defaults(),
                name -> Grants.open(), List.of(listener));
        try (BusClient viaSocket = BusClient.connect(UnixDomainSocketAddress.of(socket), "big.socket", 60_000);
             BusClient inProcess = BusClient.connect(new InProcessTransport(host.connectInProcess("big.local")), 60_000)) {
            for (BusClient c : List.of(viaSocket, inProcess)) {
                c.declare("t." + c.clientId(), Retention.NONE);
                BusException e = assertThrows(BusException.class,
                        () -> c.publish("t." + c.clientId(), new byte[BusClient.LINK_MAX_FRAME]));
                assertEquals(BusError.INVALID_ENVELOPE, e.code(), e.getMessage());
                c.publish("t." + c.clientId(), new byte[1_000]);
            }
            assertEquals(2, host.stats().connections());
        } finally {
            host.close();
        }
    }
}
