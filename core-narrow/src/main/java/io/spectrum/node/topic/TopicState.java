package io.spectrum.node.topic;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodeResult;
import io.spectrum.node.api.ValueAdmission;
import io.spectrum.node.fwd.LinkTable;
import io.spectrum.node.pool.BlockPool;
import io.spectrum.node.table.BackfillRing;
import io.spectrum.node.table.VertexTable;
import io.spectrum.time.Clock;
import io.spectrum.wire.Opt;
import io.spectrum.wire.PathKeys;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.WireError;

/**
 * A vertex's topic bookkeeping: creation (mkdir -p, sequence floor after retirement), the retained
 * value, the sequence, the last publisher and its notice route, stale marking when the publisher's
 * peer departs and the purge after the grace. Delivery is not here ({@link Fanout}, which also sends
 * the stale and purge notices these marks cause).
 */
public final class TopicState {
    private final VertexTable vt;
    private final BlockPool values;
    private final BlockPool records;
    private final int payloadCap;
    /** The node's frame size and its links' limits: the bound of a value that must be readable. */
    private final LinkTable links;
    private final long staleGrace;
    private final io.spectrum.time.Clock clock;
    private final BackfillRing ring;
    /** This node gives a value that arrives without an origin time its clock's ({@code NodeConfig#givesOrigins}). */
    private final boolean givesOrigins;
    /** A reason being marked, before it is compared with and copied over the held one. */
    private final byte[] reasonScratch = new byte[StaleReason.MAX_BYTES];
    /** Highest sequence of any retired vertex: the floor of a newly created one. */
    private long retiredSeqFloor;

    /** Topic state over the node's vertex table, pools, links and backfill ring, as {@code config} sets it. */
    public TopicState(NodeConfig config, Clock clock, VertexTable vt, BlockPool values, BlockPool records, LinkTable links,
            BackfillRing ring) {
        this.vt = vt;
        this.values = values;
        this.records = records;
        this.payloadCap = config.payloadCap();
        this.links = links;
        this.staleGrace = config.staleGraceNanos();
        this.clock = clock;
        this.ring = ring;
        this.givesOrigins = config.givesOrigins();
    }

