package io.spectrum.host.runtime;

import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.stats.BoundedResource;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client cannot fill the host's vertex table through subscriptions under a mount (docs/host.md,
 * "Subscriptions terminate at the host"): a host with a board over loopback UDP, a hostile client
 * appending {@code :subscribers[]} for a thousand and a half long paths the board does not have, and
 * a follower of {@code /board1/board/temp}. The hostile client gets at most its vertex share (then
 * {@code tr::flow::backpressure}), the follower gets every value the board writes meanwhile and a
 * new subscription of its own, and once the hostile client's slots are gone the host's vertex table
 * has the inUse it had before (bounded: 1,500 appends and clears, well under 60 s).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HostileSubscriptionsUnderAMountTest {
    private static final int PATHS = 1500;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void aClientSubscribingToThousandsOfMissingPathsLeavesTheHostVerticesAsTheyWereAndAnotherClientIsServedThroughout()
            throws Exception {
        UdpLinkConfig cfg = new UdpLinkConfig();
        HostRuntime board = new HostRuntime("board", new NarrowNode(NodeConfig.defaults()));
        closing.add(board);
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), cfg, SystemClock.INSTANCE);
        board.attach(boardLink);
        board.start();
        assertEquals(WireError.OK, board.write("/board/temp", HostRuntimeTest.value(0, 4)));
        assertEquals(WireError.OK, board.write("/board/hum", HostRuntimeTest.value(40, 4)));

        // a table of 1,024 vertices: without a share, the hostile client alone would fill it
        NodeConfig hostCfg = HostRuntime.HOST_CONFIG.toBuilder().maxVertices(1024).slotsPerPeer(4096).build();
        HostRuntime host = new HostRuntime("host", new WideNode(hostCfg));
        closing.add(host);
        host.mount(UdpLink.dial(2, boardLink.localAddress(), cfg, SystemClock.INSTANCE), "board1", List.of());
        UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), cfg, SystemClock.INSTANCE);
        host.attachListener(clients);
        host.start();
        InetSocketAddress hostAt = clients.localAddress();

        PeerClient follower = client(hostAt, 3000);
        List<Delivery> got = new CopyOnWriteArrayList<>();
        follower.onDelivery(d -> {
            if (d.route().equals("/in/temp")) {
                got.add(d.detach());
            }
        });
        assertTrue(follower.subscribe("/board1/board/temp", "/in/temp", 0, true).reply().ok());
        assertTrue(follower.pumpUntil(() -> !got.isEmpty(), Duration.ofSeconds(10)), "the upstream edge is up");
        PeerClient hostile = client(hostAt, 3000);
        hostile.read("/board1/board/temp"); // its return route through the router
        final int before = vertices(host);

        int admitted = 0;
        int refused = 0;
        long written = 0;
        for (int i = 0; i < PATHS; i++) {
            Reply r = hostile.subscribe(missing(i), "/in/z", 0, false).reply();
            if (r.ok()) {
                admitted++;
            } else {
                assertEquals(WireError.FLOW_BACKPRESSURE, r.code(), "a refusal past the share is typed");
                refused++;
            }
            if (i % 10 == 0) {
                assertEquals(WireError.OK, board.write("/board/temp", HostRuntimeTest.value(++written, 4)));
            }
            follower.pumpOnce(); // it answers the host's liveness pings as it goes
        }
        int share = hostCfg.verticesPerPeer();
        assertTrue(admitted > 0 && admitted <= share, "the hostile client got at most its share: " + admitted);
        assertEquals(PATHS - admitted, refused);
        assertTrue(follower.subscribe("/board1/board/hum", "/in/hum", 0, false).reply().ok(),
                "the follower's new subscription is served while the hostile client is refused");
        final long last = written;
        boolean all = follower.pumpUntil(() -> !got.isEmpty() && number(got.get(got.size() - 1)) == last,
                Duration.ofSeconds(20));
        assertTrue(all, "the follower got the last value, " + last + "; got " + got.size() + " values, the last "
                + (got.isEmpty() ? -1 : number(got.get(got.size() - 1))));
        for (int i = 1; i < got.size(); i++) {
            assertEquals(got.get(i - 1).seq() + 1, got.get(i).seq(), "consecutive sequence numbers at " + i);
        }

        for (int i = 0; i < admitted; i++) { // the hostile client's slots go
            assertTrue(hostile.clear(missing(i), 0, -1).ok(), missing(i));
        }
        assertEquals(before + 1, settledVertices(host),
                "the host's vertices are as before the hostile client, plus /board1/board/hum the follower asked for");
    }

    private static String missing(int i) {
        return "/board1/no/such/x" + i + "-" + "y".repeat(50);
    }

    private PeerClient client(InetSocketAddress at, long timeoutMs) throws Exception {
        PeerClient c = new PeerClient(UdpLink.dial(1, at, new UdpLinkConfig(), SystemClock.INSTANCE), 0,
                Duration.ofMillis(timeoutMs));
        closing.add(c);
        return c;
    }

    private static long number(Delivery d) {
        return ByteBuffer.wrap(d.value(), 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    private static int vertices(HostRuntime host) {
        return host.onNodeThread(() -> {
            for (BoundedResource r : host.node().resources()) {
                if (r.resourceName().equals("wide.vertices")) {
                    return (int) r.inUse();
                }
            }
            throw new AssertionError("no wide.vertices table");
        });
    }

    /** The host's vertex inUse once it has stood still for a few readings. */
    private static int settledVertices(HostRuntime host) throws InterruptedException {
        int last = vertices(host);
        int same = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (same < 3 && System.nanoTime() < end) {
            Thread.sleep(100);
            int now = vertices(host);
            same = now == last ? same + 1 : 0;
            last = now;
        }
        return last;
    }
}
