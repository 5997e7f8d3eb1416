package io.spectrum.bridge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.ValueText;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The one renderer of a value as a JSON object, shared by the CLI's {@code --json} lines
 * ({@code read}, {@code ls}, {@code sub}, {@code write}) and the MQTT bridge's payloads, so both
 * carry the same field names.
 *
 * <p>Every object carries the common keys, {@code null} where they do not apply: {@code ts} (when
 * it was rendered, ISO-8601 UTC, milliseconds), {@code path}, {@code value} (the value in its
 * declared unit, a JSON number when it is one, else its text), {@code unit} (the declared unit as
 * people write it, {@code °C}), {@code raw} (the raw integer of a VALUE), {@code seq} and
 * {@code stale} (the node's stamp, on deliveries). {@link #value} adds {@code ucum}, {@code text}
 * and {@code number} as well.
 */
public final class ValueJson {
    /** The mapper every JSON line is made and printed with. */
    public static final ObjectMapper JSON = new ObjectMapper();

    private static final String[] COMMON = {"value", "unit", "raw", "seq", "stale"};

    private ValueJson() { }

    /** A JSON object with every common key present: {@code ts} now, {@code path}, the rest null. */
    public static ObjectNode line(String path) {
        ObjectNode o = JSON.createObjectNode();
        o.put("ts", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
        o.put("path", path);
        for (String k : COMMON) {
            o.putNull(k);
        }
        return o;
    }

    /** Adds the value fields of {@code v} to {@code o}. */
    public static void value(ObjectNode o, ValueText v) {
        if (v.numeric()) {
            o.put("value", v.value());
            o.put("number", v.number());
        } else {
            o.put("value", v.text());
        }
        if (!v.unit().isEmpty()) {
            o.put("unit", v.unit());
        }
        if (v.ucum() != null) {
            o.put("ucum", v.ucum());
        }
        if (v.raw() != null) {
            o.put("raw", v.raw());
        }
        o.put("text", v.text());
    }

    /** The node's stamp on a delivery: {@code seq}, {@code stale}. */
    public static void stamp(ObjectNode o, long seq, boolean stale) {
        stamp(o, seq, stale, null);
    }

    /**
     * The node's stamp on a value: {@code seq}, {@code stale}, and for a stale value with a reason
     * {@code reason} (why it is not current, io.spectrum.wire.StaleReason; absent otherwise).
     */
    public static void stamp(ObjectNode o, long seq, boolean stale, String reason) {
        o.put("seq", seq);
        o.put("stale", stale);
        if (stale && reason != null) {
            o.put("reason", reason);
        }
    }

    /**
     * The stamp as a text line shows it after the value: {@code seq 5}, {@code seq 5, stale} or
     * {@code seq 5, stale: board away} (the reason when there is one).
     */
    public static String stampText(long seq, boolean stale, String reason) {
        return "seq " + seq + (stale ? (reason != null ? ", stale: " + reason : ", stale") : "");
    }
}
