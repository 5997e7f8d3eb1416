package io.spectrum.wire;

/**
 * Why a value is marked stale: the one registry of the reasons the nodes and the host produce
 * themselves, and the bound every stale reason is held to. A source that fails passes its own text
 * (e.g. {@code i2c 1/0x48 reg 0: read 0 of 2 bytes}); everything the software decides for itself is
 * spelled here and nowhere else, so a reader can match on it. The reason travels as UTF-8 in the
 * delivery stamp's {@code reason} pair (docs/extensions.md, "Delivery stamp").
 */
public final class StaleReason {
    /** The longest reason a node holds, in UTF-8 bytes; a longer one is cut at a character boundary. */
    public static final int MAX_BYTES = 96;

    /** The vertex's last publisher's link went (its value meant the publisher's presence). */
    public static final String PUBLISHER_GONE = "publisher gone";
    /** A host's copy of a mounted board's vertex while the mount's link is down. */
    public static final String BOARD_AWAY = "board away";
    /** A host's copy after the board's sequence skipped numbers: a delivery was lost, the copy may be old. */
    public static final String SEQUENCE_GAP = "sequence gap";
    /** A copy whose upstream subscription is gone (no edge feeds it any more). */
    public static final String NOT_FOLLOWED = "not followed";

    private StaleReason() {
    }

    /**
     * Writes {@code s} as UTF-8 into {@code out[off, off + MAX_BYTES)}, cut before the first character
     * that would not fit (an unpaired surrogate is written as U+FFFD). Allocation-free.
     *
     * @return the bytes written, 0..{@link #MAX_BYTES}
     */
    public static int encode(CharSequence s, byte[] out, int off) {
        return Utf8.encode(s, out, off, MAX_BYTES);
    }
}
