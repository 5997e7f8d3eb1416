package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;

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
        String reason = source + ": " + (why == null || why.isBlank() ? "failed" : why.replace('\n', ' '));
        if (reason.equals(failing)) {
            return;
        }
        failing = reason;
        vertex.markStale(reason);
        System.err.println("board: " + vertex.path() + ": " + reason + " (marked stale until a read works)");
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
