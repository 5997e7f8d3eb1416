package io.spectrum.node.fwd;

import io.spectrum.node.api.AccessPolicy;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FwdRewrite;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/**
 * The FWD request being answered: the decoded frame, the caller (link index, peer), the op byte,
 * the dst and src entries, whether the src is empty (silent: nothing is answered); the access gate
 * for the caller; and the reply frames, routed back to the request's src with its dst as their src.
 */
final class FwdRequest {
    /** The decoded request frame. */
    final TlvIndex rx;
    private final FwdStore vt;
    private final LinkTable links;
    private final FrameBuffers buffers;
    private final AccessPolicy access;
    private final boolean undeclaredWritable;
    private final Extensions extensions = new Extensions();
    /** The stamp of a READ answer that asked for it, re-pointed per answer. */
    private final ValueRecord answered = new ValueRecord();
    private final io.spectrum.wire.Backfill backfill = new io.spectrum.wire.Backfill();

    int link;
    int peer;
    int op;
    int dst;
    int src;
    boolean silent;
    /** The holder token the request carries ({@link Extensions#holdToken}), or NO_TOKEN. */
    long hold;
    /** The request asked for the topic stamp on its answer ({@link Extensions#topicAsked}). */
    boolean stampAsked;
    /** The sequence a READ asks backfill after ({@link io.spectrum.wire.Backfill#asked}), or -1: none asked. */
    long backfillAfter;
    /** A WRITE's retention ({@link Extensions#retain}: RETAINED, NOT_RETAINED or RETAIN_MALFORMED). */
    int retain;
    /** Whether a WRITE clears its vertex ({@link Extensions#clear}: NOT_CLEAR, CLEAR_SILENT, CLEAR_NOTIFY or CLEAR_MALFORMED). */
    int clear;

    FwdRequest(FwdParts p) {
        this.rx = p.rx;
        this.vt = p.store;
        this.links = p.links;
        this.buffers = p.buffers;
        this.access = p.config.accessPolicy();
        this.undeclaredWritable = p.config.remoteWritesToUndeclared();
    }

    void set(int li, int p, int opByte, int dstEntry, int srcEntry) {
        link = li;
        peer = p;
        op = opByte;
        dst = dstEntry;
        src = srcEntry;
        silent = rx.type(srcEntry) == TlvType.PATH && rx.bodyLength(srcEntry) == 0;
        hold = Extensions.NO_TOKEN;
        stampAsked = false;
        backfillAfter = -1;
        retain = Extensions.RETAINED;
        clear = Extensions.NOT_CLEAR;
    }

    /**
     * Records the caller's announcement ({@link Extensions}) when the request carries one among
     * {@code first} and its following siblings (the children after src, past a WRITE's payload), and
     * hands an announced peer name to the core ({@link FwdStore#peerNamed}).
     */
    void noteAnnouncement(int first) {
        stampAsked = first != TlvIndex.NONE && (extensions.topicAsked(rx, first) & io.spectrum.wire.Names.TOPIC_STAMP) != 0;
        backfillAfter = first != TlvIndex.NONE ? backfill.asked(rx, first) : -1;
        retain = first != TlvIndex.NONE ? extensions.retain(rx, first) : Extensions.RETAINED;
        clear = first != TlvIndex.NONE ? extensions.clear(rx, first) : Extensions.NOT_CLEAR;
        if (first != TlvIndex.NONE && link != FwdServer.OWNER) {
            links.extensions.announce(link, peer, extensions.announced(rx, first));
            hold = extensions.holdToken(rx, first);
            if (hold > 0) {
                links.extensions.echoed(link, peer, hold); // the answer to a challenge sent to this address
            }
            final int name = extensions.announcedName(rx, first);
            if (name != TlvIndex.NONE) {
                vt.peerNamed(link, peer, rx.buffer(), rx.bodyOffset(name), rx.bodyLength(name));
            }
        }
    }

