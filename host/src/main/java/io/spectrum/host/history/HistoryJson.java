package io.spectrum.host.history;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.bridge.JsonLines;
import io.spectrum.client.ValueLine;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A history row or bucket as a JSON object and as a text line (one owner for the dashboard's
 * {@code GET /api/history?path=…} and {@code spectrum history}). A row's object is the value line
 * every client command prints ({@link ValueLine}: {@code ts}, {@code path}, {@code value},
 * {@code unit}, {@code raw}, {@code seq}, {@code stale}, {@code reason}, {@code text}), with
 * {@code ts} the row's time; a bucket's has {@code value} (the mean), {@code unit}, {@code min},
 * {@code mean}, {@code max}, {@code last} and {@code n}.
 */
public final class HistoryJson {
    private HistoryJson() { }

    /** One stored row as a JSON line: the value fields {@code spectrum sub --json} prints, with the row's {@code ts}, {@code seq}, {@code stale} and reason. */
    public static ObjectNode row(HistoryRow r) {
        ObjectNode o = JsonLines.JSON.createObjectNode();
        ValueLine.Fields f = JsonLines.fields(o);
        ValueLine.common(f, r.path(), r.t());
        ValueLine.value(f, r.value());
        ValueLine.stamp(f, r.seq(), r.stale(), r.reason(), 0);
        return o;
    }

    /** {@code 2026-12-03T10:00:00Z /board1/temp = 23.28 °C  (seq 5, stale: board away)} */
    public static String rowText(HistoryRow r) {
        return ValueLine.ts(r.t()) + " " + ValueLine.text(r.path(), r.value().text(), ValueLine.stampText(r.seq(), r.stale(), r.reason()));
    }

    /** One downsampled bucket as a JSON line: {@code value} is the mean, with {@code min}, {@code max}, {@code last} and the count {@code n}, at the bucket's start {@code ts}. */
    public static ObjectNode bucket(HistoryBucket b) {
        ObjectNode o = JsonLines.JSON.createObjectNode();
        ValueLine.common(JsonLines.fields(o), b.path(), b.t());
        o.put("value", b.mean());
        if (!b.unit().isEmpty()) {
            o.put("unit", b.unit());
        }
        o.put("min", b.min());
        o.put("mean", b.mean());
        o.put("max", b.max());
        o.put("last", b.last());
        o.put("n", b.n());
        return o;
    }

    /** {@code 2026-12-03T10:00:00Z /board1/temp  min 21.5 °C  mean 22.013 °C  max 23 °C  last 22.5 °C  (n 60)} */
    public static String bucketText(HistoryBucket b) {
        String u = b.unit().isEmpty() ? "" : " " + b.unit();
        return ValueLine.ts(b.t()) + " " + b.path() + "  min " + number(b.min()) + u + "  mean " + number(b.mean()) + u + "  max "
                + number(b.max()) + u + "  last " + number(b.last()) + u + "  (n " + b.n() + ")";
    }

    /** A summary number as text: at most three decimals, no trailing zeros. */
    public static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return String.valueOf(d);
        }
        return BigDecimal.valueOf(d).setScale(3, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }
}
