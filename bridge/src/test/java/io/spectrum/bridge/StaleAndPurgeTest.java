package io.spectrum.bridge;

import io.spectrum.board.Board;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.WideNode;
import org.eclipse.paho.mqttv5.client.IMqttMessageListener;
import org.eclipse.paho.mqttv5.client.MqttClient;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.eclipse.paho.mqttv5.common.packet.UserProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Stale marking follows the node into a real Mosquitto: a host (WideNode, a 2 s stale grace)
 * mounts an emulated board over UDP loopback and the bridge dials the host's client
 * listener, as {@code spectrum host --mqtt} does. When the board goes away the host marks its
 * vertices stale and tells its stamped subscribers at once, so the retained topic is republished
 * with {@code "stale": true} (user property {@code stale} = true) without any later delivery. The
 * board's vertices are declared, so the host keeps them past the grace (docs/node.md, "Declared
 * vertices keep their value"): no purge, and the broker keeps the stale retained message.
 */
class StaleAndPurgeTest {
    private static final String COUNTER = "spectrum/lab/board1/board/counter";
    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final List<AutoCloseable> closing = new ArrayList<>();

    /** One message as the subscriber saw it. */
    private record Seen(String topic, String payload, boolean retained, Map<String, String> props, long atNanos) {
        boolean stale() {
            return payload.contains("\"stale\":true");
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void aBoardThatGoesAwayIsRepublishedStale_andItsRetainedTopicsStayStalePastTheGrace() throws Exception {
        Mosquitto broker = Mosquitto.start();
        closing.add(broker);
        int[] boardPort = new int[1];
        Board board = Fabric.board("b1", 50, boardPort);
        closing.add(board);

        UdpLinkConfig quick = new UdpLinkConfig().peerTimeoutMillis(600).pingIntervalMillis(200);
        HostRuntime host = new HostRuntime("lab", new WideNode(HostRuntime.HOST_CONFIG.toBuilder()
                .staleGraceNanos(GRACE_NANOS).build()));
        closing.add(host);
        host.mount(UdpLink.dial(2, new InetSocketAddress("127.0.0.1", boardPort[0]), quick, SystemClock.INSTANCE),
                "board1", List.of());
        UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        host.attachListener(clients);
        host.start();
        MqttBridge bridge = MqttBridge.start(Fabric.client(clients.localAddress().getPort()), broker.address(),
                new BridgeOptions().host("lab"), n -> { });
        closing.add(bridge);

        List<Seen> seen = new CopyOnWriteArrayList<>();
        MqttClient sub = new MqttClient(broker.address().serverUri(), "test-stale", new MemoryPersistence());
        sub.connect();
        closing.add(() -> {
            sub.disconnect();
            sub.close();
        });
        sub.subscribe(new MqttSubscription[] {new MqttSubscription("spectrum/lab/#", 1)},
                new IMqttMessageListener[] {(t, m) -> seen.add(seen(t, m))}); // the array form (see MqttBridgeTest)

        Seen fresh = await(seen, s -> s.topic().equals(COUNTER) && s.payload().contains("\"seq\":")
                && !s.payload().contains("\"seq\":null") && !s.stale(), "a fresh stamped counter"); // a delivery, not the walk
        assertEquals("false", fresh.props().get("stale"), fresh.toString());

        board.close(); // the board goes away: the host's link to it falls silent, the host's liveness says down
        Seen stale = await(seen, s -> s.topic().equals(COUNTER) && s.stale(), "the counter republished stale");
        assertEquals("true", stale.props().get("stale"), "the MQTT 5 user property says stale too: " + stale);
        assertFalse(stale.payload().isEmpty());
        assertTrue(stale.payload().contains("\"reason\":\"board away\""), "why, as the host marked it: " + stale);
        try (BrokerView late = BrokerView.open(broker.address(), COUNTER)) {
            BrokerView.Value first = late.next(10_000);
            assertTrue(first != null && first.retained() && first.json().get("stale").asBoolean(),
                    "a late subscriber gets the retained stale value: " + first);
        }

        // the board stays away for two graces (the host's node runs on the system clock here: a
        // frozen clock would also stop its delivery metering, which the bridge's traffic needs)
        TimeUnit.NANOSECONDS.sleep(2 * GRACE_NANOS);
        io.spectrum.node.api.NodePath copy = io.spectrum.node.api.NodePath.of("/board1/board/counter");
        assertTrue(host.onNodeThread(() -> host.node().read(copy, new byte[64], 0, 64) > 0 && host.node().isStale(copy)),
                "the host keeps the board's declared value, stale");
        try (BrokerView late = BrokerView.open(broker.address(), COUNTER)) {
            BrokerView.Value first = late.next(10_000);
            assertTrue(first != null && first.retained() && first.json().get("stale").asBoolean(),
                    "past the grace the broker still retains the stale value: " + first);
        }
        assertFalse(seen.stream().anyMatch(s -> s.topic().equals(COUNTER) && s.payload().isEmpty()),
                "no purge, so the retained message is never cleared");
    }

    private static Seen seen(String topic, MqttMessage m) {
        java.util.HashMap<String, String> props = new java.util.HashMap<>();
        if (m.getProperties() != null && m.getProperties().getUserProperties() != null) {
            for (UserProperty u : m.getProperties().getUserProperties()) {
                props.put(u.getKey(), u.getValue());
            }
        }
        return new Seen(topic, new String(m.getPayload(), StandardCharsets.UTF_8), m.isRetained(), props, System.nanoTime());
    }

    private static Seen await(List<Seen> seen, Predicate<Seen> p, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (Seen s : seen) {
                if (p.test(s)) {
                    return s;
                }
            }
            Thread.sleep(20);
        }
        fail(what + " did not happen within 30 s; seen: " + seen.stream().filter(s -> s.topic().equals(COUNTER)).toList());
        return null;
    }
}
