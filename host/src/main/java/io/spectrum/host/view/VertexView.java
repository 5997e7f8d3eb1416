package io.spectrum.host.view;

import java.util.List;

/**
 * One vertex as an operator sees it.
 *
 * @param path        the vertex path, e.g. {@code /board1/temp}
 * @param value       the last-known value as text ("" when none)
 * @param numeric     whether {@code number} holds the value (drives the chart)
 * @param number      the value as a number when numeric (in its unit when declared), else 0
 * @param unit        the declared unit as people write it ({@code °C}, {@code %}), "" without one
 * @param seq         the node-stamped sequence number (counts every publish)
 * @param stale       the last publisher's link went away and it has not published since
 * @param subscribers the subscriber slots in slot order (holes omitted)
 * @param control     how a write is offered (from the declaration), null when the vertex is not writable
 * @param origin      the value's origin time, ms since the Unix epoch (docs/extensions.md "Origin time"), 0: none
 * @param reason      why a stale value is stale, null when current or none was given
 */
public record VertexView(String path, String value, boolean numeric, double number, String unit, long seq, boolean stale,
                         List<SlotView> subscribers, VertexControl control, long origin, String reason) {
    /** Copies the subscribers. */
    public VertexView {
        subscribers = List.copyOf(subscribers);
    }

    /** A vertex whose value has no origin time and no stale reason. */
    public VertexView(String path, String value, boolean numeric, double number, String unit, long seq, boolean stale,
                      List<SlotView> subscribers, VertexControl control) {
        this(path, value, numeric, number, unit, seq, stale, subscribers, control, 0, null);
    }

    /** A vertex nobody may write from a view. */
    public VertexView(String path, String value, boolean numeric, double number, String unit, long seq, boolean stale,
                      List<SlotView> subscribers) {
        this(path, value, numeric, number, unit, seq, stale, subscribers, null);
    }

    /** The first path segment ({@code board1} of {@code /board1/temp}), "" for a top-level vertex. */
    public String board() {
        int second = path.indexOf('/', 1);
        return second < 0 ? "" : path.substring(1, second);
    }
}