    /** Finds or creates (mkdir -p) the vertex for a PATH body. Quantity: the vertex, or a negated code. */
    public int resolveOrCreate(byte[] b, int off, int len) {
        int v = vt.find(b, off, len);
        if (v >= 0) {
            return v;
        }
        if (PathKeys.validateKey(b, off, len) != WireError.OK || len > vt.maxKey()) {
            vt.refused();
            return NodeResult.refusal(WireError.PATH_INVALID);
        }
        // count the missing prefixes first, so a refusal creates nothing
        int missing = 0;
        int p = 0;
        while (p < len) {
            p += 1 + (b[off + p] & 0xFF);
            if (vt.find(b, off, p) < 0) {
                missing++;
            }
        }
        if (missing > vt.free()) {
            vt.refused();
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        int parent = 0;
        p = 0;
        while (p < len) {
            p += 1 + (b[off + p] & 0xFF);
            int c = vt.find(b, off, p);
            if (c < 0) {
                c = vt.create(b, off, p, parent);
                vt.raiseSeq(c, retiredSeqFloor); // a re-created path never sees its sequence go back
            }
            parent = c;
        }
        return parent;
    }

    /**
     * The assign half of a write: stores the value and does the topic bookkeeping (sequence, last
     * publisher, publisher notice route when asked for, and freshness: not stale, unless the value is
     * a delivery its upstream stamped stale, which is stored stale with the upstream's reason in the
     * same step, so the fan-out that follows never shows it as current).
     *
     * @return OK, SCHEMA_TYPE_MISMATCH (against the declaration), or FLOW_BACKPRESSURE (above the
     *     payload cap or one frame, or the value pool is full)
     */
    int assign(int v, byte[] b, int off, int len, Publisher pub) {
        int r = admit(v, b, off, len);
        if (r != WireError.OK) {
            return r;
        }
        r = storeValue(v, b, off, len);
        if (r != WireError.OK) {
            return r;
        }
        vt.bumpSeq(v);
        vt.valueIsCurrent(v);
        vt.setPublisher(v, pub.link(), pub.peer());
        vt.setValuePublisher(v, pub.link(), pub.peer());
        vt.clearStale(v);
        final io.spectrum.wire.StampView up = pub.upstream();
        if (up != null && up.stale()) {
            markStale(v, clock.nanoTime(), up.buffer(), up.reasonOffset(), up.reasonLength(), true);
        }
        vt.setOrigin(v, origin(up));
        if (vt.schema(v) != null) { // a declared vertex keeps its last values for backfill
            ring.push(v, vt.seq(v), vt.origin(v), clock.nanoTime(), b, off, len);
        }
        vt.setPublisherNotify(v, pub.wantsNotices()
                && storePublisherRoute(v, pub.route(), pub.routeOffset(), pub.routeLength()));
        return WireError.OK;
    }

    /**
     * A non-retained publish's bookkeeping (docs/node.md, "Retain: false"): after the admission
     * checks, the next sequence number is spent and {@code pub} becomes the last publisher, but the
     * held value, its sequence and origin stay. The stale mark clears only when {@code pub} published
     * the held value (the same address: a NARROW node knows no names).
     *
     * @return OK or the admission's refusal (nothing changed)
     */
    int assignUnretained(int v, byte[] b, int off, int len, Publisher pub) {
        int r = admit(v, b, off, len);
        if (r != WireError.OK) {
            return r;
        }
        vt.bumpSeq(v);
        vt.setPublisher(v, pub.link(), pub.peer());
        if (vt.isStale(v) && vt.publishedValue(v, pub.link(), pub.peer())) {
            vt.clearStale(v);
        }
        vt.setPublisherNotify(v, pub.wantsNotices()
                && storePublisherRoute(v, pub.route(), pub.routeOffset(), pub.routeLength()));
        return WireError.OK;
    }

    /**
     * The origin time of a value being assigned (docs/extensions.md "Origin time"): the one its
     * upstream's stamp carries, else this node's clock in ms when it gives origins (a host), else 0
     * (none: a board leaves it to the first host, its clock may not be set).
     */
    long origin(io.spectrum.wire.StampView up) {
        if (up != null && up.origin() > 0) {
            return up.origin();
        }
        return givesOrigins ? clock.epochNanos() / 1_000_000L : 0;
    }

    /**
     * Whether the trailer-less value TLV {@code b[off, off+len)} may be assigned to v: the rule of
     * {@link ValueAdmission} with this node's payload cap and frame, which is the node's
     * {@code frameBytes} or the smallest attached link's frame limit when that is smaller
     * ({@link LinkTable#frameLimit()}).
     */
    public int admit(int v, byte[] b, int off, int len) {
        return ValueAdmission.admit(vt.schema(v), b, off, len, vt.keyLen(v), payloadCap, links.frameLimit());
    }

    /** Assigns the value (stored trailer-less) reusing the block when the size class is unchanged. */
    int storeValue(int v, byte[] b, int off, int len) {
        final int old = vt.valLen(v);
        int dst;
        if (old >= 0 && BlockPool.classOf(old) == BlockPool.classOf(len)) {
            dst = vt.valOff(v);
        } else {
            dst = values.alloc(len);
            if (dst < 0) {
                return WireError.FLOW_BACKPRESSURE;
            }
            if (old >= 0) {
                values.free(vt.valOff(v), old);
            }
        }
        final byte[] mem = values.memory();
        System.arraycopy(b, off, mem, dst, len);
        mem[dst + 1] &= (byte) ~(Opt.TS | Opt.CR); // trailers are stripped on ingress
        vt.setValue(v, dst, len);
        vt.valueIsCurrent(v);
        return WireError.OK;
    }

    void dropValue(int v) {
        if (vt.valLen(v) >= 0) {
            values.free(vt.valOff(v), vt.valLen(v));
            vt.clearValue(v);
        }
    }

    private boolean storePublisherRoute(int v, byte[] rb, int rOff, int rLen) {
        int old = vt.pubRouteLen(v);
        int off = vt.pubRouteOff(v);
        if (off >= 0 && BlockPool.classOf(old) != BlockPool.classOf(rLen)) {
            records.free(off, old);
            off = -1;
        }
        if (off < 0) {
            off = records.alloc(rLen);
            if (off < 0) {
                vt.setPubRoute(v, -1, 0);
                return false;
            }
        }
        System.arraycopy(rb, rOff, records.memory(), off, rLen);
        vt.setPubRoute(v, off, rLen);
        return true;
    }

    /** Clears the value (not stale afterwards); with a notice the sequence moves on. */
    public void clear(int v, boolean notify) {
        dropValue(v);
        vt.clearStale(v);
        if (notify) {
            vt.bumpSeq(v);
        }
    }

    /**
     * Marks v stale from {@code now} with {@code reason} (UTF-8, cut at {@link StaleReason#MAX_BYTES})
     * when it holds a value, or, the owner's mark only, when it is declared and holds none yet (a source
     * that failed from its first read: no value yet, and why; docs/extensions.md "Stale and purge notices"). The node's own marks ({@code byOwner} false: a departed publisher, a
     * subscription gap) leave a vertex that is already stale as it is, and are purged after the grace.
     * The owner's mark ({@link io.spectrum.node.api.Node#markStale}) is kept until the next publish
     * (never purged) and replaces the reason of a vertex already stale. True when subscribers must be
     * told ({@link Fanout#topicNotice}): a new mark or a changed reason. Allocation-free.
     */
    public boolean markStale(int v, long now, CharSequence reason, boolean byOwner) {
        if (vt.valLen(v) < 0 && !(byOwner && vt.schema(v) != null) || vt.isStale(v) && !byOwner) {
            return false;
        }
        return mark(v, now, StaleReason.encode(reason, reasonScratch, 0), byOwner);
    }

    /**
     * {@link #markStale(int, long, CharSequence, boolean)} with the reason already UTF-8 in
     * {@code b[off, +len)} (an upstream's stamp), cut at a character boundary within
     * {@link StaleReason#MAX_BYTES}.
     */
    public boolean markStale(int v, long now, byte[] b, int off, int len, boolean byOwner) {
        if (vt.valLen(v) < 0 || vt.isStale(v) && !byOwner) {
            return false;
        }
        int n = Math.min(len, StaleReason.MAX_BYTES);
        while (n < len && n > 0 && (b[off + n] & 0xC0) == 0x80) {
            n--; // never half a character
        }
        System.arraycopy(b, off, reasonScratch, 0, n);
        return mark(v, now, n, byOwner);
    }

    /** Applies the mark whose reason is {@code reasonScratch[0, n)}. */
    private boolean mark(int v, long now, int n, boolean byOwner) {
        final byte[] held = vt.reasons();
        final int at = vt.reasonOff(v);
        if (vt.isStale(v)) {
            vt.keepStale(v);
            if (n == vt.reasonLen(v) && sameBytes(reasonScratch, held, at, n)) {
                return false; // the same mark again: nothing new to tell
            }
        } else {
            vt.markStale(v, now, byOwner);
        }
        System.arraycopy(reasonScratch, 0, held, at, n);
        vt.setReasonLen(v, n);
        return true;
    }

    private static boolean sameBytes(byte[] a, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i++) {
            if (a[i] != b[bo + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The publisher's peer departed: every vertex it last published that holds a value goes stale
     * from {@code now} ({@link StaleReason#PUBLISHER_GONE}), and each one's notice goes out through
     * {@code fanout} (same sequence). A vertex this node declared is left alone: its value is the
     * node's state, whoever wrote it (docs/node.md, "Declared vertices keep their value").
     */
    public void publisherDown(int li, int peer, long now, Fanout fanout) {
        for (int v = 0; v < vt.capacity(); v++) {
            if (vt.inUse(v) && vt.pubLink(v) == li && vt.pubPeer(v) == peer && vt.schema(v) == null
                    && markStale(v, now, StaleReason.PUBLISHER_GONE, false)) {
                fanout.topicNotice(v, false);
            }
        }
    }

    /**
     * Purges the retained value of every vertex whose publisher did not come back in its grace: the
     * value goes, the vertex is no longer stale, a fresh sequence number is spent (the purge is the
     * node's notifying clear) and the delete notice goes out through
     * {@code fanout}. A declared vertex, this node's own declaration or one it mirrors from another
     * node ({@link VertexTable#described}), is never purged: it stays stale until a fresh value
     * comes (docs/node.md, "Declared vertices keep their value").
     */
    public void purgeExpired(long now, Fanout fanout) {
        for (int v = 0; v < vt.capacity(); v++) {
            if (vt.isStale(v) && !vt.staleKept(v) && now - vt.staleSince(v) >= staleGrace && vt.described(v) == null) {
                clear(v, true);
                fanout.topicNotice(v, true);
            }
        }
    }

    /** Removes a leaf vertex whose slots and awaits are already gone; its sequence becomes a floor. */
    public void retire(int v) {
        dropValue(v);
        if (vt.pubRouteOff(v) >= 0) {
            records.free(vt.pubRouteOff(v), vt.pubRouteLen(v));
        }
        if (vt.seq(v) > retiredSeqFloor) {
            retiredSeqFloor = vt.seq(v);
        }
        vt.remove(v);
    }
}
