package io.spectrum.node;

import io.spectrum.node.graph.VertexTable;
import io.spectrum.node.pool.BlockPool;
import io.spectrum.time.Clock;
import io.spectrum.wire.Bytes;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.PathKeys;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;

/**
 * The FWD terminus: parses the request decoded into {@link FwdRequest#rx}, hands replies to the
 * remote client (and counts ping answers), and dispatches READ / WRITE / AWAIT on the dst vertex
 * or its {@code :subscribers} / {@code :children} field, answering every refusal with a typed error.
 */
final class FwdTerminus {
    private final FwdRequest req;
    private final FieldSelector sel;
    private final SubscribersField subscribers;
    private final ChildrenField children;
    private final ComposedRead composed;
    private final VertexTable vt;
    private final BlockPool values;
    private final LinkTable links;
    private final TopicState topic;
    private final Fanout fanout;
    private final AwaitTable awaits;
    private final RemoteClient client;
    private final Clock clock;
    private final long defaultAwait;
    private long pingAnswers;

    FwdTerminus(FwdRequest req, FieldSelector sel, SubscribersField subscribers, ChildrenField children,
                ComposedRead composed, VertexTable vt, BlockPool values,
                LinkTable links, TopicState topic, Fanout fanout, AwaitTable awaits, RemoteClient client,
                Clock clock, long defaultAwait) {
        this.req = req;
        this.sel = sel;
        this.subscribers = subscribers;
        this.children = children;
        this.composed = composed;
        this.vt = vt;
        this.values = values;
        this.links = links;
        this.topic = topic;
        this.fanout = fanout;
        this.awaits = awaits;
        this.client = client;
        this.clock = clock;
        this.defaultAwait = defaultAwait;
    }

    /** Answers to the node's pings received so far. */
    long pingAnswers() {
        return pingAnswers;
    }

