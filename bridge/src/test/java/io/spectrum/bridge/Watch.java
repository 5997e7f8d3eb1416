package io.spectrum.bridge;

import org.eclipse.paho.mqttv5.client.IMqttMessageListener;
import org.eclipse.paho.mqttv5.client.MqttClient;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.eclipse.paho.mqttv5.common.packet.UserProperty;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.fail;

/** A test's MQTT client: records every message under a filter (in arrival order) and publishes. */
final class Watch implements AutoCloseable {
    /** One message as the watcher saw it. */
    record Seen(String topic, String payload, boolean retained, Map<String, String> props, long atNanos) {
        boolean stale() {
            return payload.contains("\"stale\":true");
        }
    }

    private final MqttClient client;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    Watch(Mosquitto broker, String id, String filter) throws MqttException {
        client = new MqttClient(broker.address().serverUri(), id, new MemoryPersistence());
        client.connect();
        // (MqttClient.subscribe(String, int, listener) recurses in Paho 1.2.5: the array form does not)
        client.subscribe(new MqttSubscription[] {new MqttSubscription(filter, 1)},
                new IMqttMessageListener[] {(t, m) -> seen.add(seen(t, m))});
    }

    void publish(String topic, String payload) throws MqttException {
        client.publish(topic, new MqttMessage(payload.getBytes(StandardCharsets.UTF_8), 1, false, null));
    }

    List<Seen> seen() {
        return seen;
    }

    /** The first message (from the start) that {@code p} accepts, waiting up to 30 s; fails naming {@code what}. */
    Seen await(Predicate<Seen> p, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (Seen s : seen) {
                if (p.test(s)) {
                    return s;
                }
            }
            Thread.sleep(20);
        }
        List<Seen> tail = seen.subList(Math.max(0, seen.size() - 12), seen.size());
        fail(what + " did not happen within 30 s; " + seen.size() + " messages on "
                + seen.stream().map(Seen::topic).distinct().toList() + ", the last: " + tail.stream().map(s -> s.topic() + " "
                + s.payload().substring(0, Math.min(160, s.payload().length()))).toList());
        return null;
    }

    /** The first message on {@code topic}, waiting up to 30 s. */
    Seen on(String topic) throws InterruptedException {
        return await(s -> s.topic().equals(topic), "a message on " + topic);
    }

    private static Seen seen(String topic, MqttMessage m) {
        Map<String, String> props = new HashMap<>();
        if (m.getProperties() != null && m.getProperties().getUserProperties() != null) {
            for (UserProperty u : m.getProperties().getUserProperties()) {
                props.put(u.getKey(), u.getValue());
            }
        }
        return new Seen(topic, new String(m.getPayload(), StandardCharsets.UTF_8), m.isRetained(), props, System.nanoTime());
    }

    @Override
    public void close() throws MqttException {
        client.disconnect();
        client.close();
    }
}
