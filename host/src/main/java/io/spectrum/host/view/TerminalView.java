package io.spectrum.host.view;

import io.spectrum.client.ValueLine;
import io.spectrum.stats.CounterNames;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Text renderings of a {@link HostSnapshot} for the terminal: a full table (redrawn in place on an
 * interactive terminal) and change lines (one per new value, for pipes, logs and tests).
 */
public final class TerminalView {
    private static final String CLEAR = "\033[H\033[2J";

    private final Map<String, Long> lastSeq = new HashMap<>();
    private final Map<String, Boolean> lastStale = new HashMap<>();

    /** The whole picture as a table; {@code ansi} prefixes the clear-screen sequence. */
    public static String table(HostSnapshot s, String footer, boolean ansi) {
        StringBuilder b = new StringBuilder();
        if (ansi) {
            b.append(CLEAR);
        }
        b.append(String.format("%s   %d vertices, %d links%n", s.node(), s.vertices().size(), s.links().size()));
        b.append(String.format("%-28s %-16s %8s  %-22s%n", "PATH", "VALUE", "SEQ", "SUBSCRIBERS"));
        for (VertexView v : s.vertices()) {
            b.append(String.format("%-28s %-16s %8d  %-22s%s%n", v.path(), clip(v.value(), 16), v.seq(),
                    subscribers(v.subscribers()), v.stale() ? "  STALE" : ""));
        }
        for (LinkView l : s.links()) {
            b.append(String.format("link %-30s %-4s %s%n", l.name(), l.up() ? "up" : l.listener() ? "listening" : "DOWN", counters(l.counters())));
        }
        if (footer != null && !footer.isEmpty()) {
            b.append(footer).append(System.lineSeparator());
        }
        return b.toString();
    }

    /**
     * One line per vertex whose sequence or stale flag changed since the previous call, e.g.
     * {@code /board1/temp = 21.4  (seq 17)}, {@code /board1/temp = 21.4  (seq 17, stale: board away)}
     * ({@link ValueLine}, as {@code spectrum sub} prints it). The first call reports every vertex with a value.
     */
    public List<String> changes(HostSnapshot s) {
        List<String> out = new ArrayList<>();
        for (VertexView v : s.vertices()) {
            Long seq = lastSeq.put(v.path(), v.seq());
            Boolean stale = lastStale.put(v.path(), v.stale());
            boolean newValue = v.seq() > 0 && (seq == null || seq != v.seq());
            boolean staleChanged = stale != null && stale != v.stale();
            if (newValue || staleChanged) {
                out.add(ValueLine.text(v.path(), v.value(), ValueLine.stampText(v.seq(), v.stale(), v.reason())));
            }
        }
        return out;
    }

    static String subscribers(List<SlotView> subs) {
        if (subs.isEmpty()) {
            return "-";
        }
        long suspended = subs.stream().filter(SlotView::suspended).count();
        return subs.size() + (suspended > 0 ? " (" + suspended + " suspended)" : "");
    }

    /** in/out frames, drops summed, reconnects when the link has them; else every counter. */
    static String counters(Map<String, Long> counters) {
        if (counters.containsKey(CounterNames.FRAMES_IN) && counters.containsKey(CounterNames.FRAMES_OUT)) {
            long dropped = counters.entrySet().stream().filter(e -> e.getKey().startsWith(CounterNames.DROPPED))
                    .mapToLong(Map.Entry::getValue).sum();
            return "in=" + counters.get(CounterNames.FRAMES_IN) + " out=" + counters.get(CounterNames.FRAMES_OUT)
                    + " dropped=" + dropped + " reconnects=" + counters.getOrDefault(CounterNames.RECONNECTS, 0L);
        }
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Long> e : counters.entrySet()) {
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(e.getKey()).append('=').append(e.getValue());
        }
        return b.toString();
    }

    private static String clip(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }
}
