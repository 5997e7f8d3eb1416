package io.spectrum.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.spectrum.client.ValueLine;

import java.io.PrintWriter;
import java.util.List;

/**
 * Prints value lines in the {@code --format} asked for: text (the line the command composed), JSON
 * lines ({@link ClientOutput#line}: ts, path, value, unit, raw, seq, stale, plus the command's own
 * keys) or CSV (the common keys as columns, then {@code error}; a header line first).
 */
public final class ValuePrinter {
    static final List<String> CSV_COLUMNS = List.of("ts", "path", "value", "unit", "raw", "seq", "stale", "error");

    private final PrintWriter out;
    private final OutputFormat format;
    private final List<String> columns;
    private boolean header;

    /** Prints to {@code out} in {@code format}, CSV with the client commands' columns. */
    public ValuePrinter(PrintWriter out, OutputFormat format) {
        this(out, format, CSV_COLUMNS);
    }

    /** With CSV columns of the caller's (the JSON line's keys it prints; {@code spectrum history}'s rows and buckets). */
    public ValuePrinter(PrintWriter out, OutputFormat format, List<String> columns) {
        this.out = out;
        this.format = format;
        this.columns = List.copyOf(columns);
    }

    /** One record: {@code json} carries the keys, {@code text} is the text line. */
    public void print(ObjectNode json, String text) {
        switch (format) {
            case json -> out.println(json);
            case csv -> {
                if (!header) {
                    header = true;
                    out.println(ValueLine.csvHeader(columns));
                }
                out.println(csvRow(json, columns));
            }
            default -> out.println(text);
        }
        out.flush();
    }

    static String csvRow(JsonNode o) {
        return csvRow(o, CSV_COLUMNS);
    }

    /** The CSV row of a JSON line ({@link ValueLine#csvRow}): each column's value as text, empty for null or absent. */
    static String csvRow(JsonNode o, List<String> columns) {
        return ValueLine.csvRow(columns, k -> {
            JsonNode v = o.get(k);
            return v == null || v.isNull() ? null : v.asText();
        });
    }
}
