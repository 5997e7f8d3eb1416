package io.spectrum.host.runtime;

import io.spectrum.host.view.HostSnapshot;
import io.spectrum.host.view.SlotView;
import io.spectrum.host.view.VertexView;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.wide.WideNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostRuntimeTest {
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private HostRuntime runtime(String name) {
        HostRuntime r = new HostRuntime(name, new WideNode(HostRuntime.HOST_CONFIG));
        closing.add(r);
        return r;
    }

    static byte[] value(long v, int width) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, width);
        return java.util.Arrays.copyOf(b, w.length());
    }

    @Test
    void localWatchShowsValuesAndIsSuspendedThroughTheModel() throws Exception {
        HostRuntime host = runtime("host");
        List<HostRuntime.Delivery> seen = new CopyOnWriteArrayList<>();
        host.watch("/b1", "terminal", seen::add);
        host.start();
        assertEquals(WireError.OK, host.write("/b1/temp", value(21, 4)));
        VertexView temp = await(host, s -> vertex(s, "/b1/temp").filter(v -> v.value().equals("21")).isPresent(), "/b1/temp = 21")
                .vertices().stream().filter(v -> v.path().equals("/b1/temp")).findFirst().orElseThrow();
        assertTrue(temp.numeric());
        assertEquals(1, temp.seq());
        assertEquals(1, seen.size());

        SlotView sub = vertex(host.snapshot(), "/b1").orElseThrow().subscribers().get(0);
        assertEquals("terminal", sub.holder());
        assertFalse(sub.suspended());

        assertEquals(WireError.OK, host.suspend("/b1", sub.slot()));
        assertTrue(vertex(host.snapshot(), "/b1").orElseThrow().subscribers().get(0).suspended());
        host.write("/b1/temp", value(22, 4));
        await(host, s -> vertex(s, "/b1/temp").filter(v -> v.seq() == 2).isPresent(), "seq 2");
        assertEquals(1, seen.size(), "suspended: nothing delivered");

        assertEquals(WireError.OK, host.resume("/b1", sub.slot()));
        host.write("/b1/temp", value(23, 4));
        await(host, s -> vertex(s, "/b1/temp").filter(v -> v.seq() == 3).isPresent(), "seq 3");
        assertEquals(2, seen.size(), "resumed, and nothing replayed");
        assertEquals("23", seen.get(1).value().text());

        assertEquals(WireError.PATH_NOT_FOUND, host.suspend("/b1/temp", 9));
        assertEquals(WireError.PATH_INVALID, host.suspend("no-slash", 0));
    }

    @Test
    void boardValuesReachTheHostAndARemoteSubscriberIsSuspendedThroughTheSurface() throws Exception {
        UdpLinkConfig cfg = new UdpLinkConfig();
        // board: a node listening on UDP, publishing /temp
        HostRuntime board = runtime("board");
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), cfg, SystemClock.INSTANCE);
        board.attach(boardLink);
        board.start();
        assertEquals(WireError.OK, board.write("/temp", value(5, 4)), "the board's vertex exists before anyone subscribes");

        // host: dials the board and mirrors /temp onto /board1/temp; listens for clients
        HostRuntime host = runtime("host");
        UdpLink toBoard = UdpLink.dial(2, boardLink.localAddress(), cfg, SystemClock.INSTANCE);
        UdpLink forClients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), cfg, SystemClock.INSTANCE);
        host.attach(toBoard);
        host.attach(forClients);
        host.start();
        int handle = host.subscribeRemote(toBoard, 0, "/temp", "/board1/temp", 0);
        assertTrue(handle >= 0, "subscribeRemote: " + handle);

        // values published on the board show up on the host
        long[] n = {0};
        Supplier<Boolean> publish = () -> board.write("/temp", value(++n[0] * 10, 4)) == WireError.OK;
        awaitTrue(() -> publish.get() && vertex(host.snapshot(), "/board1/temp").filter(v -> !v.value().isEmpty()).isPresent(),
                "a board value reaches the host");

        // a client subscribes to the host's /board1/temp over UDP: the host lists it as a remote slot
        HostRuntime client = runtime("client");
        UdpLink toHost = UdpLink.dial(4, forClients.localAddress(), cfg, SystemClock.INSTANCE);
        client.attach(toHost);
        client.start();
        List<HostRuntime.Delivery> got = new CopyOnWriteArrayList<>();
        client.watch("/mirror", "test", got::add);
        assertTrue(client.subscribeRemote(toHost, 0, "/board1/temp", "/mirror/temp", 0) >= 0);
        HostSnapshot withRemote = await(host, s -> vertex(s, "/board1/temp")
                .filter(v -> v.subscribers().stream().anyMatch(x -> x.holder().equals("remote peer"))).isPresent(), "remote slot listed");
        SlotView remote = vertex(withRemote, "/board1/temp").orElseThrow().subscribers().stream()
                .filter(x -> x.holder().equals("remote peer")).findFirst().orElseThrow();
        assertFalse(remote.suspended());
        awaitTrue(() -> publish.get() && !got.isEmpty(), "the client receives while delivering");

        // suspend it through the host's :subscribers[N] surface: the client stops receiving
        assertEquals(WireError.OK, host.suspend("/board1/temp", remote.slot()));
        assertTrue(vertex(host.snapshot(), "/board1/temp").orElseThrow().subscribers().stream()
                .filter(x -> x.slot() == remote.slot()).findFirst().orElseThrow().suspended());
        Thread.sleep(300); // let deliveries already in flight land
        int before = got.size();
        long seqBefore = vertex(host.snapshot(), "/board1/temp").orElseThrow().seq();
        awaitTrue(() -> publish.get() && vertex(host.snapshot(), "/board1/temp").orElseThrow().seq() >= seqBefore + 3,
                "the host keeps receiving");
        assertEquals(before, got.size(), "a suspended remote subscriber receives nothing");

        assertEquals(WireError.OK, host.resume("/board1/temp", remote.slot()));
        awaitTrue(() -> publish.get() && got.size() > before, "resumed: deliveries again");
        List<SlotView> after = vertex(host.snapshot(), "/board1/temp").orElseThrow().subscribers();
        assertEquals(1, after.stream().filter(x -> x.holder().equals("remote peer")).count(), "a toggle, not a second edge");
        assertEquals(remote.target(), after.stream().filter(x -> x.slot() == remote.slot()).findFirst().orElseThrow().target(),
                "resume kept the slot's binding (no replace through the append door)");

        assertEquals(WireError.OK, host.clear("/board1/temp", remote.slot()));
        assertTrue(vertex(host.snapshot(), "/board1/temp").orElseThrow().subscribers().stream()
                .noneMatch(x -> x.slot() == remote.slot()), "cleared");
        assertTrue(host.snapshot().links().get(0).up(), "the board link is up");
        assertTrue(host.snapshot().links().get(0).counters().get("frames_in") > 0);
    }

    @Test
    void mirroredValuesShowWithTheBoardsDeclarationReadAgainWhenTheBoardRestarts() throws Exception {
        UdpLinkConfig quick = new UdpLinkConfig().peerTimeoutMillis(600).pingIntervalMillis(200);
        HostRuntime board = runtime("board");
        assertEquals(WireError.OK, board.node().declare(NodePath.of("/temp"),
                VertexSchema.value(2, true).unit("Cel").scale(0.01).readOnly().build()));
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), quick, SystemClock.INSTANCE);
        board.attach(boardLink);
        board.start();
        board.write("/temp", value(2328, 2));
        board.write("/plain", value(7, 2));

        HostRuntime host = runtime("host");
        UdpLink toBoard = UdpLink.dial(2, boardLink.localAddress(), quick, SystemClock.INSTANCE);
        host.attach(toBoard);
        host.start();
        assertTrue(host.subscribeRemote(toBoard, 0, "/temp", "/board1/temp", 0x0020) >= 0);
        assertTrue(host.subscribeRemote(toBoard, 0, "/plain", "/board1/plain", 0x0020) >= 0);
        HostSnapshot s = await(host, x -> vertex(x, "/board1/temp").filter(v -> v.value().equals("23.28 °C")).isPresent()
                && vertex(x, "/board1/plain").filter(v -> v.value().equals("7")).isPresent(), "23.28 °C and a raw 7");
        VertexView temp = vertex(s, "/board1/temp").orElseThrow();
        assertEquals("°C", temp.unit());
        assertEquals(23.28, temp.number(), 1e-9);
        assertEquals("", vertex(s, "/board1/plain").orElseThrow().unit(), "an undeclared board vertex renders raw");
        // the host answers its mirror's :settings.app with the board's declaration (on the node thread, by its owner door)
        String[] answers = host.onNodeThread(() -> {
            try (io.spectrum.client.PeerClient owner = new io.spectrum.client.PeerClient(
                    new io.spectrum.client.OwnerTransport(host.node()), java.time.Duration.ofSeconds(2), "/t/r/")) {
                io.spectrum.client.Reply r = owner.read("/board1/temp", io.spectrum.client.Requests.settingsApp());
                io.spectrum.client.Reply plain = owner.read("/board1/plain", io.spectrum.client.Requests.settingsApp());
                return new String[] {
                    r.ok() ? VertexSchema.fromSettings(r.value(), 0, r.value().length).toString() : WireError.identity(r.code()),
                    WireError.identity(plain.code())};
            }
        });
        assertEquals("VALUE i16 Cel x0.01 r-s", answers[0], "the mirror reports the board's declaration");
        assertEquals(WireError.identity(WireError.SCHEMA_NOT_FOUND), answers[1], "an undeclared board vertex reports nothing");

        // the board restarts on the same address, declaring the vertex anew (Kelvin this time)
        java.net.InetSocketAddress at = boardLink.localAddress();
        board.close();
        await(host, x -> !x.links().get(0).up(), "the link shows down");
        assertEquals("23.28 °C", vertex(host.snapshot(), "/board1/temp").orElseThrow().value(), "the stale value keeps its unit");
        HostRuntime again = runtime("board again");
        assertEquals(WireError.OK, again.node().declare(NodePath.of("/temp"),
                VertexSchema.value(2, true).unit("K").scale(0.01).offset(273.15).readOnly().build()));
        again.attach(UdpLink.listen(1, at, quick, SystemClock.INSTANCE));
        again.start();
        again.write("/temp", value(2328, 2));
        await(host, x -> vertex(x, "/board1/temp").filter(v -> v.value().equals("296.43 K")).isPresent(),
                "the restarted board's declaration is read again");
        assertEquals("K", host.declaration("/board1/temp").unit());
    }

    @Test
    void aWriteFromAViewIsParsedByTheBoardsDeclarationAndLandsOnTheBoard() throws Exception {
        HostRuntime board = runtime("board");
        assertEquals(WireError.OK, board.node().declare(NodePath.of("/led"),
                VertexSchema.value(1, false).range(0, 1).writable().build()));
        assertEquals(WireError.OK, board.node().declare(NodePath.of("/temp"),
                VertexSchema.value(2, true).unit("Cel").scale(0.01).readOnly().build()));
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        board.attach(boardLink);
        board.start();
        board.write("/led", value(0, 1));
        board.write("/temp", value(2250, 2));
        board.write("/relay/state", value(0, 1));

        HostRuntime host = runtime("host");
        UdpLink toBoard = UdpLink.dial(2, boardLink.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE);
        host.attachBoard(toBoard, "board1");
        host.start();
        // nothing configured: the walk finds the board's vertices, a view showing two of them subscribes to those
        awaitTrue(() -> host.boardVertices().keySet().containsAll(List.of("/board1/led", "/board1/temp")),
                "the walk finds the board's vertices");
        assertEquals(Boolean.FALSE, host.boardVertices().get("/board1/relay"), "/board1/relay has children");
        host.show("test view", List.of("/board1/led", "/board1/temp"));
        HostSnapshot s = await(host, x -> vertex(x, "/board1/led").filter(v -> v.control() != null).isPresent()
                && vertex(x, "/board1/temp").filter(v -> v.unit().equals("°C")).isPresent(), "the declarations read");
        assertEquals("toggle", vertex(s, "/board1/led").orElseThrow().control().kind());
        assertEquals(null, vertex(s, "/board1/temp").orElseThrow().control(), "read-only: no control");
        assertEquals("board1", s.links().get(0).board());
        assertEquals(Map.of("/board1/led", 0, "/board1/temp", 0), host.upstreamEdges(), "one edge per shown vertex");

        assertEquals(WireError.OK, host.write("/board1/led", "1").code());
        byte[] b = new byte[16];
        int n = board.onNodeThread(() -> board.node().read(NodePath.of("/led"), b, 0, b.length));
        assertEquals(1, b[n - 1], "the board's own value changed");
        await(host, x -> vertex(x, "/board1/led").filter(v -> v.value().equals("1")).isPresent(), "the host follows");

        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, host.write("/board1/led", "2").code());
        assertEquals("2 is out of range; the vertex holds a number from 0 to 1", host.write("/board1/led", "2").message());
        assertEquals(WireError.ACCESS_DENIED, host.write("/board1/temp", "20").code());
        assertEquals(WireError.ACCESS_DENIED, host.write("/nowhere", "1").code(), "no declaration: not writable");

        // the host keeps the history, in the declared unit
        board.write("/temp", value(2300, 2));
        await(host, x -> host.history().since("/board1/temp", 0).stream().anyMatch(p -> p.value() == 23.0), "23 °C recorded");
        assertTrue(host.history().since("/board1/temp", 0).stream().allMatch(p -> p.value() < 100),
                "no raw sample from before the declaration was read: " + host.history().since("/board1/temp", 0));

        // the view goes: nothing is subscribed on the board any more
        host.hide("test view");
        awaitTrue(() -> host.upstreamEdges().isEmpty(), "the edges dropped with the last view");
        awaitTrue(() -> board.node() != null && board.onNodeThread(() -> board.node().listenerCount(NodePath.of("/led"))) == 0,
                "the board's slot cleared");
    }

    @Test
    void aBoardThatGoesAwayMarksItsMirroredValuesStale() throws Exception {
        UdpLinkConfig quick = new UdpLinkConfig().peerTimeoutMillis(600).pingIntervalMillis(200);
        HostRuntime board = runtime("board");
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), quick, SystemClock.INSTANCE);
        board.attach(boardLink);
        board.start();
        board.write("/temp", value(7, 4));

        HostRuntime host = runtime("host");
        UdpLink toBoard = UdpLink.dial(2, boardLink.localAddress(), quick, SystemClock.INSTANCE);
        host.attach(toBoard);
        host.start();
        assertTrue(host.subscribeRemote(toBoard, 0, "/temp", "/board1/temp", 0x0020) >= 0);
        await(host, s -> vertex(s, "/board1/temp").filter(v -> v.value().equals("7") && !v.stale()).isPresent(), "a fresh value");
        assertTrue(host.snapshot().links().get(0).up());

        board.close(); // the board goes away: its link falls silent
        HostSnapshot s = await(host, x -> vertex(x, "/board1/temp").filter(VertexView::stale).isPresent(), "stale marker");
        assertEquals("7", vertex(s, "/board1/temp").orElseThrow().value(), "the last value stays, marked stale");
        await(host, x -> !x.links().get(0).up(), "the link shows down");
    }

    /** A board (NARROW) on {@code link} that declares /sensor/temp (u32, Cel) and holds 7 there. */
    private static HostRuntime boardWithTemp(String name, UdpLink link) throws Exception {
        HostRuntime board = new HostRuntime(name, new NarrowNode(NodeConfig.defaults()));
        board.attach(link);
        assertEquals(WireError.OK, board.onNodeThread(() -> board.node().declare(NodePath.of("/sensor/temp"),
                VertexSchema.value(4, false).unit("Cel").readOnly().build())));
        board.start();
        assertEquals(WireError.OK, board.write("/sensor/temp", value(7, 4))); // written once: no later delivery is stale
        return board;
    }

    @Test
    void aMountedBoardThatGoesAway_isToldToTheHostsStampedClientsAtOnce_itsDeclaredValueKeptStalePastTheGrace_freshWhenItReturns()
            throws Exception {
        UdpLinkConfig quick = new UdpLinkConfig().peerTimeoutMillis(600).pingIntervalMillis(200);
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), quick, SystemClock.INSTANCE);
        HostRuntime board = boardWithTemp("board", boardLink);
        closing.add(board);
        InetSocketAddress boardAt = boardLink.localAddress();

        long grace = TimeUnit.SECONDS.toNanos(60);
        AheadClock hostClock = new AheadClock(); // the system's time, jumped ahead past the grace
        HostRuntime host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(hostClock)
                .staleGraceNanos(grace).build()));
        closing.add(host);
        host.mount(UdpLink.dial(2, boardAt, quick, SystemClock.INSTANCE), "board1", List.of());
        UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        host.attachListener(clients);
        host.start();
        NodePath copy = NodePath.of("/board1/sensor/temp");

        List<io.spectrum.client.Delivery> got = new ArrayList<>();
        try (io.spectrum.client.PeerClient c = client("127.0.0.1:" + clients.localAddress().getPort(), 9)) {
            c.onDelivery(d -> got.add(d.detach()));
            assertTrue(c.subscribe("/board1/sensor/temp", "/c/stamped", DeliveryPolicy.DURABILITY_REQUEST, true).ok());
            assertTrue(c.subscribe("/board1/sensor/temp", "/c/plain", DeliveryPolicy.DURABILITY_REQUEST, false).ok());
            pumpUntil(c, () -> got.stream().anyMatch(d -> d.route().equals("/c/stamped") && d.stamped() && !d.stale()), got,
                    "the board's value, fed through the host");
            io.spectrum.client.Delivery fresh = got.stream().filter(d -> d.route().equals("/c/stamped")).reduce((a, b) -> b).orElseThrow();
            await(host, s -> vertex(s, copy.toString()).filter(v -> "°C".equals(v.unit())).isPresent(),
                    "the board's declaration, read by the host");
            int plainBefore = (int) got.stream().filter(d -> d.route().equals("/c/plain")).count();

            board.close(); // the board goes away: the host's link to it falls silent
            pumpUntil(c, () -> got.stream().anyMatch(d -> d.route().equals("/c/stamped") && d.stale()), got, "the stale delivery");
            io.spectrum.client.Delivery stale = got.stream().filter(d -> d.route().equals("/c/stamped") && d.stale()).findFirst().orElseThrow();
            assertEquals(fresh.seq(), stale.seq(), "a stale mark is not a publish: the same seq");
            org.junit.jupiter.api.Assertions.assertArrayEquals(fresh.value(), stale.value(), "the retained value, flagged stale");
            assertFalse(stale.deleted());
            assertEquals(io.spectrum.wire.StaleReason.BOARD_AWAY, stale.reason(), "why it is stale");

            host.onNodeThread(() -> { // away for longer than the grace
                hostClock.advanceNanos(2 * grace + 1);
                host.node().tick();
                return null;
            });
            byte[] kept = host.onNodeThread(() -> {
                byte[] b = new byte[16];
                int n = host.node().read(copy, b, 0, b.length);
                return n < 0 ? null : java.util.Arrays.copyOf(b, n);
            });
            org.junit.jupiter.api.Assertions.assertArrayEquals(value(7, 4), kept, "the board's declared value is kept");
            assertTrue(host.onNodeThread(() -> host.node().isStale(copy)), "kept stale while the board is away");
            assertEquals(io.spectrum.wire.StaleReason.BOARD_AWAY, host.onNodeThread(() -> host.node().staleReason(copy)));
            c.pumpFor(java.time.Duration.ofMillis(300));
            assertFalse(got.stream().anyMatch(io.spectrum.client.Delivery::deleted), "no purge, so no delete notice: " + got);
            assertEquals(1, got.stream().filter(d -> d.route().equals("/c/stamped") && d.stale()).count(),
                    "one stale notice: the host's reason, not the node's own as well");
            assertEquals(plainBefore, got.stream().filter(d -> d.route().equals("/c/plain")).count(),
                    "the plain v1 subscription is sent nothing by the stale mark");

            HostRuntime back = boardWithTemp("board again", // the board comes back at its address
                    UdpLink.listen(1, boardAt, quick, SystemClock.INSTANCE));
            closing.add(back);
            pumpUntil(c, () -> got.stream().anyMatch(d -> d.route().equals("/c/stamped") && !d.stale() && d.seq() > stale.seq()),
                    got, "the value again, fresh, after the board returned");
            assertFalse(host.onNodeThread(() -> host.node().isStale(copy)), "fresh again");
            assertEquals(null, got.stream().filter(d -> d.route().equals("/c/stamped")).reduce((a, b) -> b).orElseThrow().reason());
        }
    }

    /** A host runtime and the UDP link its clients dial. */
    private record Host(HostRuntime runtime, UdpLink clients) {
        String address() {
            return "127.0.0.1:" + clients.localAddress().getPort();
        }
    }

    /** A host that mounts the board at {@code board} as /board1 and serves clients on an ephemeral UDP port. */
    private Host hostOf(String name, InetSocketAddress board, UdpLinkConfig cfg) throws Exception {
        HostRuntime host = new HostRuntime(name, new WideNode(HostRuntime.HOST_CONFIG));
        closing.add(host);
        host.mount(UdpLink.dial(2, board, cfg, SystemClock.INSTANCE), "board1", List.of());
        UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        host.attachListener(clients);
        host.start();
        return new Host(host, clients);
    }

    @Test
    void theHostThatForwardedAWriteRestarts_theBoardStillHoldsTheWrittenValue() throws Exception {
        UdpLinkConfig quick = new UdpLinkConfig().peerTimeoutMillis(600).pingIntervalMillis(200);
        AheadClock boardClock = new AheadClock(); // the system's time, jumped ahead past the grace
        HostRuntime board = new HostRuntime("board", new NarrowNode(NodeConfig.builder().clock(boardClock).build()));
        closing.add(board);
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), quick, SystemClock.INSTANCE);
        board.attach(boardLink);
        NodePath led = NodePath.of("/led");
        assertEquals(WireError.OK, board.onNodeThread(() -> board.node().declare(led,
                VertexSchema.value(1, false).range(0, 1).writable().build())));
        board.start();
        assertEquals(WireError.OK, board.write("/led", value(0, 1)));

        Host first = hostOf("host", boardLink.localAddress(), quick);
        try (io.spectrum.client.PeerClient c = client(first.address(), 9)) {
            io.spectrum.client.Reply w = c.write("/board1/led", value(1, 1)); // spectrum write --peer HOST
            assertTrue(w.ok(), "the write, forwarded by the host: " + WireError.identity(w.code()));
        }
        awaitTrue(() -> board.snapshot().links().get(0).up(), "the board hears the host");
        first.runtime().close(); // the host goes (a restart): the board's link to it falls silent
        awaitTrue(() -> !board.snapshot().links().get(0).up(), "the board's liveness finds the host's peer gone");
        board.onNodeThread(() -> { // the new host takes longer than the stale grace to come
            boardClock.advanceNanos(TimeUnit.MILLISECONDS.toNanos(2 * 60_000 + 1));
            board.node().tick();
            return null;
        });

        Host again = hostOf("host again", boardLink.localAddress(), quick);
        try (io.spectrum.client.PeerClient c = client(again.address(), 10)) {
            io.spectrum.client.Reply r = c.read("/board1/led");
            assertTrue(r.ok(), "the board still holds the value: " + WireError.identity(r.code()));
            org.junit.jupiter.api.Assertions.assertArrayEquals(value(1, 1), r.value());
        }
        assertFalse(board.onNodeThread(() -> board.node().isStale(led)), "a board's state is not stale because its writer left");
    }

    private static void pumpUntil(io.spectrum.client.PeerClient c, Supplier<Boolean> p, List<io.spectrum.client.Delivery> got,
                                  String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            c.pumpFor(java.time.Duration.ofMillis(50));
            if (p.get()) {
                return;
            }
        }
        throw new AssertionError("never: " + what + "; got " + got.stream().map(d -> d.route() + " seq=" + d.seq()
                + (d.stale() ? " stale" : "") + (d.deleted() ? " deleted" : "")).toList());
    }

    @Test
    void togglesThroughTheSurfaceKeepTheRecordForBothRenderingRules() throws Exception {
        HostRuntime host = runtime("host");
        UdpLink forClients = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        host.attach(forClients);
        host.start();
        host.write("/x", value(1, 4));
        String addr = "127.0.0.1:" + forClients.localAddress().getPort();
        try (io.spectrum.client.PeerClient withWord = client(addr, 7);
             io.spectrum.client.PeerClient noWord = client(addr, 8)) {
            assertTrue(withWord.subscribe("/x", "/a", DeliveryPolicy.DURABILITY_REQUEST, false).ok()); // rule 1
            assertTrue(noWord.subscribe("/x", "/b", -1, false).ok());                                                 // rules 2/3
            HostSnapshot s = await(host, x -> vertex(x, "/x").filter(v -> v.subscribers().size() == 2).isPresent(), "two slots");
            List<SlotView> subs = vertex(s, "/x").orElseThrow().subscribers();
            List<byte[]> before = new ArrayList<>();
            for (SlotView v : subs) {
                before.add(slotRecord(withWord, v.slot()));
            }
            for (SlotView v : subs) {
                assertEquals(WireError.OK, host.suspend("/x", v.slot()));
                assertEquals(WireError.OK, host.suspend("/x", v.slot()), "the same toggle again changes nothing");
                byte[] r = slotRecord(withWord, v.slot());
                assertTrue(hex(r).contains("64656c69766572795f706f6c696379"), "the rendering carries the word: " + hex(r));
            }
            assertTrue(vertex(host.snapshot(), "/x").orElseThrow().subscribers().stream().allMatch(SlotView::suspended));
            for (int i = 0; i < subs.size(); i++) {
                assertEquals(WireError.OK, host.resume("/x", subs.get(i).slot()));
                assertEquals(hex(before.get(i)), hex(slotRecord(withWord, subs.get(i).slot())),
                        "resumed: the slot renders exactly as before (a toggle, not a replace)");
            }
        }
    }

    /**
     * A started host renders its snapshots off the node thread: the node thread only copies each
     * vertex's bytes, the renderer thread renders them (by the declaration, as before) and tells the
     * listeners there; a snapshot read right after the node thread captured shows that capture.
     */
    @Test
    void snapshotsAreRenderedAndToldOffTheNodeThread() throws Exception {
        HostRuntime host = runtime("host");
        List<Thread> told = new CopyOnWriteArrayList<>();
        host.onChange(() -> told.add(Thread.currentThread()));
        host.start();
        Thread nodeThread = host.onNodeThread(Thread::currentThread);
        for (int i = 0; i < 200; i++) {
            assertEquals(WireError.OK, host.write("/many/" + i, value(i, 4)));
        }
        HostSnapshot s = await(host, x -> vertex(x, "/many/199").filter(v -> v.value().equals("199")).isPresent(), "all 200");
        assertEquals(200, s.vertices().stream().filter(v -> v.path().startsWith("/many/")).count());
        assertEquals("7", vertex(s, "/many/7").orElseThrow().value());
        assertFalse(told.isEmpty(), "listeners are told");
        assertTrue(told.stream().noneMatch(t -> t == nodeThread), "never on the node thread: " + told);
        // the snapshot thread, or a reader that found a capture not rendered yet and rendered it itself
        Thread reader = Thread.currentThread();
        assertTrue(told.stream().allMatch(t -> t.getName().equals("host host snapshot") || t == reader), told.toString());
    }

    /**
     * On the caller's loop (a ManualClock) a snapshot is captured and rendered each refresh period:
     * its version rises only when something changed, the listeners are told once per change, and
     * the in-memory history gets one sample per new seq, stamped with the capture's time.
     */
    @Test
    void theSnapshotsVersionRisesOnlyWhenSomethingChanged() {
        io.spectrum.time.ManualClock clock = new io.spectrum.time.ManualClock(1_000_000_000L);
        HostRuntime host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(clock).build()));
        closing.add(host);
        int[] told = {0};
        host.onChange(() -> told[0]++);
        java.util.function.IntSupplier cycle = host.startOnCallerThread();
        assertEquals(WireError.OK, host.write("/x", value(5, 4)));
        Runnable period = () -> {
            clock.advanceMillis(100);
            for (int i = 0; i < 10 && cycle.getAsInt() > 0; i++) {
                // this instant's work
            }
        };
        for (int i = 0; i < 20; i++) {
            period.run(); // the host's own walks and reads settle
        }
        HostSnapshot first = host.snapshot();
        assertEquals("5", vertex(first, "/x").orElseThrow().value());
        int toldThen = told[0];
        period.run();
        period.run();
        assertEquals(first.version(), host.snapshot().version(), "nothing changed: the same version");
        assertEquals(toldThen, told[0], "and nobody told");
        assertEquals(WireError.OK, host.write("/x", value(6, 4)));
        period.run();
        long at = clock.epochNanos() / 1_000_000L;
        HostSnapshot second = host.snapshot();
        assertEquals(first.version() + 1, second.version());
        assertEquals("6", vertex(second, "/x").orElseThrow().value());
        assertEquals(toldThen + 1, told[0], "told once for the change");
        List<io.spectrum.host.view.VertexHistory.Sample> samples = host.history().since("/x", 0);
        assertEquals(List.of(5.0, 6.0), samples.stream().map(io.spectrum.host.view.VertexHistory.Sample::value).toList());
        assertEquals(at, samples.get(1).ts(), "stamped when captured, on the host's clock");
    }

    private static io.spectrum.client.PeerClient client(String addr, int id) throws Exception {
        return new io.spectrum.client.PeerClient(UdpLink.dial(id, UdpLink.parseHostPort(addr), new UdpLinkConfig(),
                SystemClock.INSTANCE), 0, java.time.Duration.ofSeconds(2));
    }

    /** READ /x:subscribers[N] as a remote reader sees it (the live rendering). */
    private static byte[] slotRecord(io.spectrum.client.PeerClient c, int slot) {
        io.spectrum.client.Reply r = c.slot("/x", slot, -1);
        assertTrue(r.ok(), "read [" + slot + "]: " + WireError.identity(r.code()));
        return r.value();
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x));
        }
        return s.toString();
    }

    static Optional<VertexView> vertex(HostSnapshot s, String path) {
        return s.vertices().stream().filter(v -> v.path().equals(path)).findFirst();
    }

    static HostSnapshot await(HostRuntime r, Predicate<HostSnapshot> p, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            HostSnapshot s = r.snapshot();
            if (p.test(s)) {
                return s;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("never saw " + what + "; last snapshot " + r.snapshot());
    }

    static void awaitTrue(Supplier<Boolean> p, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (p.get()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("never: " + what);
    }

    /**
     * The system's clock plus an offset a test moves forward: the runtime's loop, its timers and the
     * links keep running in real time (a frozen clock would stop them), and a grace is passed at once.
     */
    static final class AheadClock implements io.spectrum.time.Clock {
        private volatile long ahead;

        void advanceNanos(long nanos) {
            ahead += nanos;
        }

        @Override
        public long nanoTime() {
            return System.nanoTime() + ahead;
        }

        @Override
        public long epochNanos() {
            return SystemClock.INSTANCE.epochNanos() + ahead;
        }
    }
}
