package io.spectrum.client.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.link.local.LocalLink;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.Grants;
import io.spectrum.wire.BusError;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code client.close()} then {@code BusClient.connect(sameName)} against a running {@link BusHost}
 * (docs/bus.md, "Reconnecting under the same name"): the new connection is admitted every time, as
 * the next incarnation of the name, while a live connection's name is still refused CONFLICT.
 */
class BusReconnectTest {
    enum Via { IN_PROCESS, UNIX_SOCKET }

    private static final long TIMEOUT = 5_000;
    private static final int CYCLES = 50;

    @TempDir
    Path tmp;

    private BusHost host;
    private Path socket;

    private void start() throws Exception {
        socket = tmp.resolve("bus.sock");
        LocalLink listener = LocalLink.listen(2, UnixDomainSocketAddress.of(socket), BusClient.linkConfig(),
                SystemClock.INSTANCE);
        host = BusHost.start(StoreConfig.builder(tmp.resolve("store")).build(), BusLimits.defaults(),
                name -> Grants.open(), List.of(listener));
    }

    private BusClient connect(Via via, String name) throws BusException {
        return via == Via.IN_PROCESS
                ? BusClient.connect(new InProcessTransport(host.connectInProcess(name)), TIMEOUT)
                : BusClient.connect(UnixDomainSocketAddress.of(socket), name, TIMEOUT);
    }

    @AfterEach
    void stop() {
        if (host != null) {
            host.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void closeThenConnectUnderTheSameNameSucceedsEveryTime(Via via) throws Exception {
        start();
        List<String> failures = new ArrayList<>();
        for (int i = 1; i <= CYCLES; i++) {
            try {
                BusClient c = connect(via, "app");
                try {
                    assertEquals("app", c.clientId());
                    c.declare("t.cycle", Retention.NONE); // the connection works, not only its hello
                } finally {
                    c.close();
                }
            } catch (BusException e) {
                failures.add("cycle " + i + ": " + e.code() + " " + e.getMessage());
            }
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void aLiveConnectionsNameIsStillRefused() throws Exception {
        start();
        try (BusClient live = connect(Via.UNIX_SOCKET, "app")) {
            BusException e = assertThrows(BusException.class, () -> connect(Via.UNIX_SOCKET, "app"));
            assertEquals(BusError.CONFLICT, e.code());
            assertTrue(live.declare("t.still", Retention.NONE).bool("declared"), "the holder goes on");
            assertEquals(1, host.stats().connections());
        }
    }
}