    /** Handles the request already decoded into the request's index, from (link, peer). */
    void handle(int li, int peer) {
        final TlvIndex x = req.rx;
        if (x.type(0) != TlvType.FWD || !x.isContainer(0)) {
            links.dropped(li);
            return;
        }
        int c = x.firstChild(0);
        if (c == TlvIndex.NONE || x.type(c) != TlvType.VALUE || x.bodyLength(c) < 1) {
            links.dropped(li);
            return;
        }
        final int opByte = (int) x.valueAsLong(c);
        final int op = opByte & 0x3F;
        int d = x.nextSibling(c);
        if (d == TlvIndex.NONE || (x.type(d) != TlvType.PATH && x.type(d) != TlvType.PATH_REF)) {
            links.dropped(li);
            return;
        }
        int e = x.nextSibling(d);
        int field = TlvIndex.NONE;
        if (e != TlvIndex.NONE && x.type(e) == TlvType.FIELD) {
            field = e;
            e = x.nextSibling(e);
        }
        final int src = e;
        if (src == TlvIndex.NONE || (x.type(src) != TlvType.PATH && x.type(src) != TlvType.PATH_REF)) {
            links.dropped(li);
            return;
        }
        final int rest = x.nextSibling(src);
        if (op == NarrowNode.OP_REPLY) {
            if (x.type(d) == TlvType.PATH && Bytes.equals(x.buffer(), x.bodyOffset(d), x.bodyLength(d),
                    NarrowNode.PING_EP.tlv(), 4, NarrowNode.PING_EP.bodyLength())) {
                pingAnswers++;
                return;
            }
            client.onReply(li, peer, x, d, src, rest);
            return;
        }
        req.set(li, peer, opByte, d, src);
        req.noteAnnouncement(op == NarrowNode.OP_WRITE && rest != TlvIndex.NONE ? x.nextSibling(rest) : rest);
        if (req.silent && (op != NarrowNode.OP_WRITE || (opByte & 0x80) != 0)) {
            return; // empty src: READ, AWAIT, mint-flagged and unknown ops are dropped silently
        }
        switch (op) {
            case NarrowNode.OP_READ:
                read(field);
                break;
            case NarrowNode.OP_WRITE:
                write(field, rest);
                break;
            case NarrowNode.OP_AWAIT:
                await(field, rest);
                break;
            default:
                req.replyError(WireError.SCHEMA_TYPE_MISMATCH);
        }
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
        int v = readableDst();
        if (v < 0) {
            return;
        }
        if (field == TlvIndex.NONE) {
            if (composed.composes(v, req.fromOwner())) {
                composed.reply(v); // a vertex with children: the composed POINT tree (digest §6)
                return;
            }
            if (vt.valLen[v] < 0) {
                req.replyError(WireError.PATH_NOT_FOUND);
                return;
            }
            if ((vt.flags[v] & VertexTable.F_RESERVED) != 0 && !req.extended()) {
                // the node's own SETTINGS ($node/caps) without its spectrum.* keys
                req.replyResultWithoutExtensionKeys(values.memory(), vt.valOff[v], vt.valLen[v]);
                return;
            }
            req.replyResult(values.memory(), vt.valOff[v], vt.valLen[v]);
            return;
        }
        final TlvIndex x = req.rx;
        if (x.payloadEquals(sel.first, Names.SUBSCRIBERS)) {
            subscribers.read(v);
        } else if (x.payloadEquals(sel.first, Names.CHILDREN)) {
            children.read(v);
        } else if (x.payloadEquals(sel.first, Names.SETTINGS) && sel.levels == 1 && sel.mode == 0) {
            req.replyResult(Names.EMPTY_SETTINGS, 0, 4);
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
        // the RFC-0035 §7.2 gate (READ on the vertex) runs before the slot is looked up
        int v = readableDst();
        if (v < 0) {
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

    /** A plain WRITE: only the owner creates; reserved ($) vertices are the owner's alone. */
    private void writeValue(int payload) {
        final TlvIndex x = req.rx;
        if (resolveDst() < 0) {
            return;
        }
        int v = req.findDst();
        if (v >= 0 && (vt.flags[v] & VertexTable.F_RESERVED) != 0 && !req.fromOwner()) {
            req.replyError(WireError.ACCESS_DENIED);
            return;
        }
        if (v < 0 && req.fromOwner()) {
            v = topic.resolveOrCreate(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst));
            if (v < 0) {
                req.replyError(-v);
                return;
            }
        }
        if (v < 0) {
            if (isReservedKey(x.buffer(), x.bodyOffset(req.dst), x.bodyLength(req.dst))) {
                req.replyError(WireError.ACCESS_DENIED);
            } else {
                req.replyError(WireError.PATH_NOT_FOUND); // only local writes create
            }
            return;
        }
        if (!req.canWrite(v)) {
            req.replyError(WireError.ACCESS_DENIED);
            return;
        }
        if (payload == TlvIndex.NONE || x.type(payload) == TlvType.PATH_REF_REVERSE) {
            req.replyError(WireError.SCHEMA_TYPE_MISMATCH);
            return;
        }
        int len = x.untrailedLength(payload);
        boolean notify = (req.op & NarrowNode.OP_ACTIVITY) != 0 && !req.silent;
        int r = fanout.publish(v, x.buffer(), x.start(payload), len, req.link, req.peer, notify,
                x.buffer(), x.start(req.src), x.totalLength(req.src));
        if (r != WireError.OK) {
            req.replyError(r);
        } else {
            req.replyResult(null, 0, 0);
        }
    }

    private void await(int field, int rest) {
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
        final TlvIndex x = req.rx;
        long timeout = defaultAwait;
        if (rest != TlvIndex.NONE && x.type(rest) == TlvType.VALUE && x.bodyLength(rest) >= 1) {
            timeout = x.valueAsLong(rest);
        }
        int r = awaits.add(v, clock.nanoTime() + timeout, req.link, req.peer,
                x.buffer(), x.start(req.dst), x.totalLength(req.dst), x.start(req.src), x.totalLength(req.src));
        if (r != WireError.OK) {
            req.replyError(r);
        }
    }

    private static boolean isReservedKey(byte[] b, int off, int len) {
        int p = off;
        final int end = off + len;
        while (p < end) {
            int sl = b[p] & 0xFF;
            if (sl > 0 && p + 1 < end && b[p + 1] == '$') {
                return true;
            }
            p += 1 + sl;
        }
        return false;
    }
}
