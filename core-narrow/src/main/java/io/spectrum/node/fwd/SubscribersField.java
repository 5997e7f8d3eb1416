package io.spectrum.node.fwd;

import io.spectrum.node.api.NodeResult;
import io.spectrum.wire.Bytes;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.Opt;
import io.spectrum.wire.PathKeys;
import io.spectrum.wire.SubscriberRenderer;
import io.spectrum.wire.SubscriberView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/**
 * The {@code :subscribers} field of a vertex over FWD (RFC-0035): {@code [N]} reads rendered under
 * live state, the list with holes, the append door with its duplicate mask, and the {@code [N]}
 * write arms (clear, toggle, replace, type mismatch) behind the generation guard and the holder
 * gate, plus, for a slot with a delivery mode only, the consumed message before arm 4. The append
 * door reads the delivery-mode keys strictly ({@link DeliveryMode}) when the core keeps modes
 * ({@link FwdStore#deliveryModes()}). The caller's access gate has already run; every refusal is
 * answered here.
 */
final class SubscribersField {
    private final FwdRequest req;
    private final FieldSelector sel;
    private final FwdStore st;
    private final FrameBuffers buffers;
    private final PeerShares shares;
    private final SubscriberRenderer renderer = new SubscriberRenderer();
    private final SubscriberView subscriberView = new SubscriberView(1, 1);

    SubscribersField(FwdParts p) {
        this.req = p.req;
        this.sel = p.sel;
        this.st = p.store;
        this.buffers = p.buffers;
        this.shares = p.shares;
    }

    /** READ of {@code v:subscribers[...]}: the whole list, or slot N rendered under its live state. */
    void read(int v) {
        if (sel.levels > 1 || sel.mode == FieldView.MODE_WILDCARD) {
            req.replyError(WireError.SCHEMA_NOT_FOUND);
        } else if (sel.index < 0) {
            replyList(v);
        } else {
            int s = st.slotAt(v, sel.index);
            if (s < 0 || (sel.gen >= 0 && st.gen(s) != (int) sel.gen)) {
                req.replyError(WireError.PATH_NOT_FOUND);
                return;
            }
            int n = render(s, suspended(s), buffers.scratch, 0);
            req.replyResult(buffers.scratch, 0, n);
        }
    }

    /**
     * WRITE of {@code v:subscribers[...]} with the SUBSCRIBER/STATUS at {@code payload}, after the
     * shape checks and the access gate: {@code []} is the append door, {@code [N]} the four arms.
     */
    void write(int v, int payload) {
        final TlvIndex x = req.rx;
        if (!req.holdGate()) {
            req.replyHoldRefusal(); // a verified holder's requests carry its token (docs/security.md)
            return;
        }
        if (sel.index < 0) {
            appendDoor(v, payload, -1);
            return;
        }
        int s = st.slotAt(v, sel.index);
        if (s < 0) {
            req.replyError(WireError.PATH_INVALID); // never grow from a wire index
            return;
        }
        if (!req.fromOwner() && !req.isCaller(st.holderLink(s), st.holderPeer(s))) {
            req.replyError(WireError.ACCESS_DENIED); // someone else's slot is the owner's alone
            return;
        }
        if (sel.gen >= 0 && st.gen(s) != (int) sel.gen) {
            req.replyError(WireError.PATH_NOT_FOUND);
            return;
        }
        if (payload == TlvIndex.NONE) {
            req.replyError(WireError.SCHEMA_TYPE_MISMATCH);
            return;
        }
        // arm 1: the empty STATUS clears
        if (x.type(payload) == TlvType.STATUS && x.bodyLength(payload) == 0 && !x.isContainer(payload)) {
            st.removeSlot(s);
            req.replyResult(null, 0, 0);
            return;
        }
        if (x.type(payload) == TlvType.SUBSCRIBER) {
            // arm 2: byte-identical to the rendering of slot N with bit 9 = x sets the state to x
            if (st.recOff(s) >= 0) {
                int xState = toggleState(s, payload);
                if (xState >= 0) {
                    st.setSuspended(s, xState == 1);
                    req.replyResult(null, 0, 0);
                    return;
                }
            }
            // arm 3: any other SUBSCRIBER with a target replaces through the append door
            int t = x.firstChild(payload);
            if (x.isContainer(payload) && t != TlvIndex.NONE && x.type(t) == TlvType.PATH) {
                appendDoor(v, payload, s);
                return;
            }
        }
        // a delivery-mode edge's consumed message (only such an edge: for any other slot it is arm 4)
        if ((st.word(s) & FwdStore.MODE) != 0 && x.type(payload) == TlvType.SETTINGS) {
            final long upTo = DeliveryMode.consumed(x, payload);
            final long r = upTo < 0 ? -WireError.SCHEMA_TYPE_MISMATCH : st.consume(s, upTo);
            if (r >= 0) {
                replyDelivered(r);
            } else {
                req.replyError((int) -r);
            }
            return;
        }
        // arm 4
        req.replyError(WireError.SCHEMA_TYPE_MISMATCH);
    }

