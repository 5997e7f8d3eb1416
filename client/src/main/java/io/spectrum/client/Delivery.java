package io.spectrum.client;

import io.spectrum.node.api.VertexSchema;

/**
 * A FWD WRITE the node sent to one of our routes: usually a subscription delivery
 * (src empty). The value is the written TLV; {@link #stamped} says whether the node's topic
 * stamp (docs/extensions.md) rode along, and then {@link #seq}, {@link #stale} and {@link #deleted}
 * are its fields. {@link #source} is the path of the vertex that was written when the stamp carries
 * it (a subscription that asked with {@code Names.TOPIC_WITH_PATH}: which child of a subtree
 * changed), else null. The frame is the whole frame as received. {@link #dlv} and {@link #replaced}
 * are a delivery-mode subscription's delivery number and coalesced count (docs/extensions.md
 * "Delivery modes"), -1 and 0 for any other. {@link #reason} is why a stale value is stale, as the
 * stamp's {@code reason} carries it ({@link io.spectrum.wire.StaleReason}), or null (fresh, or a node
 * that gave none). {@link #origin} is the value's origin time as the stamp carries it, ms since the Unix
 * epoch, 0 when it carries none (docs/extensions.md "Origin time").
 *
 * <p><b>Lifetime.</b> The delivery handed to the {@link PeerClient#onDelivery} sink is a view: one
 * object the client re-points at each received frame, reading the value and frame in place in the
 * link's receive buffer, which the link reuses once the sink returns. It is valid only during that
 * call. Code that keeps a delivery past the call (a list, a queue, another thread) keeps
 * {@link #detach()} instead: an independent delivery holding one copy of the frame (or
 * {@link #detachValue()}: one copy of the value, without the frame). After the call
 * every accessor of the view throws {@link IllegalStateException}, so a view kept by mistake fails
 * loudly instead of showing another frame's bytes (while a later frame is being delivered it reads
 * as that frame: keep a detached one to compare).
 *
 * <p><b>Bytes.</b> {@link #value()} and {@link #frame()} return fresh copies, made when asked.
 * Without copying: {@link #valueInto(byte[], int)} writes the value ({@link #valueLength()} bytes)
 * into the caller's array, and {@link #render(VertexSchema)} renders it in place. Deliveries compare
 * by identity.
 */
public final class Delivery {
    /** What a use of a view after its sink call says. */
    private static final String RELEASED = "a delivery is a view valid only during the onDelivery call that got it: "
            + "keep detach() to use it later";

    /** Whether the client re-points this one at each frame (false: detached, never changes). */
    private final boolean view;
    /** A view: between {@link #point} and {@link #release}. A detached delivery is always live. */
    private boolean live;
    private byte[] valueBuf;
    private int valueOff;
    /** 0: no value. */
    private int valueLen;
    private byte[] frameBuf;
    private int frameOff;
    /** 0: no frame. */
    private int frameLen;
    private String route;
    private boolean srcEmpty;
    private boolean stamped;
    private long seq;
    private boolean stale;
    private boolean deleted;
    private String source;
    private long receivedNanos;
    private long dlv;
    private long replaced;
    private String reason;
    private long origin;

    /** A view for the client's inbox, live once pointed at a frame. */
    Delivery() {
        this.view = true;
    }

    private Delivery(boolean view) {
        this.view = view;
        this.live = true;
    }

