package io.spectrum.host.runtime;

import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.Requests;
import io.spectrum.client.Subscribed;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.stats.BoundedResource;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a client of a host is refused changes nothing on the host, and what the docs say a client of
 * a host may do (an AWAIT forwarded to a board, {@code /$node/stats}) it can do. A board (a NARROW
 * node) behind a host (a WIDE node) over loopback UDP, clients on the host's listener.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostRefusalsTest {
    private final List<AutoCloseable> closing = new ArrayList<>();
    private HostRuntime board;
    private HostRuntime host;
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
        boardAt = "127.0.0.1:" + boardLink.localAddress().getPort();
        assertEquals(WireError.OK, board.write("/temp", HostRuntimeTest.value(1, 4)));
        assertEquals(WireError.OK, board.write("/hum", HostRuntimeTest.value(40, 4)));

        host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().slotsPerPeer(2).build()));
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

    private PeerClient client() throws Exception {
        PeerClient c = new PeerClient(UdpLink.dial(1, UdpLink.parseHostPort(hostAt), new UdpLinkConfig(),
                SystemClock.INSTANCE), 0, Duration.ofMillis(3000)).announceExtensions(true);
        closing.add(c);
        return c;
    }

    /** Every table of the host node: name -> inUse. */
    private Map<String, Long> inUse() {
        return host.onNodeThread(() -> {
            // $node/stats is a value too (wide.values): refreshed now, not on its period, so both
            // readings see the same tables' stats and not a refresh that fell between them
            ((io.spectrum.wide.WideNode) host.node()).refreshStats();
            Map<String, Long> m = new LinkedHashMap<>();
            for (BoundedResource r : host.node().resources()) {
                m.put(r.resourceName(), r.inUse());
            }
            return m;
        });
    }

    /**
     * {@link #inUse()} once the host's own background work has settled: the same reading three
     * times running, with none of the host's own requests in flight (its walk's listings and
     * declaration reads to the board, its capability probe of the client {@code c}). The client is
     * pumped meanwhile, as a live client would be, so it answers that probe; a request a refusal
     * left behind stays in the table, so the reading that times out here shows it.
     */
    private Map<String, Long> settled(PeerClient c) throws InterruptedException {
        Map<String, Long> last = inUse();
        int same = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((same < 3 || last.getOrDefault("node.remoteRequests", 0L) != 0) && System.nanoTime() < end) {
            c.pumpUntil(() -> false, Duration.ofMillis(100));
            Map<String, Long> now = inUse();
            same = now.equals(last) ? same + 1 : 0;
            last = now;
        }
        return last;
    }

    @Test
    void refusedSubscriptionsThroughTheHostLeaveNoVertexBehind() throws Exception {
        PeerClient c = client();
        List<io.spectrum.client.Delivery> got = new java.util.concurrent.CopyOnWriteArrayList<>();
        c.onDelivery(d -> got.add(d.detach()));
        assertTrue(c.subscribe("/board1/temp", "/in/a", io.spectrum.wire.DeliveryPolicy.DURABILITY_REQUEST,
                false).ok());
        assertTrue(c.subscribe("/board1/hum", "/in/b", io.spectrum.wire.DeliveryPolicy.DURABILITY_REQUEST,
                false).ok()); // the share of 2 is full now
        assertTrue(c.pumpUntil(() -> got.size() >= 2, Duration.ofSeconds(10)), "the board's values reached the host");
        Map<String, Long> before = settled(c);
        StringBuilder longName = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            longName.append("/s").append(i).append("xxxxxxxx");
        }
        for (int i = 0; i < 20; i++) {
            String path = "/board1/new" + i + longName;
            Subscribed full = c.subscribe(path, "/in/c", 0, false);
            assertEquals(WireError.FLOW_BACKPRESSURE, full.code(), WireError.identity(full.code()));
            Reply malformed = c.write(path + "m", Requests.subscribers(), targetlessSubscriber());
            assertEquals(WireError.SCHEMA_TYPE_MISMATCH, malformed.code(), WireError.identity(malformed.code()));
        }
        assertEquals(before, settled(c), "every table of the host as before the refused appends");
    }

    @Test
    void anAwaitThroughTheHostIsForwardedToTheBoardAndAnswered() throws Exception {
        PeerClient c = client();
        PeerClient follower = client(); // the host then holds a slot on the board, with its holder token
        assertTrue(follower.subscribe("/board1/temp", "/in/f", 0, false).ok());
        PeerClient direct = new PeerClient(UdpLink.dial(1, UdpLink.parseHostPort(boardAt), new UdpLinkConfig(),
                SystemClock.INSTANCE), 0, Duration.ofMillis(3000));
        closing.add(direct);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (direct.subscribers("/temp").subscribers() == 0 && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        Thread t = new Thread(() -> {
            for (int i = 2; i < 200 && !Thread.currentThread().isInterrupted(); i++) {
                board.write("/temp", HostRuntimeTest.value(i, 4));
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        t.start();
        try {
            Reply r = c.await("/board1/temp", TimeUnit.SECONDS.toNanos(3));
            assertTrue(r.ok(), "AWAIT through the host: " + r);
        } finally {
            t.interrupt();
            t.join();
        }
    }

    @Test
    void noClientMayWriteTheHostsRoot() throws Exception {
        PeerClient c = client();
        assertTrue(c.read("/").ok(), "the root reads");
        Map<String, Long> before = settled(c);
        Reply small = c.write("/", HostRuntimeTest.value(7, 4));
        assertEquals(WireError.ACCESS_DENIED, small.code(), WireError.identity(small.code()));
        Reply big = c.write("/", valueOf(16_000));
        assertEquals(WireError.ACCESS_DENIED, big.code(), WireError.identity(big.code()));
        assertTrue(c.read("/").ok(), "the root still reads");
        assertEquals(before, settled(c));
    }

    @Test
    void theHostServesNodeStatsWithItsTables() throws Exception {
        PeerClient c = client();
        Reply r = null;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end && (r == null || !r.ok())) {
            r = c.read("/$node/stats");
        }
        assertTrue(r.ok(), "read /$node/stats on a host: " + r);
        String text = new String(r.value(), java.nio.charset.StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("wide.vertices") && text.contains("in_use"), text);
    }

    @Test
    void theHostsExposureWarningNamesTheMountsItForwardsWritesTo() throws Exception {
        board.onNodeThread(() -> board.node().declare(io.spectrum.node.api.NodePath.of("/led"),
                io.spectrum.node.api.VertexSchema.value(1, false).range(0, 1).writable().build()));
        PeerClient c = client();
        Reply w = c.write("/board1/led", HostRuntimeTest.value(1, 1));
        assertTrue(w.ok(), "a board's writable vertex is writable through the host: " + w);
        String writable = host.onNodeThread(() -> host.node().remotelyWritable());
        assertTrue(writable.contains("under /board1"), "the warning says so: " + writable);
    }

    /** A SUBSCRIBER record without its PATH target (malformed: {@code tr::schema::type_mismatch}). */
    static byte[] targetlessSubscriber() {
        byte[] b = new byte[32];
        io.spectrum.wire.TlvWriter w = new io.spectrum.wire.TlvWriter().wrap(b, 0, b.length);
        w.begin(io.spectrum.wire.TlvType.SUBSCRIBER).value(1, 4).end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    /** A VALUE TLV of n bytes. */
    static byte[] valueOf(int n) {
        byte[] b = new byte[n + 16];
        io.spectrum.wire.TlvWriter w = new io.spectrum.wire.TlvWriter().wrap(b, 0, b.length);
        w.leaf(io.spectrum.wire.TlvType.VALUE, new byte[n]);
        return java.util.Arrays.copyOf(b, w.length());
    }
}
