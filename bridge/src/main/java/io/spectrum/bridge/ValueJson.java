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
     * {@link #stamp(ObjectNode, long, boolean, String)} plus the value's origin time, {@code origin}: ms
     * since the Unix epoch when the value entered the fabric (its first host's clock; docs/extensions.md
     * "Origin time"), absent when the stamp carries none.
     */
    public static void stamp(ObjectNode o, long seq, boolean stale, String reason, long origin) {
        stamp(o, seq, stale, reason);
        if (origin > 0) {
            o.put("origin", origin);
        }
    }

    /**
     * The stamp as a text line shows it after the value: {@code seq 5}, {@code seq 5, stale} or
     * {@code seq 5, stale: board away} (the reason when there is one).
     */
    public static String stampText(long seq, boolean stale, String reason) {
        return stampText(seq, stale, reason, 0, 0);
    }

    /**
     * {@link #stampText(long, boolean, String)} with the value's age after the sequence when it is a
     * second old or more at {@code nowMs}: {@code seq 5, 3 s ago}, {@code seq 5, 2 min ago, stale: board
     * away} ({@link #age}).
     */
    public static String stampText(long seq, boolean stale, String reason, long origin, long nowMs) {
        String age = age(origin, nowMs);
        return "seq " + seq + (age.isEmpty() ? "" : ", " + age)
                + (stale ? (reason != null ? ", stale: " + reason : ", stale") : "");
    }

    /**
     * How old a value whose origin time is {@code origin} (ms since the Unix epoch) is at {@code nowMs},
     * as people say it: {@code 3 s ago}, {@code 2 min ago}, {@code 5 h ago}, {@code 3 d ago}, whole units
     * rounded down; "" without an origin or under a second (a clock behind the origin's reads as under
     * a second: nothing is claimed).
     */
    public static String age(long origin, long nowMs) {
        long ms = nowMs - origin;
        if (origin <= 0 || ms < 1000) {
            return "";
        }
        long s = ms / 1000;
        if (s < 60) {
            return s + " s ago";
        }
        if (s < 3600) {
            return s / 60 + " min ago";
        }
        if (s < 48 * 3600) {
            return s / 3600 + " h ago";
        }
        return s / 86400 + " d ago";
    }
}
