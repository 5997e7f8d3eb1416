package io.spectrum.node.fwd;

import io.spectrum.node.api.NodeResult;
import io.spectrum.node.route.FwdRouter;
import io.spectrum.time.Clock;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.PathKeys;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;

/**
 * The FWD terminus: reads the request decoded into {@link FwdRequest#rx} through {@link FwdView}, hands replies to the
 * remote client, and dispatches READ / WRITE / AWAIT on the dst vertex
 * or its {@code :subscribers} / {@code :children} field, answering every refusal with a typed error.
 */
final class FwdTerminus {
    private final FwdRequest req;
    private final FieldSelector sel;
    private final SubscribersField subscribers;
    private final ChildrenField children;
    private final SettingsField settings;
    private final ComposedRead composed;
    private final FwdStore vt;
    private final LinkTable links;
    private final AwaitTable awaits;
    private final RemoteClient client;
    private final Clock clock;
    private final long defaultAwait;
    private final long maxAwait;
    private final FwdView fwd = new FwdView();
    private final FwdRouter router;
    /** The request being handled is a :subscribers request under a mount served here (an append may create). */
    private boolean servedUnderMount;
    /** Admits remote requests before routing and serving them, or null: every request goes on. */
    private RequestGate gate;

    FwdTerminus(FwdParts p) {
        this.req = p.req;
        this.sel = p.sel;
        this.subscribers = p.subscribers;
        this.children = p.children;
        this.settings = p.settings;
        this.composed = p.composed;
        this.vt = p.store;
        this.links = p.links;
        this.awaits = p.awaits;
        this.client = p.client;
        this.clock = p.clock;
        this.defaultAwait = p.config.defaultAwaitTimeoutNanos();
        this.maxAwait = p.config.maxAwaitTimeoutNanos();
        this.router = p.router;
    }

    /**
     * Handles the request already decoded into the request's index, from (link, peer). The envelope
     * is read by {@link FwdView}; one it refuses (not FWD, op not a 1-byte VALUE, dst or src missing)
     * has no trustworthy return route, so it is dropped and counted on the link.
     */
    void handle(int li, int peer) {
        final TlvIndex x = req.rx;
        if (fwd.wrap(x, 0) != WireError.OK) {
            links.dropped(li);
            return;
        }
        if (li >= 0 && gate != null && fwd.opcode() != FwdView.OP_REPLY) {
            final int g = gate.admit(links.link(li), peer, fwd);
            if (g != WireError.OK) {
                req.set(li, peer, fwd.op(), fwd.dst(), fwd.src());
                req.replyError(g); // refused before anything is routed, created or held
                return;
            }
        }
        if (li >= 0 && router.route(links.link(li), peer, fwd) != FwdRouter.LOCAL) {
            return; // forwarded under a mount, or refused with its typed error
        }
        servedUnderMount = li >= 0 && router.servedUnderMount();
        final int op = fwd.opcode();
        if (op == FwdView.OP_REPLY) {
            client.onReply(li, peer, fwd);
            return;
        }
        req.set(li, peer, fwd.op(), fwd.dst(), fwd.src());
        final int rest = x.nextSibling(fwd.src());
        req.noteAnnouncement(op == FwdView.OP_WRITE && rest != TlvIndex.NONE ? x.nextSibling(rest) : rest);
        if (req.silent && (op != FwdView.OP_WRITE || fwd.mint())) {
            return; // empty src: READ, AWAIT, mint-flagged and unknown ops are dropped silently
        }
        switch (op) {
            case FwdView.OP_READ:
                read(fwd.field());
                break;
            case FwdView.OP_WRITE:
                write(fwd.field(), fwd.payload());
                break;
            case FwdView.OP_AWAIT:
                await(fwd.field());
                break;
            default:
                req.replyError(WireError.SCHEMA_TYPE_MISMATCH);
        }
    }

    /** Sets the gate remote requests pass first (null: none). */
    void gate(RequestGate g) {
        gate = g;
    }

