package io.spectrum.wire;

/**
 * The one reader of Spectrum's delivery-mode keys (docs/extensions.md, "Delivery modes"): the
 * SUBSCRIBER qos keys {@code spectrum.mode} (VALUE u8: {@link #LATEST} 1, {@link #BOUNDED} 2),
 * {@code spectrum.queue} (VALUE u16 maxQueued) and {@code spectrum.inflight} (VALUE u16
 * maxInFlight), and the consumed message {@code SETTINGS{NAME "spectrum.consumed", VALUE u64 upTo}}.
 *
 * <p>Unlike the lenient pair walk of {@link SettingsReader}, these keys are read strictly, so a
 * malformed request is refused whole: a repeated key, a value of the wrong type or width, an
 * unknown mode, 0, a queue or in-flight key without a mode, or a latest queue other than 1 is
 * {@link WireError#SCHEMA_TYPE_MISMATCH}; a well-formed value above this node's limit (latest
 * 1 / 2, bounded 64 / 16, the host bus's defaults) is {@link WireError#FLOW_BACKPRESSURE}. Absent queue / in-flight keys read as the limit.
 * Static and allocation-free; the parsed mode is a packed long ({@link #kind}, {@link #maxQueued},
 * {@link #maxInFlight}), 0 when the qos asks for no mode, a negated code on refusal.
 */
public final class DeliveryMode {
    /** No mode: today's behaviour (every delivery sent as it happens). */
    public static final int NONE = 0;
    /** One undelivered value, replaced by the next (with a replaced count on its delivery). */
    public static final int LATEST = 1;
    /** A FIFO of undelivered values; a publish that would overflow it is refused whole. */
    public static final int BOUNDED = 2;

    /** Queue limit of {@link #LATEST}: exactly one undelivered value. */
    public static final int LATEST_MAX_QUEUED = 1;
    /**
     * This node's in-flight limit (deliveries not yet consumed) for {@link #LATEST}; also its
     * default.
     */
    public static final int LATEST_MAX_IN_FLIGHT = 2;
    /**
     * This node's queue limit for {@link #BOUNDED}, and the default when {@code spectrum.queue} is
     * absent.
     */
    public static final int BOUNDED_MAX_QUEUED = 64;
    /**
     * This node's in-flight limit for {@link #BOUNDED}, and the default when {@code
     * spectrum.inflight} is absent.
     */
    public static final int BOUNDED_MAX_IN_FLIGHT = 16;

    private DeliveryMode() {
    }

    /**
     * Reads the mode keys of a qos SETTINGS (the reader already wrapped over it).
     *
     * @return 0 (no mode keys), a packed mode, or a negated WireError code
     */
    public static long parse(SettingsReader qos) {
        final TlvIndex x = qos.index();
        int mode = -1;
        int queued = -1;
        int inFlight = -1;
        for (int k = qos.firstKey(); k != TlvIndex.NONE; k = qos.nextKey(k)) {
            final int which = x.payloadEquals(k, Names.MODE) ? 0
                    : x.payloadEquals(k, Names.MODE_QUEUE) ? 1
                    : x.payloadEquals(k, Names.MODE_INFLIGHT) ? 2 : -1;
            if (which < 0) {
                continue;
            }
            final int v = qos.valueOf(k);
            final int width = which == 0 ? 1 : 2;
            if (x.type(v) != TlvType.VALUE || x.isContainer(v) || x.bodyLength(v) != width) {
                return -WireError.SCHEMA_TYPE_MISMATCH;
            }
            final int n = (int) x.valueAsLong(v);
            if (which == 0) {
                if (mode >= 0) {
                    return -WireError.SCHEMA_TYPE_MISMATCH; // repeated key
                }
                mode = n;
            } else if (which == 1) {
                if (queued >= 0) {
                    return -WireError.SCHEMA_TYPE_MISMATCH;
                }
                queued = n;
            } else {
                if (inFlight >= 0) {
                    return -WireError.SCHEMA_TYPE_MISMATCH;
                }
                inFlight = n;
            }
        }
        if (mode < 0) {
            return queued >= 0 || inFlight >= 0 ? -WireError.SCHEMA_TYPE_MISMATCH : 0;
        }
        if ((mode != LATEST && mode != BOUNDED) || queued == 0 || inFlight == 0) {
            return -WireError.SCHEMA_TYPE_MISMATCH;
        }
        final int maxQ = mode == LATEST ? LATEST_MAX_QUEUED : BOUNDED_MAX_QUEUED;
        final int maxF = mode == LATEST ? LATEST_MAX_IN_FLIGHT : BOUNDED_MAX_IN_FLIGHT;
        if (mode == LATEST && queued > 1) {
            return -WireError.SCHEMA_TYPE_MISMATCH; // latest holds exactly one undelivered value
        }
        if (queued > maxQ || inFlight > maxF) {
            return -WireError.FLOW_BACKPRESSURE; // well-formed, above this node's limit
        }
        return pack(mode, queued < 0 ? maxQ : queued, inFlight < 0 ? maxF : inFlight);
    }

