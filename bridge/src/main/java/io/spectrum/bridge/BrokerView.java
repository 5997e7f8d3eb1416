package io.spectrum.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.ValueLine;
import io.spectrum.client.ValueText;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;
import org.eclipse.paho.mqttv5.common.packet.UserProperty;
import org.eclipse.paho.mqttv5.common.util.MqttTopicValidator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The fabric as the broker holds it ({@code spectrum ls --mqtt}, {@code spectrum sub --mqtt}):
 * subscribes to {@code spectrum/…} topics and turns each message back into a value line with the
 * same JSON fields the bridges published ({@link io.spectrum.client.ValueLine}), whichever host published it, so two
 * hosts' boards list together. A JSON payload is taken as published; a raw TLV payload
 * ({@code --mqtt-raw}) is rendered raw, with seq / stale from the MQTT 5 user properties.
 */
public final class BrokerView implements AutoCloseable {
    /** One value from the broker: the fabric path ({@code /<host>/<board>/…}), its JSON line, whether retained. */
    public record Value(String path, ObjectNode json, boolean retained) {
        /** "23.28 °C", the text the CLI prints; "(cleared)" for an emptied retained message. */
        public String text() {
            JsonNode t = json.get("text");
            if (t != null && !t.isNull()) {
                return t.asText();
            }
            return cleared() ? "(cleared)" : json.get("value").asText();
        }

        /** An emptied retained message (the publisher purged the vertex): no value, no text. */
        public boolean cleared() {
            JsonNode t = json.get("text");
            JsonNode v = json.get("value");
            return (t == null || t.isNull()) && (v == null || v.isNull());
        }
    }

    private static final int TIMEOUT_MS = 5_000;

    private final MqttAsyncClient client;
    private final String filter;
    private final BlockingQueue<Value> values = new LinkedBlockingQueue<>();

    private BrokerView(MqttAsyncClient client, String filter) {
        this.client = client;
        this.filter = filter;
    }

    /**
     * What is subscribed for {@code filter}: its levels up to the first wildcard, then {@code #};
     * the filter itself is applied here. (Debian's Mosquitto 2.0.11 did not send the retained
     * messages matching {@code spectrum/lab/+/led} on subscribe; {@code spectrum/lab/#} it does.)
     */
    static String subscribed(String filter) {
        int plus = filter.indexOf('+');
        if (plus < 0) {
            return filter;
        }
        return filter.substring(0, plus) + "#";
    }

    /**
     * Connects to the broker and subscribes to {@code filter} (a topic filter, e.g. {@code spectrum/#}).
     *
     * @throws IOException when the broker cannot be reached or refuses us (the reason in one line)
     */
    public static BrokerView open(BrokerAddress address, String filter) throws IOException {
        try {
            PahoLog.quiet();
            MqttAsyncClient c = new MqttAsyncClient(address.serverUri(),
                    "spectrum-view-" + Integer.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextInt(0x1000000)), new MemoryPersistence());
            MqttTopicValidator.validate(filter, true, true);
            BrokerView v = new BrokerView(c, filter);
            c.setCallback(v.new Callback());
            MqttConnectionOptions o = address.connectionOptions(TIMEOUT_MS / 1000);
            c.connect(o).waitForCompletion(TIMEOUT_MS);
            c.subscribe(subscribed(filter), 1).waitForCompletion(TIMEOUT_MS);
            return v;
        } catch (IllegalArgumentException e) {
            throw new IOException("'" + filter + "' is not an MQTT topic filter: " + e.getMessage());
        } catch (MqttException e) {
            throw new IOException("cannot read " + filter + " from " + address + ": " + BrokerSide.reason(e));
        }
    }

    /** The next value, waiting up to {@code millis}; null when none came. */
    public Value next(long millis) throws InterruptedException {
        return values.poll(millis, TimeUnit.MILLISECONDS);
    }

    /** Whether the view is still connected to the broker (it does not reconnect by itself). */
    public boolean connected() {
        return client.isConnected();
    }

    @Override
    public void close() {
        try {
            if (client.isConnected()) {
                client.disconnect().waitForCompletion(2_000);
            }
            client.close(true);
        } catch (MqttException e) {
            // closing anyway
        }
    }

    /**
     * The largest payload decoded (as JSON, TLV or text): a bridge's value line is a few hundred
     * bytes; a larger one is shown by its size only.
     */
    static final int MAX_PAYLOAD = 64 * 1024;

    /** A message on a fabric topic as a value line; null for a topic that is not a vertex's state. */
    static Value value(String topic, MqttMessage m) {
        String path = Topics.fabricPath(topic);
        if (path == null) {
            return null;
        }
        byte[] p = m.getPayload();
        ObjectNode o = null;
        if (p.length > MAX_PAYLOAD) { // anyone can publish under spectrum/: a huge payload is not decoded at all
            o = JsonLines.line(path);
            o.put("value", "(" + p.length + " bytes: over " + MAX_PAYLOAD + ", not shown)");
            o.put("text", o.get("value").asText());
            stamp(o, m.getProperties());
            o.put("path", path);
            return new Value(path, o, m.isRetained());
        }
        if (p.length > 0 && p[0] == '{') {
            try {
                JsonNode n = JsonLines.JSON.readTree(p);
                o = n instanceof ObjectNode on ? on : null;
            } catch (IOException e) {
                o = null; // not JSON: rendered raw below
            }
        }
        if (o == null) {
            o = JsonLines.line(path);
            if (p.length > 0) {
                ValueText v = isTlv(p) ? ValueText.of(p, 0, p.length) : new ValueText(
                        new String(p, StandardCharsets.UTF_8), null, null, "", null);
                ValueLine.value(JsonLines.fields(o), v);
            }
            stamp(o, m.getProperties());
        }
        o.put("path", path);
        return new Value(path, o, m.isRetained());
    }

    /** A raw payload is one TLV (its length says so); {@code $online}'s true/false is text. */
    private static boolean isTlv(byte[] p) {
        return !(p.length <= 5 && (new String(p, StandardCharsets.US_ASCII).equals("true")
                || new String(p, StandardCharsets.US_ASCII).equals("false")));
    }

    private static void stamp(ObjectNode o, MqttProperties props) {
        if (props == null || props.getUserProperties() == null) {
            return;
        }
        Long seq = null;
        boolean stale = false;
        for (UserProperty u : props.getUserProperties()) {
            if (u.getKey().equals("seq")) {
                try {
                    seq = Long.parseLong(u.getValue());
                } catch (NumberFormatException e) {
                    seq = null;
                }
            } else if (u.getKey().equals("stale")) {
                stale = Boolean.parseBoolean(u.getValue());
            }
        }
        if (seq != null) {
            ValueLine.stamp(JsonLines.fields(o), seq, stale, null, 0);
        }
    }

    private final class Callback extends CallbackAdapter {


        @Override
        public void messageArrived(String topic, MqttMessage message) {
            Value v = MqttTopicValidator.isMatched(filter, topic) ? value(topic, message) : null;
            if (v != null) {
                values.add(v);
            }
        }



    }
}