    /** Checks the request's dst is a plain, valid PATH; answers the refusal and returns -1 otherwise. */
    private int resolveDst() {
        final TlvIndex x = req.rx;
        if (x.type(req.dst) == TlvType.PATH_REF) {
            req.replyError(WireError.PATH_NOT_FOUND); // this node mints no refs: nothing validates
            return -1;
        }
        if (x.isContainer(req.dst)
                || PathKeys.validateKey(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst)) != WireError.OK) {
            req.replyError(WireError.PATH_INVALID);
            return -1;
        }
        return 0;
    }

    private void read(int field) {
        if (resolveDst() < 0) {
            return;
        }
        if (field != TlvIndex.NONE) {
            int r = sel.parse(req.rx, field);
            if (r != WireError.OK) {
                req.replyError(r);
                return;
            }
        }
        if (servesAbsent() && field != TlvIndex.NONE && sel.index < 0 && sel.levels == 1
                && req.rx.payloadEquals(sel.first, Names.SUBSCRIBERS) && req.findDst() < 0) {
            subscribers.replyEmptyList(); // served here, and nobody subscribed under this path yet
            return;
        }
        int v = readableDst();
        if (v < 0) {
            return;
        }
        if (field == TlvIndex.NONE) {
            if (req.backfillAfter >= 0 && !vt.isReserved(v)) {
                req.replyBackfill(v, clock.nanoTime()); // the values kept after the asker's last (docs/extensions.md "Backfill")
                return;
            }
            if (composed.composes(v, req.fromOwner())) {
                composed.reply(v); // a vertex with children: the composed POINT tree
                return;
            }
            if (vt.valLen(v) < 0) {
                if (req.stampAsked && (vt.stale(v) || vt.seq(v) > 0)) {
                    req.replyErrorStamped(WireError.PATH_NOT_FOUND, v); // no value now, and where it stands
                } else {
                    req.replyError(WireError.PATH_NOT_FOUND);
                }
                return;
            }
            if (vt.isReserved(v) && !req.extended()) {
                // the node's own SETTINGS ($node/caps) without its spectrum.* keys
                req.replyResultWithoutExtensionKeys(vt.valueMemory(v), vt.valOff(v), vt.valLen(v));
                return;
            }
            if (req.stampAsked) {
                req.replyValueStamped(v); // the value then its stamp: seq, and stale with its reason
                return;
            }
            req.replyResult(vt.valueMemory(v), vt.valOff(v), vt.valLen(v));
            return;
        }
        final TlvIndex x = req.rx;
        if (x.payloadEquals(sel.first, Names.SUBSCRIBERS)) {
            subscribers.read(v);
        } else if (x.payloadEquals(sel.first, Names.CHILDREN)) {
            children.read(v);
        } else if (x.payloadEquals(sel.first, Names.SETTINGS)) {
            settings.readSettings(v);
        } else if (x.payloadEquals(sel.first, Names.SCHEMA)) {
            settings.readSchema(v);
        } else if (x.payloadEquals(sel.first, Names.ACL) && sel.levels == 1 && sel.mode == 0) {
            req.replyError(WireError.PATH_NOT_FOUND); // no ACL is set on any vertex
        } else {
            req.replyError(WireError.SCHEMA_NOT_FOUND);
        }
    }

    private void write(int field, int payload) {
        if (field == TlvIndex.NONE) {
            writeValue(payload);
            return;
        }
        final TlvIndex x = req.rx;
        if (resolveDst() < 0) {
            return;
        }
        int r = sel.parse(x, field);
        if (r != WireError.OK) {
            req.replyError(r);
            return;
        }
        if (x.payloadEquals(sel.first, Names.CHILDREN)) {
            // :children is in the field namespace but has no write meaning (digest silent: type_mismatch)
            req.replyError(req.findDst() < 0 ? WireError.PATH_NOT_FOUND : WireError.SCHEMA_TYPE_MISMATCH);
            return;
        }
        if (x.payloadEquals(sel.first, Names.SETTINGS) || x.payloadEquals(sel.first, Names.SCHEMA)) {
            int v = req.findDst();
            if (v < 0) {
                req.replyError(WireError.PATH_NOT_FOUND);
            } else {
                settings.write(v);
            }
            return;
        }
        if (!x.payloadEquals(sel.first, Names.SUBSCRIBERS)) {
            req.replyError(WireError.SCHEMA_NOT_FOUND);
            return;
        }
        if (sel.mode == FieldView.MODE_WILDCARD) {
            req.replyError(WireError.PATH_INVALID); // [*] never on writes
            return;
        }
        if (sel.levels > 1) {
            req.replyError(WireError.SCHEMA_NOT_FOUND); // :subscribers is addressed whole
            return;
        }
        if (sel.index < 0 && req.silent) {
            return; // a subscribe with no return route is dropped silently
        }
        if (servesAbsent() && sel.index < 0 && payload != TlvIndex.NONE && x.type(payload) == TlvType.SUBSCRIBER
                && req.findDst() < 0
                && !PathKeys.hasReservedSegment(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst))) {
            // a host serves subscriptions under its mounts on the full path, and a WIDE core an
            // announcing subscriber's anywhere: the append creates it
            final int existed = existingPrefix(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst));
            int c = vt.createForSubscription(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst), req.link, req.peer);
            if (c < 0) {
                req.replyError(NodeResult.code(c));
                return;
            }
            writeSubscribers(payload);
            if (vt.firstSlot(c) == FwdStore.NONE) {
                vt.discard(c, existed); // refused (or gone at once): the path it created goes with it
            }
            return;
        }
        writeSubscribers(payload);
    }

    /**
     * Whether this request's {@code :subscribers} of a vertex that does not exist is served here as
     * an empty list that an append creates: under a mount a host serves, or anywhere on a core whose
     * announcing subscribers create (FwdStore#announcedSubscribersCreate).
     */
    private boolean servesAbsent() {
        return servedUnderMount || !req.fromOwner() && req.extended() && vt.announcedSubscribersCreate();
    }

    /** Key bytes of the longest prefix of the PATH body {@code b[off, +len)} that names an existing vertex. */
    private int existingPrefix(byte[] b, int off, int len) {
        int have = 0;
        int p = 0;
        while (p < len) {
            p += 1 + (b[off + p] & 0xFF);
            if (vt.find(b, off, p) == FwdStore.NONE) {
                break;
            }
            have = p;
        }
        return have;
    }

    /** A write to the dst's {@code :subscribers} (the append door or an {@code [N]} arm), gates first. */
    private void writeSubscribers(int payload) {
        final TlvIndex x = req.rx;
        // the RFC-0035 §7.2 gate (READ on the vertex) runs before the slot is looked up
        int v = readableDst();
        if (v < 0) {
            return;
        }
        if (payload != TlvIndex.NONE && x.type(payload) == TlvType.SUBSCRIBER && !req.canSubscribe(v)) {
            req.replyError(WireError.ACCESS_DENIED); // append and replace need SUBSCRIBE
            return;
        }
        subscribers.write(v, payload);
    }

    /** The request's existing dst vertex if the caller may READ it; otherwise answers not_found or denied, -1. */
    private int readableDst() {
        final int v = req.findDst();
        if (v < 0) {
            req.replyError(WireError.PATH_NOT_FOUND);
            return -1;
        }
        if (!req.canRead(v)) {
            req.replyError(WireError.ACCESS_DENIED);
            return -1;
        }
        return v;
    }

    /**
     * A plain WRITE: the owner creates, and on a core that lets it (WIDE) so does a caller that announced
     * Spectrum's extensions and asked for an answer (docs/node.md, "Vertices a write created"); a plain
     * v1 caller never creates. Reserved ($) vertices are the owner's alone.
     */
    private void writeValue(int payload) {
        final TlvIndex x = req.rx;
        if (resolveDst() < 0) {
            return;
        }
        if (req.clear != Extensions.NOT_CLEAR) {
            clearValue(payload);
            return;
        }
        int v = req.findDst();
        int existed = -1; // the key bytes that existed before this write created its path, or -1: it created none
        if (v < 0 && !req.fromOwner() && !req.silent && req.extended() && payload != TlvIndex.NONE
                && x.type(payload) != TlvType.PATH_REF_REVERSE && req.retain != Extensions.RETAIN_MALFORMED
                && !PathKeys.hasReservedSegment(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst))) {
            existed = existingPrefix(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst));
            v = vt.createForWrite(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst), req.link, req.peer);
            if (v < 0) {
                req.replyError(NodeResult.code(v)); // PATH_NOT_FOUND where remote writes never create
                return;
            }
        }
        if ((v == 0 || (v > 0 && vt.isReserved(v))) && !req.fromOwner()) {
            // the root (handle 0 on both cores) and $ vertices are the owner's: a remote value on the
            // root would stand in front of the composed tree every READ of / answers
            req.replyError(WireError.ACCESS_DENIED);
            return;
        }
        if (v < 0 && req.fromOwner()) {
            v = vt.resolveOrCreate(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst));
            if (v < 0) {
                req.replyError(NodeResult.code(v));
                return;
            }
        }
        if (v < 0) {
            if (PathKeys.hasReservedSegment(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst))) {
                req.replyError(WireError.ACCESS_DENIED);
            } else {
                req.replyError(WireError.PATH_NOT_FOUND); // only local writes create
            }
            return;
        }
        if (!req.canWrite(v)) {
            if (existed >= 0) {
                vt.discard(v, existed);
            }
            req.replyError(WireError.ACCESS_DENIED);
            return;
        }
        if (payload == TlvIndex.NONE || x.type(payload) == TlvType.PATH_REF_REVERSE
                || req.retain == Extensions.RETAIN_MALFORMED) {
            req.replyError(WireError.SCHEMA_TYPE_MISMATCH); // (a malformed spectrum.retain: strict input, nothing written)
            return;
        }
        int len = x.untrailedLength(payload);
        boolean notify = fwd.activity() && !req.silent;
        // a delivery of our own remote subscription is stored with its upstream's word (stale with the
        // reason, its origin) in the same step as the value: never fanned out fresh, then marked
        final io.spectrum.wire.StampView up = req.link >= 0 ? client.upstream(req.link, req.peer, fwd) : null;
        if (up != null && up.stale() && !up.deleted() && Names.EMPTY_STATUS.matches(x.buffer(), x.start(payload), len)) {
            // the upstream has no value yet and says why: nothing to store; a copy held from before is
            // no longer current (it stays, marked with the upstream's reason)
            vt.markStale(v, up.buffer(), up.reasonOffset(), up.reasonLength(), true);
            req.replyResult(null, 0, 0);
            return;
        }
        int r = vt.publish(v, x.buffer(), x.start(payload), len, req.link, req.peer, x.buffer(), x.start(req.src),
                notify ? x.totalLength(req.src) : 0, up, req.retain != Extensions.NOT_RETAINED);
        if (r != WireError.OK) {
            if (existed >= 0) {
                vt.discard(v, existed); // a refused write leaves no vertex behind
            }
            req.replyError(r);
        } else {
            req.replyResult(null, 0, 0);
            if (req.link >= 0) {
                client.delivered(req.link, req.peer, fwd, v); // a subscription's delivery: its sequence (gaps)
            }
        }
    }

    /**
     * A WRITE that clears its vertex (docs/extensions.md, "Announcement key spectrum.clear"): its
     * payload is the empty STATUS; the value goes as the owner's clear takes it, with the delete
     * notice when the key says 1. The write rules apply (the node's own names, a declaration's rights);
     * a vertex that does not exist holds nothing to clear (OK, nothing made). A malformed flag or
     * another payload is {@code tr::schema::type_mismatch} and changes nothing.
     */
    private void clearValue(int payload) {
        final TlvIndex x = req.rx;
        if (req.clear == Extensions.CLEAR_MALFORMED || payload == TlvIndex.NONE
                || !Names.EMPTY_STATUS.matches(x.buffer(), x.start(payload), x.untrailedLength(payload))) {
            req.replyError(WireError.SCHEMA_TYPE_MISMATCH);
            return;
        }
        final int v = req.findDst();
        if (v == 0 || (v > 0 && vt.isReserved(v))
                || PathKeys.hasReservedSegment(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst))) {
            req.replyError(WireError.ACCESS_DENIED); // the root and $ vertices are the owner's
            return;
        }
        if (v > 0 && !req.canWrite(v)) {
            req.replyError(WireError.ACCESS_DENIED);
            return;
        }
        final int r = v < 0 ? WireError.OK : vt.clearValue(v, req.clear == Extensions.CLEAR_NOTIFY);
        if (r != WireError.OK) {
            req.replyError(r);
        } else {
            req.replyResult(null, 0, 0);
        }
    }

    private void await(int field) {
        if (resolveDst() < 0) {
            return;
        }
        if (field != TlvIndex.NONE) {
            int r = sel.parse(req.rx, field);
            req.replyError(r != WireError.OK ? r : WireError.SCHEMA_NOT_FOUND);
            return;
        }
        int v = readableDst();
        if (v < 0) {
            return;
        }
        if (!req.holdGate()) {
            req.replyHoldRefusal(); // an AWAIT is held too: a verified peer's carries its token
            return;
        }
        long timeout = fwd.awaitTimeoutNs(defaultAwait);
        if (!req.fromOwner() && (timeout > maxAwait || timeout < 0)) {
            timeout = maxAwait; // a remote peer's longer request is clamped (NodeConfig#maxAwaitTimeoutNanos)
        }
        int r = awaits.add(v, clock.nanoTime() + timeout, req);
        if (r != WireError.OK) {
            req.replyError(r);
        }
    }
}