    /**
     * The holder gate (docs/security.md, "Holders and spoofing"), for requests that make the caller
     * hold something (an append, a replace, an AWAIT) and for writes to a slot it holds (clear,
     * toggle): true for the owner; for a verified peer only when the request carries its token; for
     * any other peer that sends the hold pair, false (it gets a challenge, {@link #replyHoldRefusal});
     * a plain peer that sends no hold pair holds as in libtracer v1. A peer the announcement table
     * has no room for is served as a plain one.
     */
    boolean holdGate() {
        if (link == FwdServer.OWNER) {
            return true;
        }
        final PeerExtensions e = links.extensions;
        if (e.verified(link, peer)) {
            return e.holds(link, peer, hold);
        }
        return hold == Extensions.NO_TOKEN || e.token(link, peer) < 0;
    }

    /**
     * Refuses a request the holder gate stopped: ERROR access::denied, with the challenge (the peer's
     * token, minted now if needed) when the caller sends the hold pair. The answer goes to the
     * caller's address only, so a third party that forged that address never sees the token.
     */
    void replyHoldRefusal() {
        if (silent) {
            return;
        }
        long token = hold != Extensions.NO_TOKEN ? links.extensions.token(link, peer) : -1;
        TlvWriter t = beginReply(FwdView.KIND_ERROR).status(WireError.ACCESS_DENIED);
        if (token > 0) {
            Extensions.challenge(t, token);
        }
        t.end();
        if (t.error() == WireError.OK) {
            send(t.length());
        }
    }

    /**
     * True when the caller may be answered with Spectrum's extended forms: the owner, or a peer that
     * announced them. Everyone else is answered byte-for-byte libtracer v1.
     */
    boolean extended() {
        return link == FwdServer.OWNER || links.extensions.version(link, peer) > 0;
    }

    boolean fromOwner() {
        return link == FwdServer.OWNER;
    }

    /** True when (link, peer) is the holder recorded for a slot. */
    boolean isCaller(int holderLink, int holderPeer) {
        return holderLink == link && holderPeer == peer;
    }

    /*
     * The gates for remote callers (the owner passes them all): first the vertex's declaration
     * (its rights for remote callers; an undeclared vertex is readable and subscribable, and
     * writable only when the node's config says so), then the node's access policy.
     */

    /** READ (read, await, the :subscribers list) on v. */
    boolean canRead(int v) {
        if (link == FwdServer.OWNER) {
            return true;
        }
        final VertexSchema sc = vt.schema(v);
        return (sc == null || sc.allows(AccessMask.READ)) && (access == null
                || access.canRead(vt.keys(v), vt.keyOffset(v), vt.keyLen(v), links.id(link), peer));
    }

    /** WRITE of v's value. */
    boolean canWrite(int v) {
        if (link == FwdServer.OWNER) {
            return true;
        }
        final VertexSchema sc = vt.schema(v);
        return (sc == null ? undeclaredWritable : sc.allows(AccessMask.WRITE)) && (access == null
                || access.canWrite(vt.keys(v), vt.keyOffset(v), vt.keyLen(v), links.id(link), peer));
    }

    /** SUBSCRIBE on v: an append to or a replace in its :subscribers. */
    boolean canSubscribe(int v) {
        if (link == FwdServer.OWNER) {
            return true;
        }
        final VertexSchema sc = vt.schema(v);
        return sc == null || sc.allows(AccessMask.SUBSCRIBE);
    }

    /** The vertex the dst PATH names, or a negative value when absent. */
    int findDst() {
        return vt.find(rx.buffer(), rx.bodyOffset(dst), rx.bodyLength(dst));
    }

    /** Starts a reply in the transmit buffer: FWD{REPLY, dst = request src, src = request dst, kind. */
    TlvWriter beginReply(int kind) {
        return FwdRewrite.beginReply(buffers.txWriter(), rx, src, dst, kind);
    }

    /** Sends the reply built in the transmit buffer to the caller. */
    void send(int len) {
        links.send(link, peer, buffers.tx, len);
    }

