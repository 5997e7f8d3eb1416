package io.spectrum.stats;

/**
 * The one list of counter names: {@code /$node/stats} (its SETTINGS tree), the dashboard
 * ({@code /api/snapshot}'s counter maps) and {@code /metrics} (the {@code counter} label and the
 * {@code spectrum_resource_*} families) all use these exact strings, so an operator greps one name
 * across the three. The rule: lower case words joined by {@code _}; a count of refused requests says
 * {@code refused} (one spelling), a count of drops says {@code dropped}. docs/node.md, "Counters",
 * lists what each counts.
 */
public final class CounterNames {
    /** {@link BoundedResource#capacity()}. */
    public static final String CAPACITY = "capacity";
    /** {@link BoundedResource#inUse()}. */
    public static final String IN_USE = "in_use";
    /** {@link BoundedResource#peak()}. */
    public static final String PEAK = "peak";
    /** {@link BoundedResource#refused()}. */
    public static final String REFUSED = "refused";
    /** {@link BoundedResource#dropped()}. */
    public static final String DROPPED = "dropped";

    /** A link's frames handed to the node ({@code LinkStats.framesIn()}). */
    public static final String FRAMES_IN = "frames_in";
    /** A link's frames sent ({@code LinkStats.framesOut()}). */
    public static final String FRAMES_OUT = "frames_out";
    /** Bytes of {@link #FRAMES_IN}. */
    public static final String BYTES_IN = "bytes_in";
    /** Bytes of {@link #FRAMES_OUT}. */
    public static final String BYTES_OUT = "bytes_out";
    /** Frames that failed the link's own check ({@code LinkStats.droppedCorrupt()}). */
    public static final String DROPPED_CORRUPT = "dropped_corrupt";
    /** Frames larger than the link's limit ({@code LinkStats.droppedOversize()}). */
    public static final String DROPPED_OVERSIZE = "dropped_oversize";
    /** Frames that are not one libtracer frame ({@code LinkStats.droppedInvalid()}). */
    public static final String DROPPED_INVALID = "dropped_invalid";
    /** Frames a queued link accepted, then dropped unsent ({@code LinkStats.droppedQueued()}). */
    public static final String DROPPED_QUEUED = "dropped_queued";
    /** Frames the OS dropped before the link read them ({@code LinkStats.droppedByOs()}). */
    public static final String DROPPED_BY_OS = "dropped_by_os";
    /** Sends the link refused ({@code LinkStats.sendRefused()}). */
    public static final String SEND_REFUSED = "send_refused";
    /** Reopened ports or re-learned peers ({@code LinkStats.reconnects()}). */
    public static final String RECONNECTS = "reconnects";
    /** Frames from new senders the link refused ({@code LinkStats.peersRefused()}). */
    public static final String PEERS_REFUSED = "peers_refused";
    /** Known peers whose entry went to a new sender ({@code LinkStats.peersEvicted()}). */
    public static final String PEERS_EVICTED = "peers_evicted";

    /** Frames the node rejected after the link handed them over ({@code NodeLinkStats.framesRejected()}). */
    public static final String FRAMES_REJECTED = "frames_rejected";
    /** Requests the node refused a peer over its share ({@code NodeLinkStats.shareRefused()}). */
    public static final String SHARE_REFUSED = "share_refused";
    /** Deliveries the node dropped for a peer over its rate ({@code NodeLinkStats.deliveriesDropped()}). */
    public static final String DELIVERIES_DROPPED = "deliveries_dropped";

    /** A link's peer table, the prefix of its five resource figures ({@code peers.capacity}, ...). */
    public static final String PEERS = "peers";

    private CounterNames() {
    }
}
