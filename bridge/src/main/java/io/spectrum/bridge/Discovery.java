package io.spectrum.bridge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.TlvType;

import java.nio.charset.StandardCharsets;

/**
 * Home Assistant MQTT discovery ({@code --mqtt-discovery}): for each declared vertex a retained
 * config under {@code homeassistant/<component>/spectrum_<host>/<object>/config}, so it appears
 * without hand-written YAML. A numeric vertex (a declared VALUE) is a {@code sensor} with its unit;
 * a writable one (named by {@code --mqtt-writable} and declared writable) whose range is 0..1 is a
 * {@code switch} writing {@code 1} / {@code 0} to its {@code …/set} topic. A vertex without a
 * declaration, or of another type, gets none. Availability follows {@code spectrum/<host>/$online}.
 */
final class Discovery {
    static final String PREFIX = "homeassistant";

    private final Topics topics;

    Discovery(Topics topics) {
        this.topics = topics;
    }

    /** The discovery config of {@code path}, or null when it gets none. */
    Outgoing config(String path, VertexSchema schema, boolean writable, boolean raw) {
        if (schema == null || schema.type() != TlvType.VALUE || raw) {
            return null; // raw payloads carry no JSON value for the template to read
        }
        boolean toggle = writable && schema.ranged() && schema.min() == 0 && schema.max() == 1
                && schema.scale() == 1.0 && schema.offset() == 0.0;
        String component = toggle ? "switch" : "sensor";
        String node = "spectrum_" + safe(topics.host());
        String object = safe(path.substring(1));
        String state = topics.state(path);
        ObjectNode c = ValueJson.JSON.createObjectNode();
        c.put("name", path);
        c.put("unique_id", node + "_" + object);
        c.put("object_id", node + "_" + object);
        c.put("state_topic", state);
        c.put("value_template", "{{ value_json.value }}");
        c.put("availability_topic", topics.online());
        c.put("payload_available", "true");
        c.put("payload_not_available", "false");
        if (toggle) {
            c.put("command_topic", state + Topics.SET);
            c.put("payload_on", "1");
            c.put("payload_off", "0");
            c.put("state_on", "1");
            c.put("state_off", "0");
        } else if (!schema.unitSymbol().isEmpty()) {
            c.put("unit_of_measurement", schema.unitSymbol());
            c.put("state_class", "measurement");
        }
        ObjectNode device = c.putObject("device");
        device.putArray("identifiers").add(node + "_" + safe(board(path)));
        device.put("name", topics.host() + " " + board(path));
        device.put("manufacturer", "Spectrum");
        String topic = PREFIX + "/" + component + "/" + node + "/" + object + "/config";
        return Outgoing.state(topic, c.toString().getBytes(StandardCharsets.UTF_8), -1, false);
    }

    /** The first segment of a path (the board). */
    static String board(String path) {
        int slash = path.indexOf('/', 1);
        return slash < 0 ? path.substring(1) : path.substring(1, slash);
    }

    /** Home Assistant's ids take [a-zA-Z0-9_-]: everything else becomes _. */
    static String safe(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_' ? c : '_');
        }
        return b.toString();
    }
}
