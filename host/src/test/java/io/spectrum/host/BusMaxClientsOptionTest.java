package io.spectrum.host;

import io.spectrum.client.Requests;
import io.spectrum.client.Subscribed;
import io.spectrum.client.bus.BusClient;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.io.PrintWriter;
import java.io.StringWriter;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.BusError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --bus-max-clients} (host file {@code bus-max-clients}) reaches the bus, its socket and its
 * door to the node: more than the default 64 clients connect, and one past the option is refused.
 */
class BusMaxClientsOptionTest {
    /** Past the default 64, so the test fails if any of the bus, its socket or the option keeps 64. */
    private static final int CLIENTS = 66;
    private static final String VERTEX = "/many/x";

    @TempDir
    Path tmp;

    @Test
    void moreThanTheDefault64ClientsConnectAndOnePastTheOptionIsRefused() throws Exception {
        Path socket = tmp.resolve("bus.sock");
        HostBusSetup setup = HostConfig.builder().bus(socket.toString()).busMaxClients(CLIENTS).build().bus();
        assertEquals(CLIENTS, setup.limits().maxClients());
        assertEquals(CLIENTS, setup.nodeDoor(9, new LinkSettings()).peers().capacity(), "one door end per connection");
        HostBusSetup.Started s = setup.start(SystemClock.INSTANCE);
        List<BusClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < CLIENTS; i++) {
                try {
                    clients.add(BusClient.connect(socket.toString(), "c" + i, 5_000));
                } catch (BusException e) {
                    throw new AssertionError("client " + i + " of " + CLIENTS + ": " + e.getMessage(), e);
                }
            }
            assertEquals(CLIENTS, s.host().stats().connections(), "every client up to the option is connected");
            BusException refused = assertThrows(BusException.class,
                    () -> clients.add(BusClient.connect(socket.toString(), "one-more", 5_000)));
            // the socket holds as many connections as the bus: the one past them is closed at accept
            // (ROUTER_LOST at the client); had the socket room, the bus would refuse it QUOTA_EXCEEDED
            assertTrue(refused.code() == BusError.ROUTER_LOST || refused.code() == BusError.QUOTA_EXCEEDED,
                    refused.getMessage());
            assertEquals(CLIENTS, s.host().stats().connections(), "the refused one left nothing behind");
        } finally {
            for (BusClient c : clients) {
                c.close();
            }
            s.host().close();
        }
    }

    @Test
    void moreThanTheDefault64ClientsReachTheHostsNodeThroughTheBus() throws Exception {
        Path socket = tmp.resolve("door.sock");
        Host host = Host.start(HostConfig.builder().name("many").bus(socket.toString()).busMaxClients(CLIENTS)
                        .dashboard(HostConfig.NO_DASHBOARD).metrics("none").build(),
                new PrintWriter(new StringWriter(), true), new PrintWriter(new StringWriter(), true), false);
        List<BusClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < CLIENTS; i++) {
                BusClient c = BusClient.connect(socket.toString(), "n" + i, 5_000);
                clients.add(c);
                if (i == 0) { // the vertex, made by its first write
                    byte[] value = new byte[12];
                    new TlvWriter().wrap(value, 0, value.length).value(1, 8);
                    assertTrue(c.node().write(VERTEX, value).ok());
                }
                Subscribed sub = c.node().subscribe(VERTEX, "/in/x", Requests.subscriber("/in/x", -1, Names.TOPIC_STAMP,
                        DeliveryMode.BOUNDED, 8, 4));
                assertTrue(sub.ok(), "client " + i + ": " + WireError.identity(sub.code()));
            }
            int listeners = host.runtime().onNodeThread(() -> host.runtime().node().listenerCount(NodePath.of(VERTEX)));
            assertEquals(CLIENTS, listeners, "each connection holds its own subscription at the node");
        } finally {
            for (BusClient c : clients) {
                c.close();
            }
            host.close();
        }
    }

    @Test
    void theOptionIsBoundedAndNeedsTheBus() {
        String bus = tmp.resolve("b.sock").toString();
        assertEquals(100, HostConfig.builder().bus(bus).busMaxClients(100).build().bus().limits().maxClients());
        assertEquals(64, HostConfig.builder().bus(bus).build().bus().limits().maxClients(), "the bus's default");
        assertTrue(invalid(HostConfig.builder().udp("127.0.0.1:0").busMaxClients(100)).contains("need --bus PATH"));
        for (int bad : new int[] {-1, 1025}) {
            assertTrue(invalid(HostConfig.builder().bus(bus).busMaxClients(bad)).contains("--bus-max-clients must be 1 to 1024"),
                    "refused: " + bad);
        }
    }

    @Test
    void theHostFileKeyIsTheOption() throws Exception {
        HostConfig c = HostFile.parse("host.yaml", "bus: b.sock\nbus-max-clients: 100\n", tmp,
                HostConfig.builder().env(Map.of()));
        assertEquals(100, c.bus().limits().maxClients());
        assertThrows(HostFileError.class, () -> HostFile.parse("host.yaml", "bus: b.sock\nbus-max-clients: 0\n", tmp,
                HostConfig.builder().env(Map.of())));
    }

    private static String invalid(HostConfig.Builder b) {
        try {
            b.build();
        } catch (HostConfig.Invalid e) {
            return e.getMessage();
        }
        throw new AssertionError("accepted");
    }
}
