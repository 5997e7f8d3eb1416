package io.spectrum.bridge;

import io.spectrum.board.Board;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every {@code …/set} a bridge refuses is answered on the set topic + {@code /error} at once, and
 * none of them holds the bridge up: a set naming no vertex, a path not opened with
 * {@code --mqtt-writable}, a payload of 2,000,000 digits (which used to hold the bridge for 50 s in
 * {@code BigDecimal(String)}), one over the vertex's own bound, malformed JSON. After all of them a
 * good write still reaches the board. A real Mosquitto, the demo board over UDP loopback.
 */
class SetRequestsTest {
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void everyRefusedSetIsAnsweredOnItsErrorTopicAndTheBridgeKeepsServing() throws Exception {
        Mosquitto broker = Mosquitto.start();
        closing.add(broker);
        int[] port = new int[1];
        Board board = Fabric.board("north-board", 50, port);
        closing.add(board);
        MqttBridge bridge = MqttBridge.start(Fabric.client(port[0]), broker.address(),
                new BridgeOptions().host("north").writable("/led"), n -> { });
        closing.add(bridge);
        Watch w = new Watch(broker, "test-sets", "spectrum/north/#");
        closing.add(w);
        w.await(s -> s.topic().equals("spectrum/north/led") && s.payload().contains("\"raw\":0"), "the LED at 0");

        w.publish("spectrum/north/set", "1");
        w.publish("spectrum/north//set", "1");
        w.publish("spectrum/north/temp/set", "20");
        w.publish("spectrum/north/led/set", "9".repeat(2_000_000));
        w.publish("spectrum/north/counter/set", "7"); // published, declared, but not writable over MQTT
        String over = "1".repeat(PeerSide.payloadBound(io.spectrum.node.api.VertexSchema.value(1, false).range(0, 1).build()) + 1);
        w.publish("spectrum/north/led/set", over);
        w.publish("spectrum/north/led/set", "{\"value\": ");
        w.publish("spectrum/north/led/set", "1");

        String root = w.on("spectrum/north/set/error").payload();
        assertTrue(root.contains("tr::path::invalid") && root.contains("names no vertex") && root.contains("\"ok\":false"), root);
        String empty = w.on("spectrum/north//set/error").payload();
        assertTrue(empty.contains("tr::path::invalid") && empty.contains("names no vertex"), empty);
        String temp = w.on("spectrum/north/temp/set/error").payload();
        assertTrue(temp.contains("tr::access::denied") && temp.contains("--mqtt-writable"), temp);
        String counter = w.on("spectrum/north/counter/set/error").payload();
        assertTrue(counter.contains("tr::access::denied") && counter.contains("--mqtt-writable"), counter);

        List<Watch.Seen> led = new ArrayList<>();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            led = w.seen().stream().filter(s -> s.topic().equals("spectrum/north/led/set/error")).toList();
            if (led.size() >= 3) {
                break;
            }
            Thread.sleep(20);
        }
        assertEquals(3, led.size(), "three refusals of the LED's bad payloads: " + led);
        String huge = led.stream().map(Watch.Seen::payload).filter(p -> p.contains("2000000 bytes")).findFirst().orElse("none");
        assertTrue(huge.contains("a set takes at most " + PeerSide.MAX_SET_BYTES) && huge.length() < 1_000,
                "refused by its size, echoing 200 characters of it: " + huge.substring(0, Math.min(400, huge.length())));
        String bound = led.stream().map(Watch.Seen::payload).filter(p -> p.contains((over.length()) + " bytes")).findFirst()
                .orElse("none");
        assertTrue(bound.contains("tr::schema::type_mismatch") && bound.contains("is at most"), bound);
        String json = led.stream().map(Watch.Seen::payload).filter(p -> p.contains("JSON object")).findFirst().orElse("none");
        assertTrue(json.contains("{\\\"value\\\": 23.5}"), json);

        // the bridge kept serving: the good write reached the board and came back as its state
        w.await(s -> s.topic().equals("spectrum/north/led") && s.payload().contains("\"raw\":1"), "the LED at 1");
        assertEquals(1, bridge.stats().writesDone());
        assertEquals(7, bridge.stats().writesRefused());
        assertFalse(bridge.stopped());
    }
}
