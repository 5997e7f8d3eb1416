package io.spectrum.cli.output;

import io.spectrum.host.runtime.HostService;
import io.spectrum.host.view.LinkView;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code spectrum host} prints as its boards come and go: {@code board1 up}, {@code board1 down
 * (no answer for 5 s)}, and once a warning for a board that never answered within the link timeout.
 * Fed the host's link views once a second from the host command's loop.
 */
public final class BoardStates {
    private final List<HostService.Board> boards;
    private final long timeoutMillis;
    private final long startNanos;
    private final Map<String, Boolean> up = new HashMap<>();
    private boolean warned;

    /** Watches {@code boards}, warning once for a board not answering {@code timeoutMillis} after {@code startNanos}. */
    public BoardStates(List<HostService.Board> boards, long timeoutMillis, long startNanos) {
        this.boards = boards;
        this.timeoutMillis = timeoutMillis;
        this.startNanos = startNanos;
    }

    /** Prints each board whose state changed since the last call (and the one-time warning) to {@code out}. */
    public void print(List<LinkView> links, long nowNanos, PrintWriter out) {
        for (HostService.Board b : boards) {
            String link = b.link().name();
            Boolean now = links.stream().filter(l -> l.name().equals(link)).map(LinkView::up).findFirst().orElse(null);
            if (now == null) {
                continue;
            }
            Boolean before = up.put(b.name(), now);
            if (now && !Boolean.TRUE.equals(before)) {
                out.println(b.name() + " up");
            } else if (!now && Boolean.TRUE.equals(before)) {
                out.println(b.name() + " down (no answer for " + seconds(timeoutMillis) + ")");
            }
        }
        if (!warned && nowNanos - startNanos >= timeoutMillis * 1_000_000L) {
            warned = true;
            for (HostService.Board b : boards) {
                if (!Boolean.TRUE.equals(up.get(b.name()))) {
                    out.println("warning: " + b.name() + " (" + b.link().name() + ") has not answered in "
                            + seconds(timeoutMillis) + "; is a board running there?");
                }
            }
        }
        out.flush();
    }

    static String seconds(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis / 1000.0 + " s";
    }
}
