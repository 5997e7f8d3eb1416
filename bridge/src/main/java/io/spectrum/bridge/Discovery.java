package io.spectrum.bridge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.ValueFormat;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.TlvType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Home Assistant MQTT discovery ({@code --mqtt-discovery}; docs/mqtt.md, "Home Assistant
 * discovery"): for each declared VALUE vertex one retained config under
 * {@code homeassistant/<component>/spectrum_<host>/<object>/config}, made from its declaration (so
 * a vertex that has not published yet is announced too):
 *
 * <ul>
 *   <li>writable (named by {@code --mqtt-writable} and declared writable) with range 0..1 in whole
 *       steps: a {@code switch} writing {@code 1} / {@code 0} to its {@code …/set};</li>
 *   <li>any other writable one: a {@code number} with {@code min}, {@code max} and {@code step} from the
 *       declaration (its range, else its width's, in its unit);</li>
 *   <li>read-only with range 0..1: a {@code binary_sensor};</li>
 *   <li>any other: a {@code sensor} with {@code state_class} {@code measurement}.</li>
 * </ul>
 *
 * Each carries the {@code device_class} its unit says ({@link #deviceClass}), the declaration's
 * description as its {@code name}, {@code unique_id} {@code spectrum_<host>_<object>} (as before),
 * {@code default_entity_id} {@code <component>.<slug>} (Home Assistant 2025.10 replaced
 * {@code object_id} by it; {@code object_id} stops working in 2026.4), and two availability topics
 * with {@code availability_mode: all}: the bridge's {@code $online} and the board's. A vertex that
 * used to be announced as another component (a read-only 0..1 was a {@code sensor}, a writable range
 * a {@code sensor}) has that older config cleared, so Home Assistant keeps one entity per vertex.
 */
final class Discovery {
    static final String PREFIX = "homeassistant";

    private final Topics topics;

    Discovery(Topics topics) {
        this.topics = topics;
    }

    /** The component a vertex is announced as, or null for none (no declaration, not a VALUE). */
    static String component(VertexSchema schema, boolean writable) {
        if (schema == null || schema.type() != TlvType.VALUE) {
            return null;
        }
        boolean toggle = schema.ranged() && schema.min() == 0 && schema.max() == 1 && schema.scale() == 1.0
                && schema.offset() == 0.0;
        if (writable) {
            return toggle ? "switch" : "number";
        }
        return toggle ? "binary_sensor" : "sensor";
    }

    /**
     * The messages announcing {@code path}: its config, preceded by the clearing of the config an
     * earlier bridge published under another component; empty when it gets none (or with raw payloads,
     * which carry no JSON value for the template to read).
     */
    List<Outgoing> configs(String path, VertexSchema schema, boolean writable, boolean raw) {
        String component = component(schema, writable);
        if (component == null || raw) {
            return List.of();
        }
        List<Outgoing> out = new ArrayList<>(2);
        String earlier = writable && component.equals("switch") ? "switch" : "sensor"; // the components this bridge used to pick
        if (!earlier.equals(component)) {
            out.add(Outgoing.clear(topic(earlier, path)));
        }
        out.add(Outgoing.state(topic(component, path), config(path, schema, component).toString()
                .getBytes(StandardCharsets.UTF_8), -1, false));
        return out;
    }

    /** The config topic of {@code path} as {@code component}. */
    String topic(String component, String path) {
        return PREFIX + "/" + component + "/" + node() + "/" + safe(path.substring(1)) + "/config";
    }

    private String node() {
        return "spectrum_" + safe(topics.host());
    }

    /** The config object of {@code path} as {@code component}. */
    ObjectNode config(String path, VertexSchema schema, String component) {
        String state = topics.state(path);
        String id = node() + "_" + safe(path.substring(1));
        ObjectNode c = JsonLines.JSON.createObjectNode();
        c.put("name", schema.description() == null || schema.description().isBlank() ? path : schema.description());
        c.put("unique_id", id);
        c.put("default_entity_id", component + "." + slug(id));
        c.put("state_topic", state);
        c.put("value_template", "{{ value_json.value }}");
        ArrayNode availability = c.putArray("availability");
        for (String topic : new String[] {topics.online(), topics.boardOnline(board(path))}) {
            ObjectNode a = availability.addObject();
            a.put("topic", topic);
            a.put("payload_available", "true");
            a.put("payload_not_available", "false");
        }
        c.put("availability_mode", "all");
        String deviceClass = deviceClass(schema, path);
        String unit = schema.unitSymbol();
        switch (component) {
            case "switch" -> {
                c.put("command_topic", state + Topics.SET);
                c.put("payload_on", "1");
                c.put("payload_off", "0");
                c.put("state_on", "1");
                c.put("state_off", "0");
            }
            case "binary_sensor" -> {
                c.put("payload_on", "1");
                c.put("payload_off", "0");
            }
            case "number" -> {
                c.put("command_topic", state + Topics.SET);
                c.put("min", plain(ValueFormat.lowest(schema)));
                c.put("max", plain(ValueFormat.highest(schema)));
                c.put("step", plain(ValueFormat.step(schema)));
                if (deviceClass != null) {
                    c.put("device_class", deviceClass);
                }
                if (!unit.isEmpty()) {
                    c.put("unit_of_measurement", unit);
                }
            }
            default -> {
                if (deviceClass != null) {
                    c.put("device_class", deviceClass);
                }
                c.put("state_class", "energy".equals(deviceClass) ? "total_increasing" : "measurement");
                if (!unit.isEmpty()) {
                    c.put("unit_of_measurement", unit);
                }
                int decimals = ValueFormat.step(schema).scale();
                if (decimals > 0) {
                    c.put("suggested_display_precision", decimals);
                }
            }
        }
        ObjectNode device = c.putObject("device");
        String board = board(path);
        boolean peer = board.equals(Topics.PEER); // a board bridged directly: the device is the peer itself
        device.putArray("identifiers").add(peer ? node() : node() + "_" + safe(board));
        device.put("name", peer ? topics.host() : topics.host() + " " + board);
        device.put("manufacturer", "Spectrum");
        c.putObject("origin").put("name", "Spectrum MQTT bridge");
        return c;
    }

    /**
     * The Home Assistant {@code device_class} of a vertex's unit (the declared UCUM code), or null
     * when it says none: temperature (°C, °F, K), humidity ({@code %} with "humid" in the description
     * or path; a bare {@code %} says nothing), battery ({@code %}, "batt"), pressure (Pa, hPa, kPa,
     * bar, mbar), voltage (V, mV), current (A, mA), power (W, kW), energy (Wh, kWh), illuminance (lx),
     * frequency (Hz, kHz), distance (mm, cm, m, km), duration (ms, s, min, h), weight (g, kg). Each
     * unit's symbol is one Home Assistant accepts for that class.
     */
    static String deviceClass(VertexSchema schema, String path) {
        String u = schema.unit();
        if (u == null) {
            return null;
        }
        String about = ((schema.description() == null ? "" : schema.description()) + " " + path).toLowerCase(Locale.ROOT);
        return switch (u) {
            case "Cel", "[degF]", "K" -> "temperature";
            case "%" -> about.contains("humid") ? "humidity" : about.contains("batt") ? "battery" : null;
            case "Pa", "hPa", "kPa", "bar", "mbar" -> "pressure";
            case "V", "mV" -> "voltage";
            case "A", "mA" -> "current";
            case "W", "kW" -> "power";
            case "Wh", "kWh" -> "energy";
            case "lx" -> "illuminance";
            case "Hz", "kHz" -> "frequency";
            case "mm", "cm", "m", "km" -> "distance";
            case "ms", "s", "min", "h" -> "duration";
            case "g", "kg" -> "weight";
            default -> null;
        };
    }

    private static BigDecimal plain(BigDecimal d) {
        return d.scale() < 0 ? d.setScale(0) : d;
    }

    /** The first segment of a path (the board). */
    static String board(String path) {
        return BoardPresence.board(path);
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

    /**
     * An entity id's object part as Home Assistant accepts it: lower case letters, digits and single
     * underscores, none at either end.
     */
    static String slug(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = Character.toLowerCase(s.charAt(i));
            boolean keep = c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
            if (keep) {
                b.append(c);
            } else if (b.length() > 0 && b.charAt(b.length() - 1) != '_') {
                b.append('_');
            }
        }
        while (b.length() > 0 && b.charAt(b.length() - 1) == '_') {
            b.setLength(b.length() - 1);
        }
        return b.length() == 0 ? "spectrum" : b.toString();
    }
}