    void replyResult(byte[] pb, int po, int pl) {
        if (silent) {
            return;
        }
        TlvWriter t = beginReply(FwdView.KIND_RESULT);
        if (pb != null) {
            t.raw(pb, po, pl);
        }
        t.end();
        if (t.error() == WireError.OK) {
            send(t.length());
        } else {
            replyError(WireError.FLOW_BACKPRESSURE); // the answer does not fit the frame buffer
        }
    }

    /**
     * A READ's RESULT with v's value and, after it, the topic stamp (seq, stale, op 0, its origin when
     * it has one, the reason when stale), for a request that asked ({@link #stampAsked}; docs/extensions.md "Delivery stamp").
     */
    void replyValueStamped(int v) {
        if (silent) {
            return;
        }
        TlvWriter t = beginReply(FwdView.KIND_RESULT).raw(vt.valueMemory(v), vt.valOff(v), vt.valLen(v));
        Deliveries.stamp(t, FwdStore.STAMP, answered.stamp(vt.seq(v), vt.stale(v), false, vt.origin(v))
                .publisher(vt.publisherName(v)).reason(vt.reasonMemory(v), vt.reasonOff(v), vt.reasonLen(v)));
        t.end();
        if (t.error() == WireError.OK) {
            send(t.length());
        } else {
            replyError(WireError.FLOW_BACKPRESSURE); // the answer does not fit the frame buffer
        }
    }

    /**
     * A backfill READ's RESULT (docs/extensions.md "Backfill"): v's sequence now, its evicted mark, then
     * the values it keeps above {@link #backfillAfter}, oldest first, as many as fit one frame (the
     * asker asks again after the last one it got). Allocation-free.
     */
    void replyBackfill(int v, long nowNanos) {
        if (silent) {
            return;
        }
        TlvWriter t = beginReply(FwdView.KIND_RESULT);
        io.spectrum.wire.Backfill.beginAnswer(t, vt.seq(v), vt.backfillEvicted(v));
        final int room = Math.min(links.frameLimit(), buffers.tx.length) - t.length() - 16; // the two ends, and their long headers
        vt.backfill(v, backfillAfter, nowNanos, t, room);
        t.end().end();
        if (t.error() == WireError.OK) {
            send(t.length());
        } else {
            replyError(WireError.FLOW_BACKPRESSURE);
        }
    }

    /** Answers a stored SETTINGS for a plain v1 peer: its {@code spectrum.*} pairs left out. */
    void replyResultWithoutExtensionKeys(byte[] pb, int po, int pl) {
        final byte[] scratch = buffers.scratch;
        int n = Extensions.copyWithoutExtensionKeys(pb, po, pl, scratch, 0, scratch.length);
        if (n < 0) {
            replyResult(pb, po, pl); // not a flat SETTINGS: nothing to leave out
        } else {
            replyResult(scratch, 0, n);
        }
    }

    /**
     * A READ's ERROR {@code code} for a vertex v without a value that is marked stale (declared, a
     * source failed from its first read) or has spent sequence numbers (cleared, purged, published only
     * unretained), then its stamp (seq, stale, op 0, the last publisher, the reason), for a request
     * that asked for the stamp: "no value now, and where it stands" (docs/extensions.md "On a READ answer").
     */
    void replyErrorStamped(int code, int v) {
        if (silent) {
            return;
        }
        TlvWriter t = beginReply(FwdView.KIND_ERROR).status(code);
        Deliveries.stamp(t, FwdStore.STAMP, answered.stamp(vt.seq(v), vt.stale(v), false, 0)
                .publisher(vt.publisherName(v)).reason(vt.reasonMemory(v), vt.reasonOff(v), vt.reasonLen(v)));
        t.end();
        if (t.error() == WireError.OK) {
            send(t.length());
        } else {
            replyError(code);
        }
    }

    void replyError(int code) {
        if (silent) {
            return;
        }
        TlvWriter t = beginReply(FwdView.KIND_ERROR)
                .status(code)
                .end();
        if (t.error() == WireError.OK) {
            send(t.length());
        }
    }
}
