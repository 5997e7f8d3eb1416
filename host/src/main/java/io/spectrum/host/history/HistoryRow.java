package io.spectrum.host.history;

import io.spectrum.client.ValueText;

/**
 * One stored value of a vertex: its path, the time it was stamped at its origin (the host's receipt
 * time on the host's clock when no origin is known), epoch ms, the value as {@link ValueText}
 * (in its declared unit, with the raw integer and the unit), the vertex's sequence for it, and whether it
 * was stale then, with the reason.
 */
public record HistoryRow(String path, long t, ValueText value, long seq, boolean stale, String reason) { }