    /** A packed mode (for nodes and tests): kind in bits 0..7, maxQueued 8..23, maxInFlight 24..39. */
    public static long pack(int kind, int maxQueued, int maxInFlight) {
        return (kind & 0xFFL) | (maxQueued & 0xFFFFL) << 8 | (maxInFlight & 0xFFFFL) << 24;
    }

    /**
     * The mode of a packed value from {@link #parse} or {@link #pack}: {@link #NONE}, {@link
     * #LATEST} or {@link #BOUNDED}.
     */
    public static int kind(long packed) {
        return (int) (packed & 0xFF);
    }

    /** The most undelivered values the subscriber's queue holds, from a packed mode. */
    public static int maxQueued(long packed) {
        return (int) (packed >>> 8 & 0xFFFF);
    }

    /** The most deliveries sent but not yet consumed, from a packed mode. */
    public static int maxInFlight(long packed) {
        return (int) (packed >>> 24 & 0xFFFF);
    }

    /**
     * Reads a consumed message: a SETTINGS container holding exactly the pair
     * {@code NAME "spectrum.consumed", VALUE u64 upTo}.
     *
     * @return upTo (a u64 with its top bit set reads as {@link Long#MAX_VALUE}), or -1 when the
     *     entry is not a consumed message
     */
    public static long consumed(TlvIndex x, int e) {
        final int v = soleU64(x, e, Names.CONSUMED);
        if (v == TlvIndex.NONE) {
            return -1;
        }
        final long n = x.valueAsLong(v);
        return n < 0 ? Long.MAX_VALUE : n;
    }

    /**
     * The VALUE entry of a SETTINGS at {@code e} that holds exactly the pair {@code NAME key,
     * VALUE u64}, or {@link TlvIndex#NONE} when {@code e} is anything else.
     */
    private static int soleU64(TlvIndex x, int e, Spelling key) {
        if (e < 0 || e >= x.count() || x.type(e) != TlvType.SETTINGS || !x.isContainer(e)) {
            return TlvIndex.NONE;
        }
        final int k = x.firstChild(e);
        if (k == TlvIndex.NONE || x.type(k) != TlvType.NAME || !x.payloadEquals(k, key)) {
            return TlvIndex.NONE;
        }
        final int v = x.nextSibling(k);
        if (v == TlvIndex.NONE || x.type(v) != TlvType.VALUE || x.isContainer(v) || x.bodyLength(v) != 8
                || x.nextSibling(v) != TlvIndex.NONE) {
            return TlvIndex.NONE;
        }
        return v;
    }

    /**
     * Writes the consumed answer's payload {@code SETTINGS{NAME "spectrum.delivered", VALUE u64 n}}:
     * the number of the edge's last delivery sent, so a consumer that lost deliveries learns which
     * numbers to consume (the node's writer).
     */
    public static TlvWriter writeDelivered(TlvWriter w, long delivered) {
        return w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, Names.DELIVERED).value(delivered, 8).end();
    }

    /**
     * Reads a consumed answer's payload ({@link #writeDelivered}).
     *
     * @return the last delivered number, or -1 when the entry is not that SETTINGS
     */
    public static long delivered(TlvIndex x, int e) {
        final int v = soleU64(x, e, Names.DELIVERED);
        if (v == TlvIndex.NONE) {
            return -1;
        }
        final long n = x.valueAsLong(v);
        return n < 0 ? -1 : n;
    }

    /** Writes the consumed message {@code SETTINGS{NAME "spectrum.consumed", VALUE u64 upTo}} (clients, tests). */
    public static TlvWriter writeConsumed(TlvWriter w, long upTo) {
        return w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, Names.CONSUMED).value(upTo, 8).end();
    }
}
