package io.spectrum.host.runtime;

import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Subscribed;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.Names;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.TlvWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a new subscriber of a host sees first (docs/host.md, "Freshness"): the host's copy of a board
 * vertex is current only while an upstream edge feeds it; a copy kept after the edge was dropped is
 * replayed stale with the reason {@code not followed}, then the board's current value follows fresh.
 * A durable subtree subscription that asked for the path gets every retained child, whoever else
 * already listens (docs/extensions.md, "Subtree replay").
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostFreshnessTest {
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private static byte[] value(long v) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 4);
        return java.util.Arrays.copyOf(b, w.length());
    }

    private static long number(Delivery d) {
        byte[] v = d.value();
        long n = 0;
        for (int i = v.length - 1; i >= 4; i--) {
            n = n << 8 | (v[i] & 0xFF);
        }
        return n;
    }

    /** A NARROW board on loopback UDP. */
    private HostRuntime board(UdpLink[] link) throws Exception {
        HostRuntime board = new HostRuntime("board", new NarrowNode(NodeConfig.defaults()));
        closing.add(board);
        link[0] = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        board.attach(link[0]);
        board.start();
        return board;
    }

    /** A host mounting {@code upstream} as {@code /mount}, with a client listener; returns the listener's port. */
    private HostRuntime host(String name, UdpLink upstream, String mount, UdpLink[] clients) throws Exception {
        HostRuntime host = new HostRuntime(name, new WideNode(HostRuntime.HOST_CONFIG));
        closing.add(host);
        host.mount(UdpLink.dial(10 + closing.size(), upstream.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE),
                mount, List.of());
        clients[0] = UdpLink.listen(20 + closing.size(), new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(),
                SystemClock.INSTANCE);
        host.attachListener(clients[0]);
        host.start();
        return host;
    }

    private PeerClient client(UdpLink listener, int id) throws Exception {
        PeerClient c = new PeerClient(UdpLink.dial(id, listener.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE),
                0, Duration.ofSeconds(2));
        closing.add(c);
        return c;
    }

    private static void pumpUntil(PeerClient c, BooleanSupplier p, List<Delivery> got, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            c.pumpFor(Duration.ofMillis(50));
            if (p.getAsBoolean()) {
                return;
            }
        }
        throw new AssertionError("never: " + what + "; got " + show(got));
    }

    private static void awaitTrue(BooleanSupplier p, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (p.getAsBoolean()) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("never: " + what);
    }

    private static List<String> show(List<Delivery> got) {
        List<String> r = new ArrayList<>();
        for (Delivery d : got) {
            r.add(d.route() + " " + (d.source() == null ? "" : d.source() + " ") + "seq=" + d.seq()
                    + (d.value() != null && d.value().length > 4 ? " v=" + number(d) : "")
                    + (d.stale() ? " stale: " + d.reason() : ""));
        }
        return r;
    }

    /**
     * Follows {@code path} through the host with a client that then leaves; the board writes on while
     * nobody follows; a new subscriber's first value must be the board's current one, or the old copy
     * marked stale with the reason, never the old copy as current.
     */
    private void aNewSubscribersFirstValue_isCurrentOrStaleWithAReason(HostRuntime board, HostRuntime edgeHost,
            UdpLink clients, String path, List<HostRuntime> hosts) throws Exception {
        board.write("/counter", value(172));
        List<Delivery> first = new CopyOnWriteArrayList<>();
        PeerClient a = client(clients, 40).announceExtensions(true); // the append's answer names the slot
        a.onDelivery(d -> first.add(d.detach()));
        Subscribed s = a.subscribe(path, "/c/a", DeliveryPolicy.DURABILITY_REQUEST, true);
        assertTrue(s.ok(), "subscribed: " + s.reply());
        pumpUntil(a, () -> first.stream().anyMatch(d -> !d.stale() && number(d) == 172), first, "172 through the host");
        io.spectrum.client.Reply cleared = a.clear(path, s.index(), s.generation());
        assertTrue(cleared.ok(), "the first client leaves (slot " + s.index() + "): " + io.spectrum.wire.WireError.identity(cleared.code()));
        for (HostRuntime h : hosts) {
            awaitTrue(() -> h.upstreamEdges().isEmpty(), h.name() + " drops its upstream edge: nobody follows");
        }

        board.write("/counter", value(278)); // nobody follows: the host's copy stays 172
        List<Delivery> got = new CopyOnWriteArrayList<>();
        PeerClient b = client(clients, 41);
        b.onDelivery(d -> got.add(d.detach()));
        assertTrue(b.subscribe(path, "/c/b", DeliveryPolicy.DURABILITY_REQUEST, true).ok());
        pumpUntil(b, () -> got.stream().anyMatch(d -> !d.stale() && number(d) == 278), got, "the board's current 278");
        for (Delivery d : got) {
            if (number(d) == 172) {
                assertTrue(d.stale(), "the old copy is never shown as current: " + show(got));
                assertEquals(StaleReason.NOT_FOLLOWED, d.reason(), "and says why: " + show(got));
            }
        }
        Delivery last = got.get(got.size() - 1);
        assertEquals(278, number(last), "the board's current value comes right after: " + show(got));
        assertFalse(last.stale(), show(got).toString());
    }

    @Test
    void oneHost_aCopyTheHostNoLongerFollows_isReplayedStaleNotFollowed_thenTheBoardsCurrentValue() throws Exception {
        UdpLink[] boardLink = new UdpLink[1];
        HostRuntime board = board(boardLink);
        UdpLink[] clients = new UdpLink[1];
        HostRuntime host = host("host", boardLink[0], "board1", clients);
        aNewSubscribersFirstValue_isCurrentOrStaleWithAReason(board, host, clients[0], "/board1/counter", List.of(host));
    }

    /**
     * The same at every hop: the middle host's {@code not followed} copy reaches the top host stamped
     * stale, and the top host stores it stale with that reason in the same step as the value, before
     * it fans out (never published fresh, then marked).
     */
    @Test
    void twoHosts_aCopyNoHopFollows_isNeverReplayedAsCurrent() throws Exception {
        UdpLink[] boardLink = new UdpLink[1];
        HostRuntime board = board(boardLink);
        UdpLink[] plantClients = new UdpLink[1];
        HostRuntime plant = host("plant1", boardLink[0], "board1", plantClients);
        UdpLink[] topClients = new UdpLink[1];
        HostRuntime top = host("top", plantClients[0], "plant1", topClients);
        aNewSubscribersFirstValue_isCurrentOrStaleWithAReason(board, top, topClients[0], "/plant1/board1/counter",
                List.of(top, plant));
    }

    /**
     * {@code sub '/shed/#'} through a host: every retained child, each naming itself, whether the
     * subscriber is alone or another client already holds the subtree (the host's upstream edges
     * exist, so nothing new comes from the board: the host replays its own copies); a vertex the
     * board declares without a value is not invented.
     */
    @Test
    void aSubtreeSubscriptionThroughAHost_replaysEveryRetainedChild_whoeverElseListens() throws Exception {
        UdpLink[] boardLink = new UdpLink[1];
        HostRuntime board = board(boardLink);
        board.write("/shed/led", value(1));
        board.write("/shed/name", value(2));
        board.write("/shed/relay", value(3));
        board.onNodeThread(() -> board.node().declare(NodePath.of("/shed/fan"),
                io.spectrum.node.api.VertexSchema.value(4, false).build())); // declared, no value yet
        UdpLink[] clients = new UdpLink[1];
        HostRuntime host = host("host", boardLink[0], "board1", clients);
        awaitTrue(() -> host.boardVertices().containsKey("/board1/shed/relay"), "the host walked the board");
        Map<String, Long> expected = new TreeMap<>(Map.of("/board1/shed/led", 1L, "/board1/shed/name", 2L,
                "/board1/shed/relay", 3L));
        for (int i = 0; i < 3; i++) { // alone, then while the earlier ones still hold the subtree
            List<Delivery> got = new CopyOnWriteArrayList<>();
            PeerClient c = client(clients[0], 50 + i);
            c.onDelivery(d -> got.add(d.detach()));
            assertTrue(c.subscribe("/board1/shed", "/c/shed", DeliveryPolicy.DURABILITY_REQUEST,
                    Names.TOPIC_STAMP | Names.TOPIC_WITH_PATH).ok());
            Map<String, Long> seen = new TreeMap<>();
            pumpUntil(c, () -> {
                seen.clear();
                for (Delivery d : got) {
                    seen.put(d.source(), number(d));
                }
                return seen.equals(expected);
            }, got, "client " + i + ": every retained child of /board1/shed");
            assertFalse(seen.containsKey("/board1/shed/fan"), "a vertex without a value is not invented");
        }
    }
}
