package io.spectrum.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.board.Board;
import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.Requests;
import io.spectrum.client.Subscribed;
import io.spectrum.client.bus.BusClient;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host's node through the bus (docs/bus.md, "The host's node through the bus"), end to end in
 * one JVM over loopback: the demo board on UDP mounted as {@code board1} by a host started with
 * {@code --bus} on a temporary socket and a UDP client listener. A bus client's node client follows
 * a board vertex in the bounded mode, writes the board's LED (and is refused the read-only name),
 * writes a host vertex a UDP client then reads, and its subscription at the host goes when the bus
 * connection does.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BusNodeDoorHostTest {
    private static final Pattern UDP_CLIENTS = Pattern.compile("clients: .*?:(\\d+)");
    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    Path tmp;
    private final List<AutoCloseable> closing = new ArrayList<>();
    private Board board;
    private Host host;
    private int udpPort;
    private String socket;

    @BeforeEach
    void boardAndHost() throws Exception {
        board = new Board("b1", 50); // its sources publish every 50 ms: /counter counts
        closing.add(board);
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        board.attach(boardLink);
        board.start();
        socket = tmp.resolve("bus.sock").toString();
        StringWriter out = new StringWriter();
        host = Host.start(HostConfig.builder().name("lab")
                .mount(HostConfig.Mount.udp("board1", "127.0.0.1:" + boardLink.localAddress().getPort(), List.of()))
                .udp("127.0.0.1:0").bus(socket).dashboard(HostConfig.NO_DASHBOARD).metrics("none").build(),
                new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), false);
        closing.add(host);
        Matcher m = UDP_CLIENTS.matcher(out.toString());
        assertTrue(m.find(), out.toString());
        udpPort = Integer.parseInt(m.group(1));
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private BusClient bus(String name) throws Exception {
        BusClient c = BusClient.connect(socket, name, 5_000);
        closing.add(c);
        return c;
    }

    private int listeners(String path) throws Exception {
        return host.runtime().onNodeThread(() -> host.runtime().node().listenerCount(NodePath.of(path)));
    }

    @Test
    void theBusRunsOnTheHostsNodeThread_withNoThreadOfItsOwn() throws Exception {
        bus("ctl").node().read("/board1/counter"); // the bus and its door at work
        String busThread = host.bus().onBusThread(b -> Thread.currentThread().getName());
        String nodeThread = host.service().runtime().onNodeThread(() -> Thread.currentThread().getName());
        assertEquals(nodeThread, busThread);
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals("spectrum-bus")),
                "no thread of the bus's own");
    }

    @Test
    void aBusClientFollowsABoardVertexInTheBoundedMode_everyValueInOrder_creditsComingBack() throws Exception {
        BusClient bus = bus("ctl");
        PeerClient node = bus.node();
        assertEquals(node, bus.node(), "one node client per connection");
        List<Delivery> got = new ArrayList<>();
        node.onDelivery(d -> got.add(d.detach()));
        String vertex = "/board1/counter";
        String route = "/in/counter";
        int before = listeners(vertex);
        // at most 2 in flight: without the consumed messages no third value would come
        Subscribed s = node.subscribe(vertex, route, Requests.subscriber(route, -1, Names.TOPIC_STAMP,
                DeliveryMode.BOUNDED, 8, 2));
        assertTrue(s.ok(), "append: " + WireError.identity(s.code()));
        assertEquals(before + 1, listeners(vertex), "the bus client's subscription is the host node's own slot");

        long consumedUpTo = 0;
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (got.size() < 8 && System.nanoTime() < deadline) {
            node.pumpFor(Duration.ofMillis(20));
            if (!got.isEmpty() && got.get(got.size() - 1).dlv() > consumedUpTo) {
                consumedUpTo = got.get(got.size() - 1).dlv();
                assertTrue(node.consumed(vertex, s.index(), s.generation(), consumedUpTo).ok(), "consumed " + consumedUpTo);
            }
        }
        assertTrue(got.size() >= 8, "values through the bus while consuming: " + got.size());
        for (int i = 0; i < got.size(); i++) {
            Delivery d = got.get(i);
            assertEquals(i + 1, d.dlv(), "numbered deliveries, none skipped: " + got);
            assertTrue(d.stamped() && !d.stale(), d.toString());
            if (i > 0) {
                assertEquals(got.get(i - 1).seq() + 1, d.seq(), "every value the host took, in order: " + got);
                assertTrue(u32(d.value()) > u32(got.get(i - 1).value()), "the board's counter counts up: " + got);
            }
        }
    }

    @Test
    void aBusClientWritesTheBoardsLed_andIsRefusedTheReadOnlyNameTypedChangingNothing() throws Exception {
        PeerClient node = bus("ctl").node();
        assertTrue(waitForValue(node, "/board1/led"), "the board is mounted");
        Reply on = node.write("/board1/led", value(1, 1));
        assertTrue(on.ok(), "the LED is the board's writable vertex: " + WireError.identity(on.code()));
        assertEquals(Integer.valueOf(1), onBoard(BusNodeDoorHostTest::ledOf), "the board's own LED");

        Reply name = node.write("/board1/name", name("hacked"));
        assertFalse(name.ok());
        assertNotEquals(WireError.FLOW_TIMEOUT, name.code(), "refused by the fabric, typed, not lost: "
                + WireError.identity(name.code()));
        assertEquals("b1", onBoard(BusNodeDoorHostTest::nameOf), "the board's name is as it was");
        Reply read = node.read("/board1/name");
        assertTrue(read.ok());
        assertArrayEquals(name("b1"), read.value(), "and so is the host's copy");
    }

    @Test
    void aBusClientWritesANewHostVertex_andAUdpClientReadsIt() throws Exception {
        // the node client announces the extensions, so its write creates the path (docs/node.md,
        // "Vertices a write created")
        PeerClient node = bus("ctl").node();
        byte[] v = value(42, 2);
        Reply w = node.write("/lab/setpoint", v);
        assertTrue(w.ok(), WireError.identity(w.code()));
        PeerClient udp = new PeerClient(UdpLink.dial(7, new InetSocketAddress("127.0.0.1", udpPort), new UdpLinkConfig(),
                SystemClock.INSTANCE), 0, Duration.ofMillis(2_000));
        closing.add(udp);
        Reply r = udp.read("/lab/setpoint");
        assertTrue(r.ok(), WireError.identity(r.code()));
        assertArrayEquals(v, r.value(), "one node: what the bus client wrote is what a UDP client reads");
    }

    @Test
    void severalBusClients_eachReachTheNodeAtOnce_andOneAfterAnotherAsTheyComeAndGo() throws Exception {
        List<BusClient> clients = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            clients.add(bus("app" + i));
        }
        for (BusClient c : clients) { // all connected at once: each has its own end of the door
            Reply r = c.node().write("/lab/app/" + c.clientId(), value(7, 2));
            assertTrue(r.ok(), c.clientId() + ": " + WireError.identity(r.code()));
        }
        for (int i = 0; i < 12; i++) { // more than the door's ends' first handles: the ends that went are reused
            BusClient c = bus("next" + i);
            assertTrue(c.node().read("/lab/app/app0").ok(), "client " + i);
            c.close();
        }
    }

    @Test
    void whenTheBusClientDisconnects_itsSubscriptionAtTheHostIsGone() throws Exception {
        BusClient bus = bus("ctl");
        PeerClient node = bus.node();
        String vertex = "/board1/temp";
        int before = listeners(vertex);
        Subscribed s = node.subscribe(vertex, "/in/temp", Requests.subscriber("/in/temp", -1, Names.TOPIC_STAMP,
                DeliveryMode.LATEST, 0, 0));
        assertTrue(s.ok(), WireError.identity(s.code()));
        assertEquals(before + 1, listeners(vertex));
        bus.close();
        long deadline = System.nanoTime() + WAIT.toNanos();
        int now = listeners(vertex);
        while (now != before && System.nanoTime() < deadline) {
            Thread.sleep(20);
            now = listeners(vertex);
        }
        assertEquals(before, now, "the node reaped the gone bus client's slot");
    }

    /** Reads {@code path} until it has a value (the board's first values reach the host after its mount). */
    private static boolean waitForValue(PeerClient c, String path) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (c.read(path).ok()) {
                return true;
            }
            c.pumpFor(Duration.ofMillis(50));
        }
        return false;
    }

    private <T> T onBoard(Function<io.spectrum.node.ServingNode, T> f) throws Exception {
        CompletableFuture<T> r = new CompletableFuture<>();
        board.loop().submit(() -> r.complete(f.apply(board.loop().node())));
        return r.get(5, TimeUnit.SECONDS);
    }

    private static int ledOf(io.spectrum.node.api.Node n) {
        byte[] b = new byte[16];
        int len = n.read(NodePath.of("/led"), b, 0, b.length);
        return len == 5 ? b[4] : -1;
    }

    private static String nameOf(io.spectrum.node.api.Node n) {
        byte[] b = new byte[128];
        int len = n.read(NodePath.of("/name"), b, 0, b.length);
        return len < 4 ? null : Utf8.toString(b, 4, len - 4);
    }

    private static long u32(byte[] tlv) {
        long v = 0;
        for (int i = tlv.length - 1; i >= tlv.length - 4; i--) {
            v = v << 8 | (tlv[i] & 0xFF);
        }
        return v;
    }

    private static byte[] value(long v, int width) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, width);
        return Arrays.copyOf(b, w.length());
    }

    private static byte[] name(String s) {
        byte[] b = new byte[128];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.leaf(TlvType.NAME, Utf8.bytes(s));
        return Arrays.copyOf(b, w.length());
    }
}
