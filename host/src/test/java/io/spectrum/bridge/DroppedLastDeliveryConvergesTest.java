package io.spectrum.bridge;

import io.spectrum.board.Board;
import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.ServingNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.TlvWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A dropped last delivery is repaired end to end, into a real Mosquitto (docs/node.md, "Dirty
 * edges"): the demo board (its per-peer delivery cap 4 frames/s, a bucket of 2) behind a host over
 * UDP loopback, the bridge on the host's client listener. A burst of writes to the board's LED
 * through the host makes the board's cap drop deliveries to the host, the burst's last one among
 * them; when the host's share at the board refills, the board resends the LED's current value, so
 * the host's copy, the retained MQTT payload (the value, {@code "stale": false}) and a new
 * subscription at the host all end at the board's actual value. Bounded: 7 writes, 30 s at most.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DroppedLastDeliveryConvergesTest {
    private static final String LED_TOPIC = "spectrum/lab/board1/led";
    private static final NodePath HOST_LED = NodePath.of("/board1/led");

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void theHostsCopyTheRetainedPayloadAndANewSubscriptionConvergeOnTheBoardsLedAfterItsCapDroppedTheLastDelivery()
            throws Exception {
        Mosquitto broker = Mosquitto.start();
        closing.add(broker);
        // sources published once, at start: the LED's deliveries are the only traffic to the host
        Board board = new Board("b1", 0, NodeConfig.builder().peerDeliveriesPerSecond(4).peerDeliveryBurst(2).build());
        closing.add(board);
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        board.attach(boardLink);
        board.start();

        HostRuntime host = new HostRuntime("lab", new WideNode(HostRuntime.HOST_CONFIG));
        closing.add(host);
        host.mount(UdpLink.dial(2, boardLink.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE), "board1", List.of());
        UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        host.attachListener(clients);
        host.start();
        int hostPort = clients.localAddress().getPort();
        MqttBridge bridge = MqttBridge.start(Fabric.client(hostPort), broker.address(), new BridgeOptions().host("lab"), n -> { });
        closing.add(bridge);
        Watch w = new Watch(broker, "test-dropped-last", "spectrum/lab/board1/led");
        closing.add(w);
        w.await(s -> s.topic().equals(LED_TOPIC) && s.payload().contains("\"raw\":0") && !s.stale(), "the LED at 0, fresh");

        PeerClient writer = Fabric.client(hostPort);
        closing.add(writer);
        Thread.sleep(1_500); // the host's share at the board is full again (its bucket refills in 0.5 s)
        final long droppedBefore = onBoard(board, n -> n.server().deliveriesDropped());
        for (int i = 0; i < 7; i++) { // 1, 0, 1, 0, 1, 0, 1: the board's cap lets the first two through
            assertTrue(writer.write("/board1/led", u8((i + 1) & 1)).ok(), "write " + i);
        }
        final int boardValue = onBoard(board, n -> ledOf(n, NodePath.of("/led")));
        assertEquals(1, boardValue, "the board's LED after the burst");
        long dropped = onBoard(board, n -> n.server().deliveriesDropped()) - droppedBefore;
        assertTrue(dropped >= 1, "the board's cap dropped deliveries of the burst to the host: " + dropped);

        // the host's copy converges, fresh
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        boolean hostConverged = false;
        while (!hostConverged && System.nanoTime() < deadline) {
            hostConverged = host.onNodeThread(() -> ledOf(host.node(), HOST_LED) == boardValue && !host.node().isStale(HOST_LED));
            Thread.sleep(20);
        }
        assertTrue(hostConverged, "the host's copy of the LED is the board's, fresh");

        // the bridge's last message on the LED topic, and the broker's retained one, converge: the value, not stale
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        Watch.Seen last = lastOn(w, LED_TOPIC);
        while (!last.payload().contains("\"raw\":" + boardValue) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            last = lastOn(w, LED_TOPIC);
        }
        assertTrue(last.payload().contains("\"raw\":" + boardValue), "the LED's last MQTT message: " + last.payload());
        assertTrue(last.payload().contains("\"stale\":false"), last.payload());
        assertEquals("false", last.props().get("stale"), last.toString());
        try (BrokerView late = BrokerView.open(broker.address(), LED_TOPIC)) {
            BrokerView.Value retained = late.next(10_000);
            assertTrue(retained != null && retained.retained(), "a retained LED");
            assertEquals(boardValue, retained.json().get("raw").asInt(), retained.json().toString());
            assertFalse(retained.json().get("stale").asBoolean(), retained.json().toString());
        }

        // a new subscription at the host starts at the board's value
        PeerClient sub = Fabric.client(hostPort);
        closing.add(sub);
        List<Delivery> got = new CopyOnWriteArrayList<>();
        sub.onDelivery(d -> got.add(d.detach()));
        assertTrue(sub.subscribe("/board1/led", "/in/led", DeliveryPolicy.DURABILITY_REQUEST, true).reply().ok());
        assertTrue(sub.pumpUntil(() -> !got.isEmpty(), Duration.ofSeconds(10)), "the new subscription's first value");
        Delivery first = got.get(0);
        assertEquals(boardValue, first.value()[first.value().length - 1], "the new subscription's first value is the board's");
        assertFalse(first.stale(), "and fresh");
    }

    private static byte[] u8(int v) {
        byte[] b = new byte[8];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 1);
        return java.util.Arrays.copyOf(b, w.length());
    }

    /** The last message on topic so far. */
    private static Watch.Seen lastOn(Watch w, String topic) {
        Watch.Seen found = null;
        for (Watch.Seen s : w.seen()) {
            if (s.topic().equals(topic)) {
                found = s;
            }
        }
        return found;
    }

    /** The LED's u8 on a node (-1 when it holds none). */
    private static int ledOf(io.spectrum.node.api.Node n, NodePath p) {
        byte[] b = new byte[16];
        int len = n.read(p, b, 0, b.length);
        return len == 5 ? b[4] : -1;
    }

    private static <T> T onBoard(Board board, Function<ServingNode, T> f) throws Exception {
        CompletableFuture<T> r = new CompletableFuture<>();
        board.loop().submit(() -> r.complete(f.apply(board.loop().node())));
        return r.get(5, TimeUnit.SECONDS);
    }
}
