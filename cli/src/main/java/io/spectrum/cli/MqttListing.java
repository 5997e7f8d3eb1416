package io.spectrum.cli;

import io.spectrum.bridge.BrokerAddress;
import io.spectrum.bridge.BrokerView;
import io.spectrum.bridge.Topics;
import io.spectrum.cli.output.OutputFormat;
import io.spectrum.cli.output.ValuePrinter;
import io.spectrum.client.ValueLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code spectrum ls --mqtt URL} and {@code spectrum sub --mqtt URL PATTERN}: the fabric as the
 * broker holds it, every host's bridged boards together, under fabric paths {@code /<host>/<board>/…}
 * (the topic without {@code spectrum}). Patterns take MQTT's wildcards: {@code /+/board1/#}.
 */
final class MqttListing {
    /** How long {@code ls} waits for the next retained message before it takes the listing as complete. */
    static final long QUIET_MS = 700;
    private static final long MAX_MS = 10_000;
    private static final String ROW = "%-40s %-20s %s%n";

    private MqttListing() { }

    /** Lists every retained value under {@code patterns} (default all), sorted by path. */
    static int ls(BrokerAddress address, List<String> patterns, OutputFormat format, PrintWriter out,
                  PrintWriter err) throws InterruptedException {
        Map<String, BrokerView.Value> all = new TreeMap<>();
        for (String p : patterns.isEmpty() ? List.of("/#") : patterns) {
            try (BrokerView v = BrokerView.open(address, Topics.filter(p))) {
                long end = System.currentTimeMillis() + MAX_MS;
                for (BrokerView.Value x = v.next(QUIET_MS); x != null && System.currentTimeMillis() < end; x = v.next(QUIET_MS)) {
                    if (x.retained()) {
                        all.put(x.path(), x);
                    }
                }
            } catch (IOException e) {
                err.println("spectrum ls: " + e.getMessage());
                err.flush();
                return 1;
            }
        }
        ValuePrinter printer = new ValuePrinter(out, format);
        if (format == OutputFormat.text) {
            out.printf(ROW, "PATH", "VALUE", "SEQ");
        }
        for (BrokerView.Value x : all.values()) {
            printer.print(x.json(), String.format(ROW, x.path(), x.text(), seq(x)).stripTrailing());
        }
        out.flush();
        return 0;
    }

    /** Follows {@code patterns} on the broker, each message a line, until {@code count} / {@code seconds} (0: no limit). */
    static int sub(BrokerAddress address, List<String> patterns, long count, long seconds, OutputFormat format,
                   PrintWriter out, PrintWriter err) throws InterruptedException {
        ValuePrinter printer = new ValuePrinter(out, format);
        long end = seconds > 0 ? System.nanoTime() + seconds * 1_000_000_000L : Long.MAX_VALUE;
        java.util.List<BrokerView> views = new java.util.ArrayList<>();
        try {
            for (String p : patterns) {
                views.add(BrokerView.open(address, Topics.filter(p)));
            }
            long seen = 0;
            while (!Thread.currentThread().isInterrupted() && (count == 0 || seen < count) && System.nanoTime() < end) {
                boolean any = false;
                for (BrokerView v : views) {
                    BrokerView.Value x = v.next(views.size() == 1 ? 100 : 10);
                    if (x != null && (count == 0 || seen < count)) {
                        any = true;
                        seen++;
                        printer.print(x.json(), ValueLine.text(x.path(), x.text(), x.json().path("seq").isNumber()
                                ? ValueLine.stampText(x.json().get("seq").asLong(), x.json().path("stale").asBoolean(),
                                        x.json().path("reason").isTextual() ? x.json().get("reason").asText() : null)
                                : null));
                    }
                }
                if (!any && views.isEmpty()) {
                    return 0;
                }
            }
            return 0;
        } catch (IOException e) {
            err.println("spectrum sub: " + e.getMessage());
            err.flush();
            return 1;
        } finally {
            views.forEach(BrokerView::close);
        }
    }

    private static String seq(BrokerView.Value x) {
        return x.json().path("seq").isNumber() ? x.json().get("seq").asText() : "";
    }
}
