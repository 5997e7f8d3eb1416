package io.spectrum.client;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ObjDoubleConsumer;
import java.util.function.ObjLongConsumer;

/**
 * The one renderer of a value as people and scripts see it, everywhere: the CLI's {@code read},
 * {@code sub}, {@code record} and {@code history} lines (text, JSON and CSV), the MQTT bridge's
 * payloads (docs/mqtt.md "Payloads"), the dashboard's vertices and the history store's answers. A
 * value comes rendered by its declaration ({@link ValueFormat}: {@code 23.28 °C}); this class owns
 * what goes around it: the unit, the node's stamp (seq, the stale mark and its reason, the origin
 * time and the age it gives), their JSON keys and when each is present, the text line and the CSV row.
 *
 * <p>JSON goes into {@link Fields}, a JSON object of whichever library the caller writes with, in
 * the order of the calls ({@link #fields} makes one from a library's own put methods). The keys:
 * every line carries the common ones, {@code null} where they do not apply ({@link #common}):
 * {@code ts} (ISO-8601 UTC), {@code path}, {@code value} (in its declared unit, a JSON number when
 * it is one, else its text), {@code unit} (as people write it, {@code °C}), {@code raw} (the raw
 * integer of a VALUE), {@code seq} and {@code stale} (the node's stamp); {@link #value} adds
 * {@code number}, {@code ucum} and {@code text}; {@link #stamp} adds {@code reason} to a stale value
 * that has one and {@code origin} to a value that has one.
 */
public final class ValueLine {
    /** The keys after {@code ts} and {@code path} that every JSON line carries, null where they do not apply. */
    public static final List<String> COMMON = List.of("value", "unit", "raw", "seq", "stale");

    private ValueLine() { }

    /**
     * A JSON object being written: each call adds {@code key} (or replaces it in place), in call order.
     * A null String or number writes JSON null.
     */
    public interface Fields {
        /** {@code key}: a JSON string, or null. */
        void put(String key, String value);

        /** {@code key}: a JSON integer. */
        void put(String key, long value);

        /** {@code key}: {@code true} or {@code false}. */
        void put(String key, boolean value);

        /** {@code key}: a JSON number. */
        void put(String key, double value);

        /** {@code key}: a JSON number exactly as the decimal is ({@code 23.20} keeps its zero). */
        void put(String key, BigDecimal value);

        /** {@code key}: a JSON integer of any size. */
        void put(String key, BigInteger value);

        /** {@code key}: JSON null. */
        void putNull(String key);
    }

    /**
     * A {@link Fields} made of a JSON library's own put methods; with Jackson's {@code ObjectNode o}:
     * {@code fields(o::put, o::put, o::put, o::put, o::put, o::put, o::putNull)}.
     */
    public static Fields fields(BiConsumer<String, String> text, ObjLongConsumer<String> whole,
                                BiConsumer<String, Boolean> bool, ObjDoubleConsumer<String> real,
                                BiConsumer<String, BigDecimal> decimal, BiConsumer<String, BigInteger> integer,
                                Consumer<String> nul) {
        return new Fields() {
            @Override
            public void put(String key, String value) {
                text.accept(key, value);
            }

            @Override
            public void put(String key, long value) {
                whole.accept(key, value);
            }

            @Override
            public void put(String key, boolean value) {
                bool.accept(key, value);
            }

            @Override
            public void put(String key, double value) {
                real.accept(key, value);
            }

            @Override
            public void put(String key, BigDecimal value) {
                decimal.accept(key, value);
            }

            @Override
            public void put(String key, BigInteger value) {
                integer.accept(key, value);
            }

            @Override
            public void putNull(String key) {
                nul.accept(key);
            }
        };
    }

    // ---- JSON -------------------------------------------------------------------------------------

    /** A time in ms since the epoch as ISO-8601 UTC text ({@code 2026-12-03T11:37:10.123Z}), every line's {@code ts}. */
    public static String ts(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString();
    }

    /** The common keys: {@code ts} at {@code epochMs}, {@code path} (null: none), the rest ({@link #COMMON}) null. */
    public static void common(Fields o, String path, long epochMs) {
        o.put("ts", ts(epochMs));
        o.put("path", path);
        for (String k : COMMON) {
            o.putNull(k);
        }
    }

    /**
     * The value fields of {@code v}: {@code value} (a number in its unit, or the text), {@code number}
     * for a number, {@code unit} with one, {@code ucum} when declared, {@code raw} for a VALUE, and
     * {@code text}, what the text line shows.
     */
    public static void value(Fields o, ValueText v) {
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

    /**
     * The node's stamp on a value: {@code seq}, {@code stale}, {@code reason} for a stale value with
     * one (why it is not current, io.spectrum.wire.StaleReason; absent otherwise) and {@code origin}
     * when the stamp carries one: ms since the Unix epoch when the value entered the fabric (its first
     * host's clock; docs/extensions.md "Origin time"), absent at 0.
     */
    public static void stamp(Fields o, long seq, boolean stale, String reason, long origin) {
        o.put("seq", seq);
        o.put("stale", stale);
        if (stale && reason != null) {
            o.put("reason", reason);
        }
        if (origin > 0) {
            o.put("origin", origin);
        }
    }

    /**
     * A value without the node's stamp (read, not delivered) that is known not to be current:
     * {@code stale} true, with {@code reason} when there is one; {@code seq} stays null.
     */
    public static void staleWithoutStamp(Fields o, String reason) {
        o.put("stale", true);
        if (reason != null) {
            o.put("reason", reason);
        }
    }

    /**
     * A vertex as the dashboard lists it: {@code value} the text ({@code 23.20 °C}), {@code numeric},
     * {@code number} when numeric (drives a chart), {@code unit} with one, {@code seq}, {@code stale},
     * {@code reason} for a stale value with one, and {@code origin} (ms, or null without one).
     */
    public static void summary(Fields o, String text, boolean numeric, double number, String unit, long seq,
                               boolean stale, String reason, long origin) {
        o.put("value", text);
        o.put("numeric", numeric);
        if (numeric) {
            o.put("number", number);
        }
        if (!unit.isEmpty()) {
            o.put("unit", unit);
        }
        o.put("seq", seq);
        o.put("stale", stale);
        if (stale && reason != null) {
            o.put("reason", reason);
        }
        if (origin > 0) {
            o.put("origin", origin);
        } else {
            o.putNull("origin");
        }
    }

    // ---- text -------------------------------------------------------------------------------------

    /** The text line of a value: {@code /temp = 23.28 °C}, and {@code  (STAMP)} after it when {@code stamp} is not null. */
    public static String text(String path, String value, String stamp) {
        return path + " = " + value + (stamp == null ? "" : "  (" + stamp + ")");
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

    // ---- CSV --------------------------------------------------------------------------------------

    /** A CSV header: the columns, comma-separated. */
    public static String csvHeader(List<String> columns) {
        return String.join(",", columns);
    }

    /**
     * A CSV row of a JSON line: each column's value as text ({@code cell}: null for a key absent or
     * null, which is an empty cell), quoted where it holds a comma, a quote or a line break.
     */
    public static String csvRow(List<String> columns, Function<String, String> cell) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            String v = cell.apply(columns.get(i));
            b.append(v == null ? "" : csv(v));
        }
        return b.toString();
    }

    /** One CSV cell: as is, or in quotes (inner quotes doubled) when it holds a comma, a quote or a line break. */
    public static String csv(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
                ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }
}