    /**
     * A detached delivery made from its parts (tests, replays): the arrays are copied, so it owns its
     * bytes. {@code value} and {@code frame} may be null (none).
     *
     * @param route         the route it was sent to
     * @param value         the written TLV, or null
     * @param srcEmpty      whether the FWD's src was empty (a subscription delivery)
     * @param stamped       whether the topic stamp rode along
     * @param seq           the stamp's seq
     * @param stale         the stamp's stale flag
     * @param deleted       the stamp's deleted flag
     * @param source        the written vertex's path from the stamp, or null
     * @param receivedNanos the client's clock when it arrived
     * @param frame         the whole frame, or null
     * @param dlv           the delivery number, -1 for none
     * @param replaced      values coalesced before it
     * @param reason        the stale reason, or null
     * @param origin        the origin time, ms since the Unix epoch, 0 for none
     * @return an independent delivery
     */
    public static Delivery of(String route, byte[] value, boolean srcEmpty, boolean stamped, long seq, boolean stale,
            boolean deleted, String source, long receivedNanos, byte[] frame, long dlv, long replaced, String reason,
            long origin) {
        Delivery d = new Delivery(false);
        if (value != null) {
            d.valueBuf = value.clone();
            d.valueLen = value.length;
        }
        if (frame != null) {
            d.frameBuf = frame.clone();
            d.frameLen = frame.length;
        }
        d.fields(route, srcEmpty, stamped, seq, stale, deleted, source, receivedNanos, dlv, replaced, reason, origin);
        return d;
    }

    /**
     * Re-points this view at a frame: the frame {@code buf[frameOff, frameOff+frameLen)} with its value
     * TLV at {@code [valueOff, valueOff+valueLen)} inside it, both read in place until {@link #release}.
     */
    void point(byte[] buf, int frameOff, int frameLen, int valueOff, int valueLen, String route, boolean srcEmpty,
            boolean stamped, long seq, boolean stale, boolean deleted, String source, long receivedNanos, long dlv,
            long replaced, String reason, long origin) {
        this.valueBuf = buf;
        this.valueOff = valueOff;
        this.valueLen = valueLen;
        this.frameBuf = buf;
        this.frameOff = frameOff;
        this.frameLen = frameLen;
        fields(route, srcEmpty, stamped, seq, stale, deleted, source, receivedNanos, dlv, replaced, reason, origin);
        this.live = true;
    }

    /** Ends this view's sink call: it lets go of the link's buffer, and any use of it throws until the next frame. */
    void release() {
        this.live = false;
        this.valueBuf = null;
        this.frameBuf = null;
        this.route = null;
        this.source = null;
        this.reason = null;
    }

    /** Whether this is a view inside its sink call (the inbox then gives a nested frame a view of its own). */
    boolean pointed() {
        return view && live;
    }

    private void fields(String route, boolean srcEmpty, boolean stamped, long seq, boolean stale, boolean deleted,
            String source, long receivedNanos, long dlv, long replaced, String reason, long origin) {
        this.route = route;
        this.srcEmpty = srcEmpty;
        this.stamped = stamped;
        this.seq = seq;
        this.stale = stale;
        this.deleted = deleted;
        this.source = source;
        this.receivedNanos = receivedNanos;
        this.dlv = dlv;
        this.replaced = replaced;
        this.reason = reason;
        this.origin = origin;
    }

    private void check() {
        if (!live) {
            throw new IllegalStateException(RELEASED);
        }
    }

    /**
     * An independent delivery with the same content, for code that keeps it past the sink call: one
     * copy of the frame, the value read inside it. A detached delivery never changes, and detaching it
     * returns itself.
     *
     * @throws IllegalStateException when this is a view used after its sink call
     */
    public Delivery detach() {
        check();
        if (!view) {
            return this;
        }
        Delivery d = new Delivery(false);
        if (frameLen > 0) {
            d.frameBuf = copy(frameBuf, frameOff, frameLen);
            d.frameLen = frameLen;
            if (valueLen > 0) { // the value is a TLV inside the frame: read it in the copy
                d.valueBuf = d.frameBuf;
                d.valueOff = valueOff - frameOff;
                d.valueLen = valueLen;
            }
        }
        d.fields(route, srcEmpty, stamped, seq, stale, deleted, source, receivedNanos, dlv, replaced, reason, origin);
        return d;
    }

