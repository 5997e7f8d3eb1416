package io.spectrum.wire;

/**
 * A read-only flyweight over a SUBSCRIBER (0x04) record: target PATH (must be the first child),
 * qos SETTINGS (the first SETTINGS child), the {@code delivery_policy} word from it (absent reads
 * as 0; last well-formed 2-byte VALUE wins), optional ACL capability and optional NAME
 * subscriber_id.
 *
 * <p>Re-point with {@link #wrap(TlvIndex, int)}; or {@link #wrap(byte[], int, int)} which decodes a
 * stored record into the view's own index (sized at construction). Both return a code and leave
 * the view empty on refusal.
 */
public final class SubscriberView {
    private final TlvIndex ownIndex;
    private final FrameDecoder decoder;
    private final SettingsReader qosReader = new SettingsReader();
    private TlvIndex idx;
    private int entry = TlvIndex.NONE;
    private int target = TlvIndex.NONE;
    private int qos = TlvIndex.NONE;
    private int acl = TlvIndex.NONE;
    private int subscriberId = TlvIndex.NONE;
    private int policyEntry = TlvIndex.NONE;

    /** A view with its own index for {@link #wrap(byte[], int, int)} (capacity 64 TLVs, depth 8). */
    public SubscriberView() {
        this(64, 8);
    }

    /**
     * A view whose own index (for {@link #wrap(byte[], int, int)}) holds {@code indexCapacity} TLVs
     * nested at most {@code maxDepth} deep; allocated here, once.
     */
    public SubscriberView(int indexCapacity, int maxDepth) {
        ownIndex = new TlvIndex(indexCapacity, maxDepth);
        decoder = new FrameDecoder(maxDepth, FrameDecoder.MAX_TLV_BYTES);
    }

    /** Decodes a stored record (exactly {@code buf[off, off+len)}) and points the view at it. */
    public int wrap(byte[] buf, int off, int len) {
        final int r = decoder.decode(buf, off, len, ownIndex);
        if (r != WireError.OK) {
            reset(ownIndex);
            return r;
        }
        return wrap(ownIndex, 0);
    }

    /**
     * Points the view at a decoded SUBSCRIBER entry.
     *
     * @return OK, or SCHEMA_TYPE_MISMATCH when the entry is not a SUBSCRIBER container whose first
     *     child is a PATH (target-less records are refused; clearing uses the empty STATUS)
     */
    public int wrap(TlvIndex index, int e) {
        reset(index);
        if (e < 0 || e >= index.count() || index.type(e) != TlvType.SUBSCRIBER || !index.isContainer(e)) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        final int first = index.firstChild(e);
        if (first == TlvIndex.NONE || index.type(first) != TlvType.PATH || index.isContainer(first)) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        entry = e;
        target = first;
        for (int c = index.nextSibling(first); c != TlvIndex.NONE; c = index.nextSibling(c)) {
            final int t = index.type(c);
            if (t == TlvType.SETTINGS && qos == TlvIndex.NONE) {
                qos = c;
            } else if (t == TlvType.ACL && acl == TlvIndex.NONE) {
                acl = c;
            } else if (t == TlvType.NAME && subscriberId == TlvIndex.NONE) {
                subscriberId = c;
            }
        }
        if (qos != TlvIndex.NONE && qosReader.wrap(index, qos) == WireError.OK) {
            policyEntry = qosReader.findValue(Names.DELIVERY_POLICY, DeliveryPolicy.WIDTH);
        }
        return WireError.OK;
    }

    private void reset(TlvIndex index) {
        idx = index;
        entry = TlvIndex.NONE;
        target = TlvIndex.NONE;
        qos = TlvIndex.NONE;
        acl = TlvIndex.NONE;
        subscriberId = TlvIndex.NONE;
        policyEntry = TlvIndex.NONE;
    }

    /** The index the view was last wrapped over (its own after {@link #wrap(byte[], int, int)}). */
    public TlvIndex index() {
        return idx;
    }

    /** The wrapped SUBSCRIBER's index entry, or {@link TlvIndex#NONE} after a refused wrap. */
    public int entry() {
        return entry;
    }

    /** The target PATH entry. */
    public int target() {
        return target;
    }

    /** The qos SETTINGS entry (first SETTINGS child), or NONE. */
    public int qos() {
        return qos;
    }

    /** A reader over the qos SETTINGS (valid only when {@link #qos()} is not NONE). */
    public SettingsReader qosReader() {
        return qosReader;
    }

    /** The ACL capability child (the first ACL), or NONE. */
    public int acl() {
        return acl;
    }

    /** The NAME subscriber_id child, or NONE. */
    public int subscriberId() {
        return subscriberId;
    }

    /** True when the qos carries a well-formed {@code delivery_policy} pair. */
    public boolean hasPolicy() {
        return policyEntry != TlvIndex.NONE;
    }

    /** The winning policy VALUE entry, or NONE. */
    public int policyEntry() {
        return policyEntry;
    }

    /** Absolute buffer offset of the winning policy's 2 payload bytes, or -1. */
    public int policyOffset() {
        return policyEntry == TlvIndex.NONE ? -1 : idx.bodyOffset(policyEntry);
    }

    /** The policy word (0 when absent). */
    public int policy() {
        return policyEntry == TlvIndex.NONE ? DeliveryPolicy.ABSENT : Bytes.u16(idx.buffer(), idx.bodyOffset(policyEntry));
    }

    /** The policy word with bit 9 masked: the duplicate-append comparison form. */
    public int policyMasked() {
        return DeliveryPolicy.masked(policy());
    }

    /**
     * True when bit 9 of the policy word marks the subscription suspended (false when there is no
     * word).
     */
    public boolean suspended() {
        return DeliveryPolicy.suspended(policy());
    }
}
