package io.spectrum.client.bus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.server.BusServer;
import io.spectrum.bus.state.Grants;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.link.local.InProcessLink;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BusClient#node()}: a {@link PeerClient} riding the bus connection (docs/bus.md, "The host's
 * node through the bus"). Against a bus whose node door a WIDE node serves on its own thread, the
 * node client reads and subscribes while the bus's own replies and events still reach the
 * bus client on the same connection; against a bus without a door its requests go unanswered while
 * the bus works as ever.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BusClientNodeTest {
    @TempDir
    Path tmp;

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    /** A WIDE node holding {@code /lab/x} = u8 1, serving {@code door} on its own thread. */
    private void node(InProcessLink door) {
        WideNode node = new WideNode(WideNode.hostConfig().clock(SystemClock.INSTANCE).build());
        assertEquals(WireError.OK, node.attach(door));
        byte[] v = u8(1);
        assertEquals(WireError.OK, node.write(NodePath.of("/lab/x"), v, 0, v.length));
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                if (node.poll() == 0) {
                    Thread.onSpinWait();
                }
            }
        }, "test-node");
        t.setDaemon(true);
        t.start();
        closing.add(() -> {
            t.interrupt();
            t.join(5_000);
            node.close();
            door.close();
        });
    }

    private BusHost bus(InProcessLink door) throws Exception {
        BusHost host = BusHost.start(StoreConfig.builder(tmp.resolve("store")).build(), BusLimits.defaults(),
                name -> Grants.open(), List.of(), door);
        closing.add(host);
        return host;
    }

    private BusClient client(BusHost host, long timeoutMillis) throws Exception {
        BusClient c = BusClient.connect(new InProcessTransport(host.connectInProcess("ctl")), timeoutMillis);
        closing.add(c);
        return c;
    }

    @Test
    void theNodeClientReadsAndFollowsTheNode_whileTheBusAnswersAndDeliversOnTheSameConnection() throws Exception {
        InProcessLink door = BusServer.nodeDoorLink(9, BusLimits.defaults(), 64 * 1024, 1 << 20);
        node(door);
        BusHost host = bus(door);
        BusClient bus = client(host, 5_000);
        PeerClient node = bus.node();
        assertSame(node, bus.node());
        assertEquals(BusClient.NODE_ROUTE, node.replyPrefix(), "apart from the bus's own reply routes");

        Reply read = node.read("/lab/x");
        assertTrue(read.ok(), WireError.identity(read.code()));
        assertArrayEquals(u8(1), read.value());

        List<Delivery> got = new ArrayList<>();
        node.onDelivery(d -> got.add(d.detach()));
        io.spectrum.client.Subscribed s = node.subscribe("/lab/x", "/in/x", DeliveryPolicy.DURABILITY_REQUEST, false);
        assertTrue(s.ok(), WireError.identity(s.code()));
        // the bus's own traffic on the same connection, between the node's
        bus.declare("news", Retention.NONE);
        BusSubscription news = bus.subscribe("news", SubscriptionMode.BOUNDED, 4, 2, false);
        bus.publish("news", "hello".getBytes(StandardCharsets.UTF_8));
        assertTrue(node.pumpUntil(() -> got.stream().anyMatch(d -> Arrays.equals(u8(1), d.value())),
                Duration.ofSeconds(5)), "the node's delivery of the value held: " + got);
        Message m = news.next(5_000);
        assertEquals("hello", new String(m.payload(), StandardCharsets.UTF_8), "the bus's event reached the bus client");
        m.consume();
        assertEquals(0, bus.nodeFramesDropped());
        BusHost.DoorCounters counters = host.doorCounters();
        assertTrue(counters.relayed() >= 2 && counters.refused() == 0 && counters.fromNode() >= 3, counters.toString());
    }

    @Test
    void withoutADoor_theNodeClientsRequestGoesUnanswered_andTheBusWorksAsEver() throws Exception {
        BusHost host = bus(null);
        BusClient bus = client(host, 500);
        Reply read = bus.node().read("/lab/x");
        assertEquals(WireError.FLOW_TIMEOUT, read.code(), "the bus refuses a frame not addressed to it");
        assertTrue(bus.declare("news", Retention.NONE).bool("declared"), "the connection is as it was");
        assertEquals(new BusHost.DoorCounters(0, 0, 0), host.doorCounters());
    }

    private static byte[] u8(int v) {
        byte[] b = new byte[8];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 1);
        return Arrays.copyOf(b, w.length());
    }
}
