package io.spectrum.host.runtime;

import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Requests;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A host with a board over loopback UDP, a client following a value the board publishes at a
 * steady rate, and hostile clients of the host at the same time: one sending garbage datagrams, one
 * whose slot share is full appending to new long paths and sending malformed SUBSCRIBER records, one
 * writing long payloads (to a board vertex, to the host's root, past the frame). The follower gets
 * every value, in order, with consecutive sequence numbers, and every table of the host node has the
 * inUse it had before the hostile clients started (bounded: a few hundred values, well under 30 s).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostUnderHostileClientsTest {
    private static final int VALUES = 300;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void aFollowerLosesNoValueAndEveryHostTableIsAsBeforeWhileHostileClientsHammerTheHost() throws Exception {
        UdpLinkConfig cfg = new UdpLinkConfig();
        HostRuntime board = new HostRuntime("board", new NarrowNode(NodeConfig.defaults()));
        closing.add(board);
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), cfg, SystemClock.INSTANCE);
        board.attach(boardLink);
        board.start();
        assertEquals(WireError.OK, board.write("/temp", HostRuntimeTest.value(0, 4)));
        assertEquals(WireError.OK, board.write("/hum", HostRuntimeTest.value(40, 4)));

        HostRuntime host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().slotsPerPeer(2).build()));
        closing.add(host);
        host.mount(UdpLink.dial(2, boardLink.localAddress(), cfg, SystemClock.INSTANCE), "board1", List.of());
        UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), cfg, SystemClock.INSTANCE);
        host.attachListener(clients);
        host.start();
        InetSocketAddress hostAt = clients.localAddress();

        // the follower: stamped, so each delivery carries the host's sequence number
        PeerClient follower = client(hostAt, 3000);
        List<Delivery> got = new CopyOnWriteArrayList<>();
        follower.onDelivery(d -> got.add(d.detach()));
        assertTrue(follower.subscribe("/board1/temp", "/in/temp", 0, true).ok());

        // the hostile clients, each with its state made once (its return route, its full share)
        PeerClient appender = client(hostAt, 300);
        assertTrue(appender.subscribe("/board1/temp", "/in/x", 0, false).ok());
        assertTrue(appender.subscribe("/board1/hum", "/in/y", 0, false).ok());
        PeerClient writer = client(hostAt, 300);
        writer.read("/board1/temp");
        DatagramSocket garbage = new DatagramSocket();
        closing.add(garbage);
        Random rnd = new Random(7);
        hostileRound(appender, writer, garbage, hostAt, rnd, 0);
        Map<String, Long> before = settled(host, follower, appender, writer);

        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread hostile = new Thread(() -> {
            try {
                for (int round = 1; !stop.get(); round++) {
                    hostileRound(appender, writer, garbage, hostAt, rnd, round);
                    Thread.sleep(2);
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "hostile clients");
        Thread publisher = new Thread(() -> {
            try {
                for (int i = 1; i <= VALUES; i++) {
                    board.write("/temp", HostRuntimeTest.value(i, 4));
                    Thread.sleep(5);
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "board publisher");
        follower.pumpUntil(() -> !got.isEmpty(), Duration.ofSeconds(10)); // the upstream edge is up
        got.clear();
        hostile.start();
        publisher.start();
        boolean all = follower.pumpUntil(() -> !got.isEmpty() && number(got.get(got.size() - 1)) == VALUES,
                Duration.ofSeconds(25));
        stop.set(true);
        publisher.join();
        hostile.join();
        assertNull(failed.get());
        assertTrue(all, "the follower got the last value; got " + got.size());

        long firstValue = number(got.get(0));
        for (int i = 1; i < got.size(); i++) {
            Delivery d = got.get(i);
            assertTrue(d.stamped(), "stamped");
            assertEquals(got.get(i - 1).seq() + 1, d.seq(), "consecutive sequence numbers at " + i);
            assertEquals(firstValue + i, number(d), "consecutive values at " + i);
        }
        assertEquals(VALUES, firstValue + got.size() - 1);
        assertEquals(before, settled(host, follower, appender, writer), "every table of the host as before the hostile clients");
    }

    /** One round of every hostile request: garbage, refused appends, long payloads (none waits for its answer). */
    private static void hostileRound(PeerClient appender, PeerClient writer, DatagramSocket garbage,
            InetSocketAddress hostAt, Random rnd, int round) throws Exception {
        byte[] junk = new byte[1 + rnd.nextInt(1400)];
        rnd.nextBytes(junk);
        garbage.send(new DatagramPacket(junk, junk.length, hostAt));
        StringBuilder longPath = new StringBuilder("/board1/n" + round);
        for (int i = 0; i < 6; i++) {
            longPath.append("/seg").append(i).append("-xxxxxxxxxxxx");
        }
        appender.send(Requests.fwd(FwdView.OP_WRITE, Requests.path(longPath.toString()), Requests.subscribers(),
                Requests.path("/r/a"), Requests.subscriber("/in/z", 0, false))); // beyond its share
        appender.send(Requests.fwd(FwdView.OP_WRITE, Requests.path(longPath + "/m"), Requests.subscribers(),
                Requests.path("/r/b"), HostRefusalsTest.targetlessSubscriber()));
        appender.pumpOnce();
        byte[] big = HostRefusalsTest.valueOf(8_000 + rnd.nextInt(4_000));
        writer.send(Requests.fwd(FwdView.OP_WRITE, Requests.path("/board1/temp"), null, Requests.path("/r/c"), big));
        writer.send(Requests.fwd(FwdView.OP_WRITE, Requests.path("/"), null, Requests.path("/r/d"), big));
        byte[] past = HostRefusalsTest.valueOf(20_000);
        writer.send(Requests.fwd(FwdView.OP_WRITE, Requests.path("/board1/hum"), null, Requests.path("/r/e"), past));
        writer.pumpOnce();
    }

    private PeerClient client(InetSocketAddress at, long timeoutMs) throws Exception {
        PeerClient c = new PeerClient(UdpLink.dial(1, at, new UdpLinkConfig(), SystemClock.INSTANCE), 0,
                Duration.ofMillis(timeoutMs));
        closing.add(c);
        return c;
    }

    /** The VALUE u32 a delivery carries. */
    private static long number(Delivery d) {
        return ByteBuffer.wrap(d.value(), 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /**
     * Every table of the host node (name -> inUse) once it has stood still for a few readings. The
     * clients are pumped meanwhile, so the node's liveness probes to them are answered and an
     * unanswered probe (a request of the node's own, asked again once a second) is not read as a
     * table left changed.
     */
    private static Map<String, Long> settled(HostRuntime host, PeerClient... clients) throws InterruptedException {
        Map<String, Long> last = inUse(host);
        int same = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (same < 3 && System.nanoTime() < end) {
            for (long t = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100); System.nanoTime() < t; ) {
                for (PeerClient c : clients) {
                    c.pumpOnce();
                }
                Thread.sleep(5);
            }
            Map<String, Long> now = inUse(host);
            same = now.equals(last) ? same + 1 : 0;
            last = now;
        }
        return last;
    }

    private static Map<String, Long> inUse(HostRuntime host) {
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
}
