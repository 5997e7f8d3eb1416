package io.spectrum.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import io.spectrum.board.Board;
import io.spectrum.board.decl.BoardFileParser;
import io.spectrum.board.decl.BoardSetup;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Home Assistant discovery against a real Mosquitto: a board with a temperature, a humidity, a
 * counter, a writable LED (0..1), a read-only door contact (0..1) and a writable setpoint that has
 * no value yet, bridged as {@code plant1} with the LED and the setpoint writable. Each entity type
 * the bridge uses is compared whole with a fixture in Home Assistant's current discovery schema
 * ({@code src/test/resources/homeassistant/}: sensor, binary_sensor, switch, number).
 */
class HomeAssistantDiscoveryTest {
    private static final String BOARD = """
            period: 100ms
            vertices:
              - path: /temp
                type: i16
                unit: Cel
                scale: 0.01
                rights: ro
                description: board temperature
                source: {kind: sim, wave: sine, base: 2150, amplitude: 180, cycle: 12}
              - path: /humidity
                type: u16
                unit: "%"
                scale: 0.1
                range: [0, 1000]
                rights: ro
                description: relative humidity
                source: {kind: sim, wave: cosine, base: 480, amplitude: 60, cycle: 20}
              - path: /counter
                type: u32
                rights: ro
                description: periods since start
                source: {kind: sim, wave: count}
              - path: /led
                type: u8
                range: [0, 1]
                rights: rw
                initial: 0
                description: LED, 1 = on
              - path: /door
                type: u8
                range: [0, 1]
                rights: ro
                initial: 0
                description: door open
              - path: /setpoint
                type: i16
                unit: Cel
                scale: 0.5
                range: [10, 60]
                rights: rw
                description: heating setpoint
            """;

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void eachEntityTypeIsAnnouncedInHomeAssistantsCurrentSchema() throws Exception {
        Mosquitto broker = Mosquitto.start();
        closing.add(broker);
        Board board = new Board("plant-board", NodeConfig.defaults(),
                BoardSetup.host(new BoardFileParser(-1).parse("ha.yaml", BOARD, Path.of(".")), "plant-board", List.of()));
        closing.add(board);
        UdpLink l = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        board.attach(l);
        board.start();
        Watch ha = new Watch(broker, "test-ha", "homeassistant/#");
        closing.add(ha);
        Watch state = new Watch(broker, "test-ha-state", "spectrum/plant1/setpoint");
        closing.add(state);
        MqttBridge bridge = MqttBridge.start(Fabric.client(l.localAddress().getPort()), broker.address(),
                new BridgeOptions().host("plant1").writable("/led").writable("/setpoint").discovery(true), n -> { });
        closing.add(bridge);

        String prefix = "homeassistant/";
        Map<String, String> expected = Map.of(
                "sensor/spectrum_plant1/temp/config", "sensor.json",
                "sensor/spectrum_plant1/humidity/config", "sensor-humidity.json",
                "binary_sensor/spectrum_plant1/door/config", "binary_sensor.json",
                "switch/spectrum_plant1/led/config", "switch.json",
                "number/spectrum_plant1/setpoint/config", "number.json");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            Watch.Seen config = ha.await(s -> s.topic().equals(prefix + e.getKey()) && !s.payload().isEmpty(), e.getKey());
            JsonNode got = JsonLines.JSON.readTree(config.payload());
            assertEquals(fixture(e.getValue()), got, e.getKey() + " as Home Assistant documents it");
        }
        JsonNode counter = JsonLines.JSON.readTree(ha.on(prefix + "sensor/spectrum_plant1/counter/config").payload());
        assertFalse(counter.has("device_class"), "a count has no device class: " + counter);
        assertEquals("measurement", counter.get("state_class").asText());
        assertTrue(state.seen().isEmpty(), "the setpoint was announced from its declaration before it had a value: "
                + state.seen());
        // a config is retained: a Home Assistant that starts later gets every one
        try (Watch late = new Watch(broker, "test-ha-late", "homeassistant/#")) {
            for (String topic : expected.keySet()) {
                assertTrue(late.on(prefix + topic).retained(), topic + " is retained");
            }
        }
        // the earlier bridge announced the door and the setpoint as sensors: those configs are cleared
        assertTrue(ha.seen().stream().noneMatch(s -> s.topic().equals(prefix + "sensor/spectrum_plant1/door/config")
                && !s.payload().isEmpty()), "no sensor config for the door");
        assertNotNull(bridge.stats());
    }

    private static JsonNode fixture(String name) throws Exception {
        try (InputStream in = HomeAssistantDiscoveryTest.class.getResourceAsStream("/homeassistant/" + name)) {
            assertNotNull(in, name);
            return JsonLines.JSON.readTree(in);
        }
    }
}
