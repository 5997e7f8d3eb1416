package io.spectrum.bridge;

import io.spectrum.board.Board;
import io.spectrum.client.PeerClient;
import org.eclipse.paho.mqttv5.client.IMqttMessageListener;
import org.eclipse.paho.mqttv5.client.MqttClient;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two emulated boards, each bridged by its own bridge (hosts "north" and "south") into one real
 * Mosquitto: the broker lists both, writes follow --mqtt-writable and the board's declaration, and
 * a broker that dies and comes back gets the whole retained state again while the bridges kept
 * following their boards.
 */
class MqttBridgeTest {
    private static final List<String> VERTICES = List.of("temp", "humidity", "counter", "led", "name");

    private Mosquitto broker;
    private Board north;
    private Board south;
    private MqttBridge bridgeN;
    private MqttBridge bridgeS;
    private int northPort;
    private int southPort;
    private final List<String> notes = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        broker = Mosquitto.start();
        int[] pn = new int[1];
        int[] ps = new int[1];
        north = Fabric.board("north-board", 50, pn);
        northPort = pn[0];
        south = Fabric.board("south-board", 50, ps);
        southPort = ps[0];
        bridgeN = bridge(pn[0], new BridgeOptions().host("north").writable("/led"));
        bridgeS = bridge(ps[0], new BridgeOptions().host("south"));
    }

    private MqttBridge bridge(int port, BridgeOptions o) throws Exception {
        PeerClient c = Fabric.client(port);
        return MqttBridge.start(c, broker.address(), o, notes::add);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {bridgeN, bridgeS, north, south, broker}) {
            if (c != null) {
                c.close();
            }
        }
    }

    private static boolean complete(Map<String, BrokerView.Value> seen) {
        for (String host : List.of("north", "south")) {
            for (String v : VERTICES) {
                if (!seen.containsKey("/" + host + "/" + v)) {
                    return false;
                }
            }
            BrokerView.Value online = seen.get("/" + host + "/$online");
            if (online == null || !online.text().equals("true")) {
                return false;
            }
        }
        return true;
    }

    @Test
    void bothBoardsListFromTheBrokerWithTheirUnitsAndStamps() throws Exception {
        Map<String, BrokerView.Value> seen = Fabric.until(broker, "spectrum/#",
                m -> complete(m) && m.get("/north/counter").json().get("seq").isNumber(), "both boards retained");
        BrokerView.Value temp = seen.get("/south/temp");
        assertEquals("°C", temp.json().get("unit").asText(), temp.json().toString());
        assertTrue(temp.json().get("value").isNumber(), temp.json().toString());
        assertEquals("south", temp.json().get("publisher").asText());
        assertEquals("north-board", seen.get("/north/name").text());
        assertFalse(seen.get("/north/counter").json().get("stale").asBoolean());
        try (BrokerView late = BrokerView.open(broker.address(), "spectrum/north/counter")) {
            BrokerView.Value first = late.next(10_000);
            assertTrue(first != null && first.retained(), "a late subscriber gets the retained value first: " + first);
        }
        for (String k : List.of("ts", "path", "value", "unit", "raw", "seq", "stale", "publisher")) {
            assertTrue(seen.get("/north/counter").json().has(k), k + " in " + seen.get("/north/counter").json());
        }
    }

    @Test
    void aSetOnAWritablePathReachesTheBoardAndOthersAreRefused() throws Exception {
        Fabric.until(broker, "spectrum/#", MqttBridgeTest::complete, "both boards retained");
        List<String[]> errors = new CopyOnWriteArrayList<>();
        MqttClient c = new MqttClient(broker.address().serverUri(), "test-writer", new MemoryPersistence());
        c.connect();
        try {
            // (MqttClient.subscribe(String, int, listener) recurses in Paho 1.2.5: the array form does not)
            c.subscribe(new MqttSubscription[] {new MqttSubscription("spectrum/+/+/set/error", 1)},
                    new IMqttMessageListener[] {(t, m) -> errors.add(new String[] {t, new String(m.getPayload(), StandardCharsets.UTF_8)})});
            c.publish("spectrum/north/led/set", new MqttMessage("1".getBytes(StandardCharsets.UTF_8), 1, false, null));
            // the board's LED is 1 now: its delivery comes back through the bridge as the retained state
            Fabric.until(broker, "spectrum/north/led", m -> m.containsKey("/north/led")
                    && m.get("/north/led").json().get("raw").asLong() == 1, "the LED write reaching the board");
            c.publish("spectrum/north/temp/set", new MqttMessage("20".getBytes(StandardCharsets.UTF_8), 1, false, null));
            c.publish("spectrum/south/led/set", new MqttMessage("1".getBytes(StandardCharsets.UTF_8), 1, false, null));
            c.publish("spectrum/north/led/set", new MqttMessage("7".getBytes(StandardCharsets.UTF_8), 1, false, null));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (errors.size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(3, errors.size(), "three refusals on …/set/error: " + errors.stream().map(e -> e[0] + " " + e[1]).toList());
            String temp = find(errors, "spectrum/north/temp/set/error");
            assertTrue(temp.contains("tr::access::denied") && temp.contains("--mqtt-writable"), temp);
            String south = find(errors, "spectrum/south/led/set/error");
            assertTrue(south.contains("tr::access::denied"), south);
            String range = find(errors, "spectrum/north/led/set/error");
            assertTrue(range.contains("out of range"), range);
            assertEquals(1, bridgeN.stats().writesDone());
        } finally {
            c.disconnect();
            c.close();
        }
    }

    private static String find(List<String[]> errors, String topic) {
        return errors.stream().filter(e -> e[0].equals(topic)).map(e -> e[1]).findFirst().orElse("(none on " + topic + ")");
    }

    @Test
    void discoveryAnnouncesSensorsWithUnitsAndWritableTogglesAsSwitches() throws Exception {
        bridgeN.close();
        bridgeN = bridge(northPort, new BridgeOptions().host("north").writable("/led").discovery(true));
        Map<String, String> configs = new java.util.concurrent.ConcurrentHashMap<>();
        MqttClient c = new MqttClient(broker.address().serverUri(), "test-ha", new MemoryPersistence());
        c.connect();
        try {
            c.subscribe(new MqttSubscription[] {new MqttSubscription("homeassistant/#", 1)},
                    new IMqttMessageListener[] {(t, m) -> configs.put(t, new String(m.getPayload(), StandardCharsets.UTF_8))});
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (configs.size() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } finally {
            c.disconnect();
            c.close();
        }
        String temp = configs.get("homeassistant/sensor/spectrum_north/temp/config");
        assertTrue(temp != null && temp.contains("\"unit_of_measurement\":\"°C\"")
                && temp.contains("\"state_topic\":\"spectrum/north/temp\""), configs.toString());
        String led = configs.get("homeassistant/switch/spectrum_north/led/config");
        assertTrue(led != null && led.contains("\"command_topic\":\"spectrum/north/led/set\""), configs.toString());
        assertTrue(configs.containsKey("homeassistant/sensor/spectrum_north/counter/config"), configs.toString());
        assertFalse(configs.keySet().stream().anyMatch(k -> k.contains("board_name")), "a NAME is no sensor: " + configs);
    }

    @Test
    void rawPayloadsCarryTheTlvAndTheStampInUserProperties() throws Exception {
        bridgeS.close();
        bridgeS = bridge(southPort, new BridgeOptions().host("south").raw(true));
        Map<String, BrokerView.Value> seen = Fabric.until(broker, "spectrum/south/counter",
                m -> m.containsKey("/south/counter") && m.get("/south/counter").json().get("seq").isNumber(),
                "a raw stamped counter");
        BrokerView.Value counter = seen.get("/south/counter");
        assertTrue(counter.json().get("raw").isNumber(), counter.json().toString()); // the TLV VALUE, rendered raw by the reader
        assertFalse(counter.json().has("publisher"), "a raw payload is the TLV only: " + counter.json());
        assertFalse(counter.json().get("stale").asBoolean());
    }

    @Test
    void aBrokerThatDiesAndReturnsGetsTheWholeRetainedStateAgain() throws Exception {
        Fabric.until(broker, "spectrum/#", MqttBridgeTest::complete, "both boards retained");
        broker.kill();
        // meanwhile the bridges keep following their boards: values keep arriving from the peer
        long before = bridgeN.stats().values();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (bridgeN.stats().values() < before + 20 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(bridgeN.stats().values() >= before + 20, "the bridge's peer link kept delivering: " + bridgeN.stats());
        assertFalse(bridgeN.stats().connected());
        broker.restart(); // no persistence: it comes back empty
        Fabric.until(broker, "spectrum/#", MqttBridgeTest::complete, "the retained state complete again");
        assertTrue(bridgeN.stats().connects() >= 2, bridgeN.stats().toString());
    }

    @Test
    void withTheBrokerUnreachableThePeerSideKeepsTakingValuesAndEveryOneIsCounted() throws Exception {
        int nobody;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            nobody = s.getLocalPort(); // closed again: nothing listens there
        }
        int[] port = new int[1];
        try (Board fast = Fabric.board("fast-board", 5, port);
             MqttBridge b = MqttBridge.start(Fabric.client(port[0]),
                     BrokerAddress.parse("mqtt://127.0.0.1:" + nobody, null, Map.of()),
                     new BridgeOptions().host("away").queue(3), notes::add)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (b.stats().values() < 200 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            MqttBridge.Stats s = b.stats();
            assertTrue(s.values() >= 200, "the peer side kept taking the board's values: " + s);
            assertFalse(s.connected());
            assertEquals(0, s.published());
            assertTrue(s.queued() <= 3, s.toString());
            // nothing waits for the broker: every value is queued, superseded by a newer one, or dropped
            MqttBridge.Stats t = b.stats();
            assertTrue(t.coalesced() + t.dropped() + t.queued() >= s.values(), t.toString());
            assertTrue(t.coalesced() > 0, "a newer value of a topic replaced its unsent older one: " + t);
            // Paho logs SEVERE with a stack trace when a socket breaks; the bridge's own notes say it in one line
            java.util.logging.Logger sender = java.util.logging.Logger.getLogger(
                    "org.eclipse.paho.mqttv5.client.internal.CommsSender");
            assertFalse(sender.isLoggable(java.util.logging.Level.SEVERE), "Paho's logging is off under a bridge");
            assertTrue(notes.stream().anyMatch(n -> n.startsWith("mqtt: cannot reach ")), notes.toString());
        }
    }
}
