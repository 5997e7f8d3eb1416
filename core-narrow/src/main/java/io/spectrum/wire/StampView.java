package io.spectrum.wire;

/**
 * Reads the topic stamp a node puts after a delivery's (or a stamped READ answer's) payload, the
 * one reader of its pairs (docs/extensions.md "Delivery stamp"; the node's writer is
 * {@code io.spectrum.node.fwd.Deliveries#stamp}): {@code SETTINGS{NAME "spectrum.topic", SETTINGS{seq,
 * stale, op, [path], [dlv, replaced], [origin], [reason]}}}. Pairs are found by name (SETTINGS
 * pair-walk), so a pair this reader does not know is skipped and a missing one reads as its
 * default. A re-pointable flyweight over a decoded frame: allocation-free, valid while the frame's
 * index is.
 */
public final class StampView {
    private final SettingsReader outer = new SettingsReader();
    private final SettingsReader inner = new SettingsReader();
    private TlvIndex x;
    private boolean present;
    private long seq;
    private boolean stale;
    private boolean deleted;
    private long origin;
    private int reason = TlvIndex.NONE;
    private int path = TlvIndex.NONE;
    private int publisher = TlvIndex.NONE;
    private long dlv;
    private long replaced;

    /**
     * Points the view at {@code entry} of {@code index}, the child after the payload ({@code
     * FwdView#afterPayload}, NONE for none). True when it is a {@code spectrum.topic} stamp; otherwise
     * the view reads as unstamped ({@link #present} false, every field its default).
     */
    public boolean wrap(TlvIndex index, int entry) {
        x = index;
        present = entry != TlvIndex.NONE && outer.wrap(index, entry) == WireError.OK
                && outer.enter(Names.TOPIC, inner) == WireError.OK;
        if (!present) {
            seq = 0;
            stale = false;
            deleted = false;
            origin = 0;
            reason = TlvIndex.NONE;
            path = TlvIndex.NONE;
            publisher = TlvIndex.NONE;
            dlv = -1;
            replaced = 0;
            return false;
        }
        seq = number(Names.STAMP_SEQ, 0);
        stale = number(Names.STAMP_STALE, 0) != 0;
        deleted = number(Names.STAMP_OP, 0) != 0;
        origin = Math.max(0, number(Names.STAMP_ORIGIN, 0));
        reason = stale ? inner.findValue(Names.STAMP_REASON, SettingsReader.ANY_WIDTH) : TlvIndex.NONE;
        path = inner.find(Names.STAMP_PATH, TlvType.PATH, SettingsReader.ANY_WIDTH);
        publisher = inner.find(Names.STAMP_PUBLISHER, TlvType.NAME, SettingsReader.ANY_WIDTH);
        dlv = inner.u64(Names.STAMP_DLV, -1);
        replaced = inner.u64(Names.STAMP_REPLACED, 0);
        return true;
    }

    private long number(Spelling key, long absent) {
        final int v = inner.findValue(key, SettingsReader.ANY_WIDTH);
        return v == TlvIndex.NONE ? absent : x.valueAsLong(v);
    }

    /** True when the wrapped child is a stamp. */
    public boolean present() {
        return present;
    }

    /** The value's sequence at the sender (0 when absent). */
    public long seq() {
        return seq;
    }

    /** The sender marks the value not current. */
    public boolean stale() {
        return stale;
    }

    /** {@code op} 1: a delete notice. */
    public boolean deleted() {
        return deleted;
    }

    /** The value's origin time, ms since the Unix epoch, 0 when the stamp carries none. */
    public long origin() {
        return origin;
    }

    /** The array holding the reason's UTF-8 bytes ({@link #reasonOffset}, {@link #reasonLength}). */
    public byte[] buffer() {
        return x.buffer();
    }

    /** Offset of a stale value's reason in {@link #buffer()} (0 with none). */
    public int reasonOffset() {
        return reason == TlvIndex.NONE ? 0 : x.bodyOffset(reason);
    }

    /** Length of a stale value's reason, 0 when it carries none (stale, reason unknown) or is fresh. */
    public int reasonLength() {
        return reason == TlvIndex.NONE ? 0 : x.bodyLength(reason);
    }

    /** The PATH entry of the written vertex ({@code path}), or NONE. */
    public int path() {
        return path;
    }

    /** Where the last publisher's name starts in {@link #buffer()} (a READ's answer from a WIDE node), meaningful when {@link #publisherLength()} > 0. */
    public int publisherOffset() {
        return publisher == TlvIndex.NONE ? 0 : x.bodyOffset(publisher);
    }

    /** Bytes of the last publisher's name, UTF-8; 0 when the stamp names none. */
    public int publisherLength() {
        return publisher == TlvIndex.NONE ? 0 : x.bodyLength(publisher);
    }

    /** A delivery-mode edge's delivery number, -1 when absent. */
    public long dlv() {
        return dlv;
    }

    /** Values coalesced before this delivery (delivery modes), 0 when absent. */
    public long replaced() {
        return replaced;
    }
}
