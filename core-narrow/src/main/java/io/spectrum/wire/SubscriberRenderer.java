package io.spectrum.wire;

/**
 * Renders a stored SUBSCRIBER record under a slot's live {@code suspended} state s (RFC-0035 §5.1):
 *
 * <ol>
 *   <li>the record carries a (well-formed, winning) {@code delivery_policy} word: the same record
 *       with bit 9 of that word set to s, length unchanged;</li>
 *   <li>no word and s = 0: the record unchanged;</li>
 *   <li>no word and s = 1: {@code NAME "delivery_policy" VALUE u16 0x0200} appended as the last
 *       pair of the first SETTINGS child, or, with no SETTINGS child, {@code SETTINGS{that pair}}
 *       appended as the last child; every enclosing length grows.</li>
 * </ol>
 *
 * A record whose policy pairs are all malformed reads as "no word" (it decodes as 0), so rule 3
 * applies to it. The output is produced by re-encoding the decoded record, so enclosing lengths and
 * any CRC trailers are recomputed; a valid record without a change re-encodes byte for byte.
 *
 * <p>{@link #matchesRendering} is the toggle arm's test: the candidate equals the rendering of the
 * record with bit 9 = x, for x in {0, 1}. Allocation-free: the renderer owns its index and writer,
 * and the caller supplies the output / scratch buffers. Not thread-safe; one per thread.
 */
public final class SubscriberRenderer {
    /** Bytes rule 3 can add: SETTINGS header 4 + NAME 4+15 + VALUE 4+2. */
    public static final int MAX_GROWTH = 29;

    private final TlvIndex ownIndex;
    private final FrameDecoder decoder;
    private final SubscriberView view;
    private final TlvWriter writer;
    private final int[] pending;
    private final byte[] word = new byte[2];

    /** A renderer for records of up to 64 TLVs nested at most 8 deep. */
    public SubscriberRenderer() {
        this(64, 8);
    }

    /**
     * A renderer whose own index holds {@code indexCapacity} TLVs nested at most {@code maxDepth}
     * deep; every pool is allocated here, once, and a larger record is refused
     * (TLV_NESTING_TOO_DEEP).
     */
    public SubscriberRenderer(int indexCapacity, int maxDepth) {
        ownIndex = new TlvIndex(indexCapacity, maxDepth);
        decoder = new FrameDecoder(maxDepth, FrameDecoder.MAX_TLV_BYTES);
        view = new SubscriberView(1, 1);
        writer = new TlvWriter(maxDepth + 2);
        pending = new int[maxDepth + 2];
    }

    /**
     * Renders the stored record {@code rec[off, off+len)} under state {@code suspended} into
     * {@code out[outOff, outOff+cap)}.
     *
     * @return bytes written, or a negated WireError (the record's decode refusal, SCHEMA_TYPE_MISMATCH
     *     for a non-SUBSCRIBER, FLOW_BACKPRESSURE when {@code cap} is too small)
     */
    public int render(byte[] rec, int off, int len, boolean suspended, byte[] out, int outOff, int cap) {
        final int r = decoder.decode(rec, off, len, ownIndex);
        if (r != WireError.OK) {
            return -r;
        }
        return render(ownIndex, 0, suspended, out, outOff, cap);
    }

    /** Renders a SUBSCRIBER entry of an already decoded index. */
    public int render(TlvIndex idx, int e, boolean suspended, byte[] out, int outOff, int cap) {
        final int r = view.wrap(idx, e);
        if (r != WireError.OK) {
            return -r;
        }
        final int policyEntry = view.policyEntry();
        if (policyEntry == TlvIndex.NONE && !suspended) {
            // rule 2: unchanged
            final int n = idx.totalLength(e);
            if (n > cap) {
                return -WireError.FLOW_BACKPRESSURE;
            }
            System.arraycopy(idx.buffer(), idx.start(e), out, outOff, n);
            return n;
        }
        int appendMode = APPEND_NONE;
        if (policyEntry != TlvIndex.NONE) {
            Bytes.put16(word, 0, DeliveryPolicy.withSuspended(view.policy(), suspended));
        } else {
            appendMode = view.qos() != TlvIndex.NONE ? APPEND_TO_QOS : APPEND_SETTINGS;
        }
        return encode(idx, e, view.qos(), policyEntry, appendMode, out, outOff, cap);
    }

    private static final int APPEND_NONE = 0;
    private static final int APPEND_TO_QOS = 1;
    private static final int APPEND_SETTINGS = 2;