    /**
     * An independent delivery with the same fields and value but not the frame ({@link #frame()} null,
     * {@link #frameLength()} 0), for code that keeps a delivery's value past the sink call and never
     * its frame: one copy of the value TLV instead of one of the whole frame ({@link Follower}).
     *
     * @throws IllegalStateException when this is a view used after its sink call
     */
    public Delivery detachValue() {
        check();
        if (!view && frameLen == 0) {
            return this;
        }
        Delivery d = new Delivery(false);
        if (valueLen > 0) {
            d.valueBuf = copy(valueBuf, valueOff, valueLen);
            d.valueLen = valueLen;
        }
        d.fields(route, srcEmpty, stamped, seq, stale, deleted, source, receivedNanos, dlv, replaced, reason, origin);
        return d;
    }

    /** The route (PATH) the node sent it to, rendered. */
    public String route() {
        check();
        return route;
    }

    /** Whether the FWD's src was empty: a subscription delivery. */
    public boolean srcEmpty() {
        check();
        return srcEmpty;
    }

    /** Whether the node's topic stamp rode along. */
    public boolean stamped() {
        check();
        return stamped;
    }

    /** The stamp's seq (0 without a stamp). */
    public long seq() {
        check();
        return seq;
    }

    /** The stamp's stale flag. */
    public boolean stale() {
        check();
        return stale;
    }

    /** The stamp's deleted flag. */
    public boolean deleted() {
        check();
        return deleted;
    }

    /** The path of the vertex that was written, when the stamp carries it; else null. */
    public String source() {
        check();
        return source;
    }

    /** The client's clock ({@link PeerClient#time}) when it arrived. */
    public long receivedNanos() {
        check();
        return receivedNanos;
    }

    /** A delivery-mode subscription's delivery number, -1 for any other. */
    public long dlv() {
        check();
        return dlv;
    }

    /** Values a delivery-mode subscription coalesced before this one, 0 for any other. */
    public long replaced() {
        check();
        return replaced;
    }

    /** Why a stale value is stale, as the stamp carries it, or null. */
    public String reason() {
        check();
        return reason;
    }

    /** The value's origin time, ms since the Unix epoch, 0 when the stamp carries none. */
    public long origin() {
        check();
        return origin;
    }

    /** A fresh copy of the written TLV (exactly as received, trailers included), or null when it has none. */
    public byte[] value() {
        check();
        return copy(valueBuf, valueOff, valueLen);
    }

    /** Bytes of the written TLV, 0 when it has none; no copy. */
    public int valueLength() {
        check();
        return valueLen;
    }

    /**
     * Writes the value TLV into {@code dst} at {@code off}, allocating nothing.
     *
     * @return {@link #valueLength()}
     * @throws IndexOutOfBoundsException when {@code dst} has no room for it at {@code off}
     */
    public int valueInto(byte[] dst, int off) {
        check();
        if (valueLen > 0) {
            System.arraycopy(valueBuf, valueOff, dst, off, valueLen);
        }
        return valueLen;
    }

    /** The value rendered by {@code schema} (null: raw), read in place ({@link ValueFormat#render(byte[], int, int, VertexSchema)}). */
    public ValueText render(VertexSchema schema) {
        check();
        return ValueFormat.render(valueBuf, valueOff, valueLen, schema);
    }

    /** A fresh copy of the whole frame as received, or null when it has none (a delivery made without one). */
    public byte[] frame() {
        check();
        return copy(frameBuf, frameOff, frameLen);
    }

    /** Bytes of the whole frame, 0 when it has none; no copy. */
    public int frameLength() {
        check();
        return frameLen;
    }

    /** {@code b[off, off+len)} as a new array, null when {@code len} is 0 (none). */
    private static byte[] copy(byte[] b, int off, int len) {
        return len == 0 ? null : java.util.Arrays.copyOfRange(b, off, off + len);
    }

    /** Route, seq and flags for a person; says so for a view used after its sink call (never throws). */
    @Override
    public String toString() {
        if (!live) {
            return "Delivery[released view]";
        }
        return "Delivery[" + route + (source != null ? " source " + source : "") + (stamped ? " seq " + seq : "")
                + (stale ? " stale" : "") + (deleted ? " deleted" : "") + (dlv >= 0 ? " dlv " + dlv : "")
                + " value " + valueLen + " B" + (view ? " (view)" : "") + "]";
    }
}
