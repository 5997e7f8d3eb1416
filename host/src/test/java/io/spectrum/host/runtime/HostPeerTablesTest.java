package io.spectrum.host.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.client.PeerClient;
import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A host's per-peer tables (slot shares, announced extensions) are sized from its doors: every client
 * a door admits may announce and hold a subscription, not only the first 64.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostPeerTablesTest {
    private static final int CLIENTS = 100;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void aHundredAnnouncingClientsOfOneDoor_eachHoldAStampedSubscription_andEachGetsTheNextValue() throws Exception {
        UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0),
                new UdpLinkConfig().peerCapacity(4 * CLIENTS), SystemClock.INSTANCE);
        HostService host = new HostService("host", List.of(), List.of(clients), -1, false,
                new PrintWriter(OutputStream.nullOutputStream()));
        closing.add(host);
        host.start();
        assertEquals(WireError.OK, host.runtime().write("/lab/x", HostRuntimeTest.value(1, 4)));

        List<PeerClient> peers = new ArrayList<>();
        AtomicInteger delivered = new AtomicInteger();
        for (int i = 0; i < CLIENTS; i++) {
            PeerClient c = new PeerClient(UdpLink.dial(10 + i, clients.localAddress(), new UdpLinkConfig(),
                    SystemClock.INSTANCE), 0, Duration.ofSeconds(3)).announceExtensions(true);
            closing.add(c);
            c.onDelivery(d -> delivered.incrementAndGet());
            var s = c.subscribe("/lab/x", "/in/x", 0, true);
            assertTrue(s.ok(), "client " + i + ": " + WireError.identity(s.code()));
            peers.add(c);
        }
        assertEquals(WireError.OK, host.runtime().write("/lab/x", HostRuntimeTest.value(2, 4)));
        for (PeerClient c : peers) {
            c.pumpUntil(() -> false, Duration.ofMillis(1)); // drain what arrived
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (delivered.get() < CLIENTS && System.nanoTime() < deadline) {
            for (PeerClient c : peers) {
                c.pumpUntil(() -> false, Duration.ofMillis(1));
            }
        }
        assertTrue(delivered.get() >= CLIENTS, "every client got the new value: " + delivered.get());
    }

    @Test
    void theTablesCountEveryDoorsPeers_boundedBelowByTheNodesDefault() {
        Link small = new io.spectrum.link.local.InProcessLink(1, 1, 4096, 1 << 16);
        assertEquals(HostService.MIN_PEERS, HostService.remotePeers(List.of(), List.of(small)));
        List<Link> doors = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            doors.add(new io.spectrum.link.local.InProcessLink(i, 40, 4096, 1 << 16));
        }
        assertEquals(120, HostService.remotePeers(List.of(), doors));
    }
}
