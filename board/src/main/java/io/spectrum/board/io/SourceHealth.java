package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.wire.StaleReason;

import java.nio.charset.StandardCharsets;

/**
 * Whether a source's vertex shows a current value (docs/board.md, "When a source fails"). A failed
 * read marks the vertex stale with the reason ({@code i2c 1/0x48 reg 0: read 0 of 2 bytes}), so
 * {@code read}, {@code sub}, the dashboard and MQTT show the last value as stale and why; the next
 * good publish clears the mark. The board's log gets one line per change of state (failing, failing
 * for another reason, working again), not one per period, so a loose sensor does not flood it.
 * Node thread only.
 */
final class SourceHealth {
    private final String source;
    /** Why the source fails now, or null while it works. */
    private String failing;

    /** @param source what the source is, for its reasons: {@link Binding#describe()} */
    SourceHealth(String source) {
        this.source = source;
    }

    /** A read failed because of {@code why}: marks the vertex stale and logs, both once per change of reason. */
    void failed(AppVertex vertex, String why) {
        String w = why == null || why.isBlank() ? "failed" : why.replace('\n', ' ');
        String reason = source + ": " + w;
        if (reason.equals(failing)) {
            return;
        }
        failing = reason;
        vertex.markStale(fit(source, w));
        System.err.println("board: " + vertex.path() + ": " + reason + " (marked stale until a read works)");
    }

    /**
     * The reason as the node can hold it ({@link StaleReason#MAX_BYTES}): the node cuts a longer one
     * at its end, which is the part that says what went wrong, so a long source (a deep file path)
     * is shortened in its middle instead: {@code file .../sensors/level.txt: not a number: "garbage"}.
     */
    static String fit(String source, String why) {
        String full = source + ": " + why;
        int over = full.getBytes(StandardCharsets.UTF_8).length - StaleReason.MAX_BYTES;
        int space = source.indexOf(' ');
        if (over <= 0 || space < 0) {
            return full;
        }
        String what = source.substring(space + 1);
        int keep = what.length() - over - 3;
        if (keep < 8 || what.length() != what.getBytes(StandardCharsets.UTF_8).length) {
            return full; // nothing sensible to keep of it, or not plain text: the node cuts the end
        }
        return source.substring(0, space + 1) + "..." + what.substring(what.length() - keep) + ": " + why;
    }

    /** A read worked and was published (which cleared any stale mark): logs the recovery once. */
    void worked(AppVertex vertex) {
        if (failing != null) {
            failing = null;
            System.err.println("board: " + vertex.path() + ": " + source + " works again");
        }
    }

    /** The reason the source fails now, or null while it works. */
    String failing() {
        return failing;
    }
}
