package io.spectrum.host.runtime;

import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Requests;
import io.spectrum.client.Subscribed;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.wide.WideNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 10 item 5, gates end to end: behind a host, clients are not one caller. Subscriptions
 * terminate at the host (docs/host.md), so the host's own RFC-0035 gate (the holder is the client's
 * link and peer) and per-peer shares stand between clients: client A cannot clear, suspend or
 * replace client B's subscription to a board vertex ({@code tr::access::denied}, nothing changes),
 * and the per-peer slot share counts A and B apart, while the board holds one edge per vertex for
 * the host whatever its clients do.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HostGatesTest {
    private static final int SHARE = 2;
    private static final Duration WAIT = Duration.ofSeconds(15);
    private final List<AutoCloseable> closing = new ArrayList<>();
    private HostRuntime board;
    private String hostAt;
    private String boardAt;

    @BeforeEach
    void boardAndHost() throws Exception {
        UdpLinkConfig cfg = new UdpLinkConfig();
        board = new HostRuntime("board", new NarrowNode(NodeConfig.defaults()));
        closing.add(board);
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), cfg, SystemClock.INSTANCE);
        board.attach(boardLink);
        board.start();
        for (String v : List.of("a", "b", "c", "d")) {
            assertEquals(WireError.OK, board.write("/sensor/" + v, HostRuntimeTest.value(1, 4)));
        }
        boardAt = "127.0.0.1:" + boardLink.localAddress().getPort();

        HostRuntime host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().slotsPerPeer(SHARE).build()));
        closing.add(host);
        host.mount(UdpLink.dial(2, boardLink.localAddress(), cfg, SystemClock.INSTANCE), "board1", List.of());
        UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), cfg, SystemClock.INSTANCE);
        host.attachListener(clients);
        host.start();
        hostAt = "127.0.0.1:" + clients.localAddress().getPort();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private PeerClient client(String at) throws Exception {
        PeerClient c = new PeerClient(UdpLink.dial(1, UdpLink.parseHostPort(at), new UdpLinkConfig(), SystemClock.INSTANCE),
                0, Duration.ofMillis(1500)).announceExtensions(true); // slot identities in the answers, holder tokens
        closing.add(c);
        return c;
    }

    @Test
    void clientACannotClearSuspendOrReplaceClientBsSubscription() throws Exception {
        PeerClient a = client(hostAt);
        PeerClient b = client(hostAt);
        List<Delivery> toB = new CopyOnWriteArrayList<>();
        b.onDelivery(d -> toB.add(d.detach()));
        String path = "/board1/sensor/a";
        Subscribed sb = b.subscribe(path, "/in/b", DeliveryPolicy.DURABILITY_REQUEST, false);
        assertTrue(sb.ok(), WireError.identity(sb.code()));
        publishUntil(b, () -> !toB.isEmpty(), "B receives the board's value through the host");

        assertEquals(WireError.ACCESS_DENIED, a.clear(path, sb.index(), sb.generation()).code(), "A clears B's slot");
        assertEquals(WireError.ACCESS_DENIED, a.suspend(path, sb.index(), sb.generation()).code(), "A suspends B's slot");
        Subscribed replaced = a.replace(path, sb.index(), sb.generation(), Requests.subscriber("/in/a", 0, false));
        assertEquals(WireError.ACCESS_DENIED, replaced.code(), "A replaces B's slot");

        int before = toB.size();
        publishUntil(b, () -> toB.size() > before, "B's slot is untouched: delivering, to B");
        assertEquals(1, a.subscribers(path).subscribers(), "one slot, B's, delivering");
        assertEquals(0, a.subscribers(path).suspended());
        assertTrue(b.suspend(path, sb.index(), sb.generation()).ok(), "B itself may suspend its slot");
        assertTrue(b.clear(path, sb.index(), sb.generation()).ok(), "and clear it");
    }

    @Test
    void perPeerSharesCountEachClientOfTheHostApart_andTheBoardSeesOneEdgePerVertex() throws Exception {
        PeerClient a = client(hostAt);
        PeerClient b = client(hostAt);
        for (String v : List.of("a", "b")) {
            assertTrue(a.subscribe("/board1/sensor/" + v, "/in/a/" + v, 0, false).ok(), "A within its share: " + v);
        }
        Subscribed over = a.subscribe("/board1/sensor/c", "/in/a/c", 0, false);
        assertEquals(WireError.FLOW_BACKPRESSURE, over.code(), "A over its share of " + SHARE + ": "
                + WireError.identity(over.code()));
        for (String v : List.of("a", "c")) {
            Subscribed s = b.subscribe("/board1/sensor/" + v, "/in/b/" + v, 0, false);
            assertTrue(s.ok(), "B has a share of its own (" + v + "): " + WireError.identity(s.code()));
        }

        PeerClient direct = client(boardAt); // what the board itself holds: one edge per vertex, the host's
        long end = System.nanoTime() + WAIT.toNanos();
        while (!(edges(direct, "a") == 1 && edges(direct, "b") == 1 && edges(direct, "c") == 1) && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        assertEquals(List.of(1, 1, 1, 0), List.of(edges(direct, "a"), edges(direct, "b"), edges(direct, "c"),
                edges(direct, "d")));
    }

    private static int edges(PeerClient direct, String v) {
        return direct.subscribers("/sensor/" + v).subscribers();
    }

    /** Publishes on the board until {@code done} holds on {@code c}'s deliveries. */
    private void publishUntil(PeerClient c, BooleanSupplier done, String what) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        long n = 2;
        while (System.nanoTime() < end) {
            board.write("/sensor/a", HostRuntimeTest.value(n++, 4));
            c.pumpFor(Duration.ofMillis(50));
            if (done.getAsBoolean()) {
                return;
            }
        }
        throw new AssertionError(what);
    }
}
