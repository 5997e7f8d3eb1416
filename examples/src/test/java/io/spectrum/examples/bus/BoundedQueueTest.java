package io.spectrum.examples.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.client.bus.BusClient;
import io.spectrum.link.local.LocalLink;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.wide.Grants;
import io.spectrum.bus.store.StoreConfig;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link BoundedQueue} against a real {@link BusHost} on a temporary Unix socket, two connections. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedQueueTest {
    @TempDir
    Path tmp;

    @Test
    void threeMessagesFitTheFourthIsRefusedWholeAndOneConsumeMakesRoom() throws Exception {
        Path socket = tmp.resolve("bus.sock");
        LocalLink listener = LocalLink.listen(2, UnixDomainSocketAddress.of(socket), BusClient.linkConfig(),
                SystemClock.INSTANCE);
        BusHost host = BusHost.start(StoreConfig.builder(tmp.resolve("store")).build(), BusLimits.defaults(),
                name -> Grants.open(), List.of(listener));
        try (BusClient writer = Args.connect(socket, "writer"); BusClient reader = Args.connect(socket, "reader")) {
            BoundedQueue.Outcome o = BoundedQueue.run(writer, reader);
            assertEquals(3, o.admitted(), "queued 2 / in flight 1 holds three");
            assertEquals("BACKPRESSURE", o.refusal());
            assertEquals(List.of("1: reading 1", "2: reading 2", "3: reading 3", "4: reading 4"), o.received(),
                    "in order, none lost, and the refused publish spent no sequence number");
        } finally {
            host.close();
        }
    }
}
