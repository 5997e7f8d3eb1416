package io.spectrum.node.fwd;

/**
 * One value on its way out, as a flyweight: the value TLV, the key of the vertex it was written to,
 * and the stamp's fields (seq, stale, op, origin, the stale reason, and a delivery-mode edge's
 * delivery number). A node keeps one per call site and re-points it for each delivery or stamped
 * answer, so handing a value to {@link Deliveries} or {@link FwdServer#deliver} allocates nothing;
 * the slices stay the caller's and are read only during the call.
 *
 * <p>Fill it with {@link #value}, {@link #key} and {@link #stamp} (which clears the reason and the
 * delivery number), then {@link #reason} and {@link #numbered} where they apply.
 */
public final class ValueRecord {
    byte[] value;
    int valueOff;
    int valueLen;
    byte[] key;
    int keyOff;
    int keyLen;
    long seq;
    boolean stale;
    boolean deleted;
    long origin;
    byte[] reason;
    int reasonOff;
    int reasonLen;
    byte[] publisher;
    int publisherLen;
    long dlv;
    long replaced;

    /** An empty record; fill it before each use. */
    public ValueRecord() {
    }

    /**
     * The value TLV {@code b[off, +len)}.
     *
     * @return this record
     */
    public ValueRecord value(byte[] b, int off, int len) {
        value = b;
        valueOff = off;
        valueLen = len;
        return this;
    }

    /**
     * The written vertex's key, a PATH body {@code b[off, +len)} (null, 0, 0: none; only a stamp that
     * carries the path reads it).
     *
     * @return this record
     */
    public ValueRecord key(byte[] b, int off, int len) {
        key = b;
        keyOff = off;
        keyLen = len;
        return this;
    }

    /**
     * The stamp's seq, stale mark, op ({@code deleted}) and origin time (ms since the Unix epoch, 0:
     * none); clears the reason and the delivery number.
     *
     * @return this record
     */
    public ValueRecord stamp(long seq, boolean stale, boolean deleted, long origin) {
        this.seq = seq;
        this.stale = stale;
        this.deleted = deleted;
        this.origin = origin;
        reason = null;
        reasonOff = 0;
        reasonLen = 0;
        publisher = null;
        publisherLen = 0;
        dlv = 0;
        replaced = 0;
        return this;
    }

    /**
     * A stale value's reason, UTF-8 {@code b[off, +len)} (length 0: none).
     *
     * @return this record
     */
    public ValueRecord reason(byte[] b, int off, int len) {
        reason = b;
        reasonOff = off;
        reasonLen = len;
        return this;
    }

    /**
     * The vertex's last publisher's name, UTF-8, all of {@code b} (a READ's answer only; null: none).
     *
     * @return this record
     */
    public ValueRecord publisher(byte[] b) {
        publisher = b;
        publisherLen = b == null ? 0 : b.length;
        return this;
    }

    /**
     * A delivery-mode edge's delivery number ({@code dlv > 0}) and the values coalesced since its
     * previous delivery (docs/extensions.md "Delivery modes").
     *
     * @return this record
     */
    public ValueRecord numbered(long dlv, long replaced) {
        this.dlv = dlv;
        this.replaced = replaced;
        return this;
    }
}
