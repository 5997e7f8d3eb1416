package io.spectrum.host.history;

import io.spectrum.client.ValueText;

/**
 * One stored value of a vertex: its path, the time it was stamped at its origin (the host's receipt
 * time on the host's clock when no origin is known), epoch ms, the value as {@link ValueText}
 * (in its declared unit, with the raw integer and the unit), its sequence (a board's value: the board's own,
 * as its stamp carried it; a host vertex's: the host's), and whether it was stale then, with the reason.
 * A gap row ({@link #gap}) says which board values the history will never hold.
 */
public record HistoryRow(String path, long t, ValueText value, long seq, boolean stale, String reason) {
    /** How a gap row's reason starts: board values the history will never hold (docs/host.md "Backfill"). */
    public static final String GAP = "not kept by the board";

    /**
     * The row that marks board sequences {@code from..to} of {@code path} missing from the history (the
     * board's ring no longer held them): no value, stale, its seq the first missing one, its reason
     * {@code not kept by the board: seq FROM..TO (N values)}.
     */
    public static HistoryRow gap(String path, long t, long from, long to) {
        return new HistoryRow(path, t, ValueText.NONE, from, true,
                GAP + ": seq " + from + (to > from ? ".." + to : "") + " (" + (to - from + 1) + " value" + (to > from ? "s" : "") + ")");
    }

    /** True for a gap row ({@link #gap}). */
    public boolean isGap() {
        return stale && value.value() == null && value.text().isEmpty() && reason != null && reason.startsWith(GAP);
    }
}