    private int encode(TlvIndex idx, int e, int qos, int policyEntry, int appendMode, byte[] out, int outOff, int cap) {
        final TlvWriter w = writer.wrap(out, outOff, cap);
        final byte[] src = idx.buffer();
        int sp = 0;
        int cur = e;
        while (true) {
            if (idx.isContainer(cur)) {
                w.begin(idx.type(cur), idx.opt(cur));
                final int child = idx.firstChild(cur);
                if (child != TlvIndex.NONE) {
                    if (sp == pending.length) {
                        return -WireError.TLV_NESTING_TOO_DEEP;
                    }
                    pending[sp++] = cur;
                    cur = child;
                    continue;
                }
                close(idx, cur, e, qos, appendMode);
            } else if (cur == qos && appendMode == APPEND_TO_QOS) {
                // an empty opaque SETTINGS becomes a container holding the pair
                w.begin(TlvType.SETTINGS, idx.opt(cur));
                close(idx, cur, e, qos, appendMode);
            } else if (cur == policyEntry) {
                w.leaf(TlvType.VALUE, idx.opt(cur), word, 0, 2, idx.timestamp(cur));
            } else {
                w.leaf(idx.type(cur), idx.opt(cur), src, idx.bodyOffset(cur), idx.bodyLength(cur), idx.timestamp(cur));
            }
            while (true) {
                if (cur == e) {
                    return w.error() == WireError.OK ? w.length() : -w.error();
                }
                final int next = idx.nextSibling(cur);
                if (next != TlvIndex.NONE) {
                    cur = next;
                    break;
                }
                cur = pending[--sp];
                close(idx, cur, e, qos, appendMode);
            }
        }
    }

    private void close(TlvIndex idx, int c, int root, int qos, int appendMode) {
        final TlvWriter w = writer;
        if (c == qos && appendMode == APPEND_TO_QOS) {
            pair(w);
        }
        if (c == root && appendMode == APPEND_SETTINGS) {
            w.begin(TlvType.SETTINGS);
            pair(w);
            w.end();
        }
        w.end(idx.timestamp(c));
    }

    private static void pair(TlvWriter w) {
        w.leaf(TlvType.NAME, Names.DELIVERY_POLICY);
        w.value(DeliveryPolicy.SUSPENDED, DeliveryPolicy.WIDTH);
    }

    /**
     * The toggle-arm test: does {@code cand} equal the rendering of {@code rec} with bit 9 = x?
     *
     * @param scratch caller buffer of at least {@code recLen + MAX_GROWTH} bytes from {@code scratchOff}
     * @return x (0 or 1) when it does, else -1 (also for a record that does not decode)
     */
    public int matchesRendering(byte[] rec, int recOff, int recLen, byte[] cand, int candOff, int candLen,
            byte[] scratch, int scratchOff, int scratchCap) {
        if (decoder.decode(rec, recOff, recLen, ownIndex) != WireError.OK || view.wrap(ownIndex, 0) != WireError.OK) {
            return -1;
        }
        if (!hasTrailers(ownIndex)) {
            // without trailers a rendering differs from the record only where the rules say, so
            // compare in place instead of rendering twice
            if (view.hasPolicy()) {
                if (candLen != recLen) {
                    return -1;
                }
                final int p = view.policyOffset() - recOff;
                if (!Bytes.equals(rec, recOff, p, cand, candOff, p)
                        || !Bytes.equals(rec, recOff + p + 2, recLen - p - 2, cand, candOff + p + 2, recLen - p - 2)) {
                    return -1;
                }
                final int want = Bytes.u16(cand, candOff + p);
                return DeliveryPolicy.masked(want) == view.policyMasked() ? (DeliveryPolicy.suspended(want) ? 1 : 0) : -1;
            }
            if (candLen == recLen) {
                return Bytes.equals(rec, recOff, recLen, cand, candOff, candLen) ? 0 : -1;
            }
            final int n = render(ownIndex, 0, true, scratch, scratchOff, scratchCap);
            return n == candLen && Bytes.equals(scratch, scratchOff, n, cand, candOff, candLen) ? 1 : -1;
        }
        for (int x = 0; x <= 1; x++) {
            final int n = render(ownIndex, 0, x == 1, scratch, scratchOff, scratchCap);
            if (n == candLen && Bytes.equals(scratch, scratchOff, n, cand, candOff, candLen)) {
                return x;
            }
        }
        return -1;
    }

    private static boolean hasTrailers(TlvIndex idx) {
        for (int e = 0, n = idx.count(); e < n; e++) {
            if ((idx.opt(e) & (Opt.TS | Opt.CR)) != 0) {
                return true;
            }
        }
        return false;
    }
}