    /**
     * {@code :subscribers[]} of a vertex that does not exist yet where this node serves the
     * subscriptions under its mounts: nobody subscribed there, the empty list.
     */
    void replyEmptyList() {
        TlvWriter t = req.beginReply(FwdView.KIND_RESULT).begin(TlvType.POINT).end().end();
        if (t.error() == WireError.OK) {
            req.send(t.length());
        } else {
            req.replyError(t.error());
        }
    }

    /** {@code :subscribers[]}: POINT{rendering of slot 0, 1, ...}, holes as empty STATUS, trailing holes omitted. */
    private void replyList(int v) {
        final byte[] tx = buffers.tx;
        final byte[] scratch = buffers.scratch;
        TlvWriter t = req.beginReply(FwdView.KIND_RESULT)
                .begin(TlvType.POINT);
        int expect = 0;
        for (int s = st.firstSlot(v); s != FwdStore.NONE; s = st.nextSlot(s)) {
            while (expect < st.pos(s)) {
                t.raw(Names.EMPTY_STATUS);
                expect++;
            }
            if ((st.word(s) & FwdStore.KIND_CALLBACK) != 0) {
                t.raw(Names.EMPTY_STATUS); // an in-process callback edge carries no record
            } else {
                int p = t.position();
                int room = tx.length - p;
                int n = room > 0 ? render(s, suspended(s), scratch, 0) : 0;
                t.raw(scratch, 0, n);
            }
            expect++;
        }
        t.end().end();
        if (t.error() == WireError.OK) {
            req.send(t.length());
        } else {
            req.replyError(t.error()); // the list does not fit the frame buffer
        }
    }

    /**
     * The append door (and arm 3's replace when {@code replace >= 0}): admits the SUBSCRIBER at
     * {@code p} in the request for the current caller, then answers it ({@link #replyIdentity}).
     */
    private void appendDoor(int v, int p, int replace) {
        final TlvIndex x = req.rx;
        // the codec's view: SUBSCRIBER container, PATH target first (target-less records refused),
        // qos read with the config-reader rules (last well-formed delivery_policy wins)
        if (p == TlvIndex.NONE || subscriberView.wrap(x, p) != WireError.OK) {
            req.replyError(WireError.SCHEMA_TYPE_MISMATCH);
            return;
        }
        final int t = subscriberView.target();
        final int policy = subscriberView.policy();
        final boolean hasPolicy = subscriberView.hasPolicy();
        final int topicAsk = subscriberView.qos() != TlvIndex.NONE ? subscriberView.qosReader().u8(Names.TOPIC, 0) : 0;
        final boolean stamp = topicAsk != 0;
        final boolean stampPath = (topicAsk & Names.TOPIC_WITH_PATH) != 0;
        final boolean local = req.fromOwner();
        // delivery modes: read strictly before anything is created; a core without them skips the keys like v1
        final long mode = st.deliveryModes() && subscriberView.qos() != TlvIndex.NONE
                ? DeliveryMode.parse(subscriberView.qosReader()) : 0;
        if (mode < 0 || (mode != 0 && local)) {
            req.replyError(mode < 0 ? (int) -mode : WireError.SCHEMA_TYPE_MISMATCH); // a local target takes no credits
            return;
        }
        int targetV = FwdStore.NONE;
        if (local) {
            if (PathKeys.validateKey(x.buffer(), x.bodyOffset(t), x.bodyLength(t)) != WireError.OK) {
                req.replyError(WireError.PATH_INVALID);
                return;
            }
            targetV = st.resolveOrCreate(x.buffer(), x.bodyOffset(t), x.bodyLength(t));
            if (targetV < 0) {
                req.replyError(NodeResult.code(targetV));
                return;
            }
        }
        final int recStart = x.start(p);
        final int recLen = x.totalLength(p);
        final int routeStart = x.start(req.src);
        final int routeLen = local ? 0 : x.totalLength(req.src);
        final int kind = local ? FwdStore.KIND_LOCAL : FwdStore.KIND_ROUTED;
        final int word = FwdStore.IN_USE | kind | (policy & FwdStore.POLICY_MASK)
                | (hasPolicy ? FwdStore.HAS_POLICY : 0) | (stamp ? FwdStore.STAMP : 0)
                | (stampPath ? FwdStore.STAMP_PATH : 0)
                | (mode != 0 ? FwdStore.MODE | FwdStore.STAMP : 0); // a mode edge is stamped: its consumer needs dlv
        if (replace < 0) {
            int dup = findDuplicate(v, word, x.buffer(), x.start(t), x.totalLength(t), routeStart, routeLen);
            if (dup >= 0) {
                replyIdentity(st.pos(dup), st.gen(dup)); // a duplicate answers the existing entry and leaves its state alone
                return;
            }
        }
        // a new slot comes out of the caller's share first (PeerShares: the owner has no limit)
        if (replace < 0 && !shares.takeSlot(req.link, req.peer)) {
            req.replyError(WireError.FLOW_BACKPRESSURE);
            return;
        }
        final int oldLink = replace < 0 ? req.link : st.holderLink(replace);
        final int oldPeer = replace < 0 ? req.peer : st.holderPeer(replace);
        final int s = st.admit(v, replace, word, req.link, req.peer, x.buffer(), recStart, recLen, routeStart, routeLen,
                hasPolicy ? subscriberView.policyOffset() - recStart + 1 : -1, targetV);
        if (s < 0) {
            if (replace < 0) {
                shares.returnSlot(req.link, req.peer);
            }
            req.replyError(NodeResult.code(s));
            return;
        }
        if (replace >= 0 && !req.isCaller(oldLink, oldPeer)) {
            shares.returnSlot(oldLink, oldPeer); // the owner took it over
        }
        if (mode != 0) {
            st.setMode(s, mode); // before the latch: a replay is the edge's first numbered delivery
        }
        int pos = st.pos(s);
        int gen = st.gen(s);
        if ((st.word(s) & DeliveryPolicy.SUSPENDED) == 0) {
            st.latch(s, v);
        }
        // the identity survives a one_shot latch that already reaped the slot
        replyIdentity(pos, gen);
    }

    /**
     * Answers an admission. A caller that announced the extensions gets the slot identity,
     * FIELD{NAME subscribers, VALUE u32 N, VALUE u32 gen, VALUE u8 1}; a plain v1 caller gets what
     * libtracer v1 answers, RESULT with no payload.
     */
    private void replyIdentity(int pos, int gen) {
        if (req.silent) {
            return;
        }
        if (!req.extended()) {
            req.replyResult(null, 0, 0);
            return;
        }
        TlvWriter t = req.beginReply(FwdView.KIND_RESULT)
                .begin(TlvType.FIELD);
        FieldView.element(t, Names.SUBSCRIBERS, pos, gen).end().end();
        if (t.error() == WireError.OK) {
            req.send(t.length());
        }
    }

    /** The consumed answer: RESULT with {@code SETTINGS{spectrum.delivered u64}}, the slot's last delivery number. */
    private void replyDelivered(long delivered) {
        if (req.silent) {
            return;
        }
        TlvWriter t = req.beginReply(FwdView.KIND_RESULT);
        DeliveryMode.writeDelivered(t, delivered).end();
        if (t.error() == WireError.OK) {
            req.send(t.length());
        }
    }

    /**
     * The arm-2 test: the x for which the SUBSCRIBER at {@code p} equals slot s's rendering with bit
     * 9 = x, or -1. Rules 1 and 2 are one memcmp against the stored record, bit 9 of the winning
     * word (its offset kept in the slot at admission) masked; only a candidate that could be a
     * rule-3 rendering (the stored record has no word and the candidate is longer) goes through the
     * codec's renderer.
     */
    private int toggleState(int s, int p) {
        final TlvIndex x = req.rx;
        final byte[] mem = st.recordMemory(s);
        final int ro = st.recOff(s);
        final int rl = st.recLen(s);
        final int cOff = x.start(p);
        final int cLen = x.totalLength(p);
        if (cLen == rl) {
            final int hi = st.policyHi(s); // where bit 9 lives in the stored record, -1 without a word
            final byte[] c = x.buffer();
            for (int i = 0; i < rl; i++) {
                int diff = mem[ro + i] ^ c[cOff + i];
                if (diff != 0 && (i != hi || diff != 0x02)) {
                    return -1;
                }
            }
            return hi < 0 ? 0 : (c[cOff + hi] >> 1) & 1; // rule 2 (verbatim is x = 0) / rule 1
        }
        if ((st.word(s) & FwdStore.HAS_POLICY) != 0 || cLen <= rl || cLen > rl + SubscriberRenderer.MAX_GROWTH) {
            return -1;
        }
        // rule 3 candidate: the record grew by the appended pair
        final byte[] scratch = buffers.scratch;
        return renderer.matchesRendering(mem, ro, rl, x.buffer(), cOff, cLen, scratch, 0, scratch.length) == 1 ? 1 : -1;
    }

    /** Same target, same binding/holder, same policy with bit 9 masked (absent = 0). */
    private int findDuplicate(int v, int word, byte[] b, int tOff, int tLen, int rOff, int rLen) {
        final int kinds = FwdStore.KIND_ROUTED | FwdStore.KIND_LOCAL;
        for (int s = st.firstSlot(v); s != FwdStore.NONE; s = st.nextSlot(s)) {
            int sw = st.word(s);
            if ((sw & kinds) != (word & kinds) || !req.isCaller(st.holderLink(s), st.holderPeer(s))) {
                continue;
            }
            if (((sw ^ word) & FwdStore.POLICY_MASK & ~DeliveryPolicy.SUSPENDED) != 0) {
                continue;
            }
            final byte[] mem = st.recordMemory(s);
            int ro = st.recOff(s);
            int sto = ro + Opt.headerSize(mem[ro + 1] & 0xFF);
            int stl = tlvTotal(mem, sto);
            if (!Bytes.equals(mem, sto, stl, b, tOff, tLen)) {
                continue;
            }
            if (!Bytes.equals(mem, ro + st.recLen(s), st.routeLen(s), b, rOff, rLen)) {
                continue;
            }
            return s;
        }
        return -1;
    }

    private static int tlvTotal(byte[] b, int off) {
        int opt = b[off + 1] & 0xFF;
        int len = (opt & Opt.LL) != 0 ? Bytes.i32(b, off + 2) : Bytes.u16(b, off + 2);
        return Opt.headerSize(opt) + len + Opt.tsSize(opt) + Opt.crcSize(opt);
    }

    /**
     * Renders slot s's stored record under live state {@code suspended} (RFC-0035 §5.1, the codec's
     * {@link SubscriberRenderer}) into {@code out}; a record-less slot renders as the empty STATUS.
     * Returns its length (0 when it does not fit).
     */
    private int render(int s, boolean suspended, byte[] out, int o) {
        if (st.recOff(s) < 0) {
            Names.EMPTY_STATUS.copyTo(out, o);
            return 4;
        }
        int n = renderer.render(st.recordMemory(s), st.recOff(s), st.recLen(s), suspended, out, o, out.length - o);
        return n < 0 ? 0 : n;
    }

    private boolean suspended(int s) {
        return (st.word(s) & DeliveryPolicy.SUSPENDED) != 0;
    }
}
