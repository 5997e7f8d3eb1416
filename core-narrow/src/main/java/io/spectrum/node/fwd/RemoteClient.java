package io.spectrum.node.fwd;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.NodeResult;
import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.StampView;
import io.spectrum.wire.StatusView;
import io.spectrum.wire.SubscriberRenderer;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;

/**
 * The client side of remote subscriptions: a fixed table of (link, peer, remote path, local
 * target, policy) records. Each is sent as an append FWD whose src is the local target, so the
 * remote edge's deliveries arrive as plain writes on the target and the subscribe's reply comes
 * back addressed to it. When a peer comes back up, every record for it is sent again.
 *
 * <p>Return convention (the {@code io.spectrum.node.api} package's): the request methods
 * ({@link #read}, {@link #write}, {@link #readList}, {@link #readSlot}, {@link #clearSlot},
 * {@link #setSlotSuspended}, {@link #setSuspended}, {@link #unsubscribe}) answer a quantity, the
 * request handle ({@code >= 0}, poll {@link #requestState} and {@link #release} it) or a negated
 * WireError code; {@link #error}, {@link #requestError} answer a status.
 *
 * <p>Every request this client sends ends with the extensions announcement ({@link Extensions}):
 * the append's identity answer (index, generation) and the {@code spectrum.*} keys of
 * {@code $node/caps} are only given to a peer that announced.
 */
public final class RemoteClient implements io.spectrum.node.route.FwdRouter.HeldTokens {
    /** Record states. */
    public static final int FREE = 0;
    /** Record state: the append was sent and its answer has not come yet. */
    public static final int SENT = 1;
    /**
     * Record state: the remote node accepted the append (its slot identity is in {@link
     * #remoteIndex} and {@link #remoteGeneration}).
     */
    public static final int ACKED = 2;
    /** Record state: the peer is down; the append is sent again when it comes back up. */
    public static final int DOWN = 3;
    /** Record state: the remote node refused the append; {@link #error} says why. */
    public static final int REFUSED = 4;

    private final FwdServer node;
    private final FwdStore store;
    /** Reads the slot identity of an append answer. */
    private final FieldView identity = new FieldView();
    private final ResourceCounter res;
    private final ResourceCounter reqRes;
    private final int[] link;
    private final int[] peer;
    private final NodePath[] remote;
    private final NodePath[] target;
    private final int[] policy;
    private final int[] state;
    private final int[] error;
    private final int[] index;
    private final long[] gen;
    private final int[] sends;
    private final byte[][] record;
    /** The outstanding slot check of each record (a request handle), or -1. */
    private final int[] checkReq;
    /** The holder token each record's last append carried (0: none). */
    private final long[] sentToken;
    /** Times each record's remote slot was found gone and re-appended. */
    private final int[] restores;
    /**
     * The highest upstream sequence each record's deliveries (or its gap fetch) carried since its
     * append was last sent, 0 before the first: a stamp above it + 1 is a sequence gap.
     */
    private final long[] lastSeq;
    /** Each record's outstanding gap fetch (a request handle), or -1. */
    private final int[] fetchReq;
    /** The record a request fetches after a sequence gap, or -1. */
    private final int[] reqFetch;
    /** The stamp of the delivery being handled ({@link #upstream}, {@link #delivered}, {@link #fetched}). */
    private final StampView stamp = new StampView();
    /** Sequence gaps seen ({@link #gaps}). */
    private long gaps;
    private static final byte[] SEQUENCE_GAP = Utf8.bytes(StaleReason.SEQUENCE_GAP);

    // outstanding requests: each has its own reply endpoint /$reply/<k>, so its reply matches by route
    /** Request states. */
    public static final int PENDING = 1;
    /**
     * Request state: the reply (or a refusal) has arrived; read it, then {@link #release} the
     * handle.
     */
    public static final int DONE = 2;
    private final NodePath[] replyEp;
    private final int[] reqState;
    private final int[] reqLink;
    private final int[] reqPeer;
    private final int[] reqKind;
    private final int[] reqError;
    private final int[] reqLen;
    /** When each request's answer arrived (the node's clock, nanos). */
    private final long[] reqAt;
    private final io.spectrum.time.Clock clock;
    /** The record a request checks ({@link #verify}), or -1 for a caller's request. */
    private final int[] reqRecord;
    private final byte[] reqBuf;
    private final int reqCap;
    // holder tokens the peers handed us in challenges (docs/security.md "Holders and spoofing")
    private final int[] tokLink;
    private final int[] tokPeer;
    private final long[] tokValue;
    private int tokUsed;
    private final Extensions extensions = new Extensions();
    private final SubscriberRenderer renderer = new SubscriberRenderer();
    private final byte[] work = new byte[1024];

    RemoteClient(FwdServer node, FwdStore store, int capacity, int resultBytes, io.spectrum.time.Clock clock) {
        this.node = node;
        this.clock = clock;
        this.store = store;
        res = new ResourceCounter("node.remoteSubscriptions", capacity);
        reqRes = new ResourceCounter("node.remoteRequests", capacity);
        link = new int[capacity];
        peer = new int[capacity];
        remote = new NodePath[capacity];
        target = new NodePath[capacity];
        policy = new int[capacity];
        state = new int[capacity];
        error = new int[capacity];
        index = new int[capacity];
        gen = new long[capacity];
        sends = new int[capacity];
        record = new byte[capacity][];
        checkReq = new int[capacity];
        restores = new int[capacity];
        sentToken = new long[capacity];
        reqRecord = new int[capacity];
        lastSeq = new long[capacity];
        fetchReq = new int[capacity];
        reqFetch = new int[capacity];
        tokLink = new int[capacity];
        tokPeer = new int[capacity];
        tokValue = new long[capacity];
        for (int k = 0; k < capacity; k++) {
            checkReq[k] = -1;
            reqRecord[k] = -1;
            fetchReq[k] = -1;
            reqFetch[k] = -1;
        }
        replyEp = new NodePath[capacity];
        reqState = new int[capacity];
        reqLink = new int[capacity];
        reqPeer = new int[capacity];
        reqKind = new int[capacity];
        reqError = new int[capacity];
        reqLen = new int[capacity];
        reqAt = new long[capacity];
        reqCap = resultBytes;
        reqBuf = new byte[capacity * resultBytes];
        for (int k = 0; k < capacity; k++) {
            replyEp[k] = NodePath.of(Names.REPLY_PREFIX + k);
        }
    }

    /** The remote subscription records (in use, peak, refusals). */
    public BoundedResource resource() {
        return res;
    }

    /** The outstanding remote requests (in use, peak, refusals). */
    public BoundedResource requestResource() {
        return reqRes;
    }

    /** Subscribes {@code localTarget} to {@code remotePath} at (link {@code li}, peer {@code p}) with delivery_policy {@code pol}, and sends the request. Quantity: the record handle, or a negated code (FLOW_BACKPRESSURE when no record is free). */
    public int subscribe(int li, int p, NodePath remotePath, NodePath localTarget, int pol) {
        int h = -1;
        for (int i = 0; i < state.length; i++) {
            if (state[i] == FREE) {
                h = i;
                break;
            }
        }
        if (h < 0) {
            res.countRefused();
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        res.taken();
        link[h] = li;
        peer[h] = p;
        remote[h] = remotePath;
        target[h] = localTarget;
        policy[h] = pol;
        index[h] = -1;
        gen[h] = -1;
        error[h] = WireError.OK;
        restores[h] = 0;
        state[h] = SENT;
        record[h] = buildRecord(localTarget, pol);
        int r = send(h);
        return r == WireError.OK ? h : NodeResult.refusal(r);
    }

    /** Forgets a record (does not clear the remote slot; use a clear request for that). */
    public void forget(int h) {
        if (state[h] != FREE) {
            if (checkReq[h] >= 0) {
                release(checkReq[h]);
            }
            if (fetchReq[h] >= 0) {
                release(fetchReq[h]);
            }
            state[h] = FREE;
            remote[h] = null;
            target[h] = null;
            res.returned();
        }
    }

    /**
     * Record {@code h}'s state: {@link #FREE}, {@link #SENT}, {@link #ACKED}, {@link #DOWN} or
     * {@link #REFUSED}.
     */
    public int state(int h) {
        return state[h];
    }

    /**
     * Status of record {@code h}'s last answer: OK, or the WireError code the remote node refused
     * the append with.
     */
    public int error(int h) {
        return error[h];
    }

    /** The remote slot position from the append's identity answer, or -1 until acknowledged. */
    public int remoteIndex(int h) {
        return index[h];
    }

    /** The remote slot's generation from the append's identity answer, or -1 until acknowledged. */
    public long remoteGeneration(int h) {
        return gen[h];
    }

    /** Times the append was sent (first send plus re-sends on peer up). */
    public int sends(int h) {
        return sends[h];
    }

    /** Times the remote slot was found gone by {@link #verify} and the append sent again. */
    public int restores(int h) {
        return restores[h];
    }

    /**
     * SUBSCRIBER{PATH target, SETTINGS{[NAME delivery_policy VALUE u16], NAME spectrum.topic VALUE u8 1}}
     * (config time): every delivery carries the upstream's stamp, so its sequence shows a lost delivery
     * and its stale mark and reason reach the copy ({@link #delivered}); a v1 peer skips the key.
     */
    private static byte[] buildRecord(NodePath target, int pol) {
        byte[] b = new byte[target.tlv().length + 96];
        TlvWriter t = new TlvWriter(4).wrap(b, 0, b.length);
        t.begin(TlvType.SUBSCRIBER).raw(target.tlv()).begin(TlvType.SETTINGS);
        if (pol != 0) {
            t.leaf(TlvType.NAME, Names.DELIVERY_POLICY).value(pol, 2);
        }
        t.leaf(TlvType.NAME, Names.TOPIC).value(Names.TOPIC_STAMP, 1).end();
        t.end();
        byte[] r = new byte[t.length()];
        System.arraycopy(b, 0, r, 0, r.length);
        return r;
    }

    private int send(int h) {
        TlvWriter t = node.txWriter();
        NodePath tp = target[h];
        t.begin(TlvType.FWD).value(FwdView.OP_WRITE, 1)
                .raw(remote[h].tlv())
                .begin(TlvType.FIELD).leaf(TlvType.NAME, Names.SUBSCRIBERS).value(1, 1).end()
                .raw(tp.tlv())
                .raw(record[h]);
        sentToken[h] = token(link[h], peer[h]);
        Extensions.announce(t, sentToken[h]).end(); // the identity answer; holding with a token
        if (t.error() != WireError.OK) {
            return t.error();
        }
        sends[h]++;
        lastSeq[h] = 0; // a new slot (or the same one again): its latch starts the count anew
        node.sendTx(link[h], peer[h], t.length());
        return WireError.OK;
    }

    void peerUp(int li, int p) {
        for (int h = 0; h < state.length; h++) {
            if (state[h] != FREE && link[h] == li && peer[h] == p && state[h] != ACKED) {
                state[h] = SENT;
                send(h);
            }
        }
    }

    void peerDown(int li, int p) {
        forgetToken(li, p); // a peer that comes back (or a new one in its place) challenges anew
        for (int h = 0; h < state.length; h++) {
            if (state[h] != FREE && link[h] == li && peer[h] == p) {
                state[h] = DOWN; // the remote reaps the edge when it sees us go; re-sent on peer up
            }
        }
    }

    /**
     * Checks that every subscription this node holds at {@code peer} of {@code link} still has its
     * remote slot, and restores what is missing (no silent loss). Call once per liveness
     * period for an up peer ({@code runtime}'s {@code CapsProbe} does). Per record:
     * <ul>
     * <li>acknowledged with an identity (the peer announced): a READ of {@code :subscribers[N@gen]}
     *     (the generation guard); a {@code path::not_found} answer means the slot was cleared,
     *     evicted or re-admitted by someone else, so the local target is marked stale and the
     *     append is sent again (its durability latch brings the current value back);</li>
     * <li>acknowledged without an identity (a plain v1 peer): the append is sent again, which a
     *     node answers as a duplicate while the slot exists and admits anew when it is gone;</li>
     * <li>sent and not answered for a whole period, or refused with backpressure: the local target
     *     is marked stale and the append is sent again.</li>
     * </ul>
     *
     * @return the checks and re-sends sent
     */
    public int verify(io.spectrum.link.Link l, int p) {
        int li = node.linkIndex(l);
        if (li < 0) {
            return 0;
        }
        int n = 0;
        for (int h = 0; h < state.length; h++) {
            if (state[h] == FREE || link[h] != li || peer[h] != p) {
                continue;
            }
            final int st = state[h];
            if (st == ACKED && index[h] >= 0 && gen[h] >= 0) {
                if (checkReq[h] < 0) {
                    int k = request(li, p, FwdView.OP_READ, remote[h], index[h], false, gen[h], null, 0, 0);
                    if (k >= 0) {
                        checkReq[h] = k;
                        reqRecord[k] = h;
                        n++;
                    }
                }
            } else if (st == ACKED || st == SENT || (st == REFUSED && error[h] == WireError.FLOW_BACKPRESSURE)) {
                if (st != ACKED) {
                    store.markGap(target[h]);
                }
                state[h] = SENT;
                if (send(h) == WireError.OK) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The answer to record h's slot check: a slot gone is restored at once. */
    private void checked(int h, int code) {
        if (code != WireError.PATH_NOT_FOUND || state[h] != ACKED) {
            return; // there (OK), or unknowable here (e.g. READ denied): leave it
        }
        restores[h]++;
        store.markGap(target[h]);
        state[h] = SENT;
        index[h] = -1;
        gen[h] = -1;
        send(h);
    }

    /**
     * The upstream's word on a remote WRITE from (li, p) about to be assigned: when it is a delivery
     * of one of our subscriptions (its dst is the record's target) carrying the upstream's stamp, that
     * stamp (its stale mark with the reason, its origin), which the store applies as it stores the
     * value ({@link FwdStore#publish}); else null: a publisher's own children are never a stamp
     * (docs/extensions.md, "Delivery stamp"). Valid until the next call. Allocation-free.
     */
    StampView upstream(int li, int p, FwdView f) {
        if (!stamp.wrap(f.index(), f.afterPayload()) || recordOf(li, p, f) < 0) {
            return null;
        }
        return stamp;
    }

    /**
     * A remote WRITE from (li, p) was just assigned to vertex v (with its upstream's stale mark,
     * {@link #upstream}): when it is a delivery of one of our subscriptions carrying the upstream's
     * stamp, its sequence is followed (docs/host.md, "Gap repair"): a sequence above the last one
     * seen + 1 means a delivery was lost, so v is marked stale ({@link StaleReason#SEQUENCE_GAP}) and
     * the upstream's current value is fetched with a stamped READ ({@link #fetched}). Allocation-free.
     */
    void delivered(int li, int p, FwdView f, int v) {
        if (!stamp.wrap(f.index(), f.afterPayload())) {
            return;
        }
        final int h = recordOf(li, p, f);
        if (h < 0) {
            return; // a publisher's own children, not a delivery to us: nothing to follow
        }
        final long seq = stamp.seq();
        if (seq <= 0) {
            return;
        }
        final boolean gap = lastSeq[h] > 0 && seq > lastSeq[h] + 1;
        if (seq > lastSeq[h]) {
            lastSeq[h] = seq;
        }
        if (gap) {
            store.markStale(v, SEQUENCE_GAP, 0, SEQUENCE_GAP.length, false);
            gaps++;
            if (fetchReq[h] < 0) {
                int k = request(li, p, FwdView.OP_READ, remote[h], null, -1, false, -1, null, 0, 0, true);
                if (k >= 0) {
                    fetchReq[h] = k;
                    reqFetch[k] = h;
                }
            }
        }
    }

    /** Sequence gaps seen on this node's remote subscriptions (diagnostics, tests). */
    public long gaps() {
        return gaps;
    }

    /** The record whose target is f's dst and whose peer is (li, p), or -1. */
    private int recordOf(int li, int p, FwdView f) {
        for (int h = 0; h < state.length; h++) {
            if (state[h] != FREE && link[h] == li && peer[h] == p) {
                NodePath tp = target[h];
                if (f.dstEquals(tp.tlv(), tp.bodyOffset(), tp.bodyLength())) {
                    return h;
                }
            }
        }
        return -1;
    }

    /**
     * The answer to record h's gap fetch (the RESULT's payload {@code x[payload]}, its stamp after it):
     * the upstream's current value is assigned to the target as a delivery from (li, p) would be,
     * unless a newer delivery already came (its sequence is below the last one seen); a stale stamp
     * keeps the copy stale with the upstream's reason.
     */
    private void fetched(int h, int li, int p, FwdView f) {
        final TlvIndex x = f.index();
        final int payload = f.payload();
        if (payload == TlvIndex.NONE || f.kind() != FwdView.KIND_RESULT) {
            return; // refused (or nothing held): the copy stays stale until the next delivery
        }
        final boolean stamped = stamp.wrap(x, f.afterPayload());
        final long seq = stamped && stamp.seq() > 0 ? stamp.seq() : lastSeq[h];
        if (seq < lastSeq[h]) {
            return; // a newer delivery came while the READ was out: it is the copy's value
        }
        lastSeq[h] = seq;
        NodePath tp = target[h];
        int v = store.find(tp.tlv(), tp.bodyOffset(), tp.bodyLength());
        if (v >= 0) { // stored with the upstream's stale mark in one step, as a delivery is
            store.publish(v, x.buffer(), x.start(payload), x.untrailedLength(payload), li, p, null, 0, 0,
                    stamped ? stamp : null, true);
        }
    }

    /** A REPLY (read by the terminus's {@link FwdView}) addressed to one of our targets answers that record's append. */
    void onReply(int li, int p, FwdView f) {
        final TlvIndex x = f.index();
        final int dst = f.dst();
        if (x.type(dst) != TlvType.PATH) {
            return;
        }
        final int kind = f.kind();
        final int payload = f.payload();
        long challenge = 0;
        if (kind == FwdView.KIND_ERROR && payload != TlvIndex.NONE) {
            long t = extensions.holdToken(x, x.nextSibling(payload));
            if (t > 0) {
                // sent to our address only: whoever answers there holds our slots with it
                challenge = t;
                storeToken(li, p, t);
            }
        }
        for (int k = 0; k < reqState.length; k++) {
            if (reqState[k] != PENDING || reqLink[k] != li || reqPeer[k] != p) {
                continue;
            }
            NodePath ep = replyEp[k];
            if (!f.dstEquals(ep.tlv(), ep.bodyOffset(), ep.bodyLength())) {
                continue;
            }
            reqKind[k] = kind;
            reqLen[k] = 0;
            if (kind == FwdView.KIND_ERROR) {
                reqError[k] = StatusView.errorCode(x, payload, WireError.SCHEMA_TYPE_MISMATCH);
            } else if (payload != TlvIndex.NONE) {
                int n = x.untrailedLength(payload);
                if (n > reqCap) {
                    reqError[k] = WireError.FLOW_BACKPRESSURE;
                } else {
                    System.arraycopy(x.buffer(), x.start(payload), reqBuf, k * reqCap, n);
                    reqLen[k] = n;
                    reqError[k] = WireError.OK;
                }
            } else {
                reqError[k] = WireError.OK;
            }
            reqState[k] = DONE;
            reqAt[k] = clock.nanoTime();
            final int fh = reqFetch[k];
            if (fh >= 0) {
                release(k);
                fetched(fh, li, p, f);
                return;
            }
            int h = reqRecord[k];
            if (h >= 0) {
                int code = reqError[k];
                checkReq[h] = -1;
                release(k);
                checked(h, code);
            }
            return;
        }
        for (int h = 0; h < state.length; h++) {
            if (state[h] != SENT || link[h] != li || peer[h] != p) {
                continue;
            }
            NodePath tp = target[h];
            if (!f.dstEquals(tp.tlv(), tp.bodyOffset(), tp.bodyLength())) {
                continue;
            }
            if (challenge > 0) {
                if (challenge != sentToken[h]) {
                    send(h); // the append again, now with the token the challenge handed us
                }
                // else: a late challenge to an earlier copy; the one with the token is on its way
            } else if (kind == FwdView.KIND_ERROR) {
                state[h] = REFUSED;
                error[h] = StatusView.errorCode(x, payload, WireError.SCHEMA_TYPE_MISMATCH);
            } else {
                state[h] = ACKED;
                if (payload != TlvIndex.NONE && x.type(payload) == TlvType.FIELD
                        && identity.wrap(x, payload) == WireError.OK && identity.levels() > 0) {
                    index[h] = identity.index(0); // the append's slot identity: :subscribers[N@G]
                    gen[h] = identity.generation(0);
                }
            }
            return;
        }
    }

    // ---------------------------------------------------------------- holder tokens

    /** The token (link, peer) handed us, or 0 (none yet: a holding request then draws a challenge). */
    private long token(int li, int p) {
        for (int i = 0; i < tokUsed; i++) {
            if (tokLink[i] == li && tokPeer[i] == p) {
                return tokValue[i];
            }
        }
        return 0;
    }

    private void storeToken(int li, int p, long t) {
        for (int i = 0; i < tokUsed; i++) {
            if (tokLink[i] == li && tokPeer[i] == p) {
                tokValue[i] = t;
                return;
            }
        }
        if (tokUsed < tokValue.length) {
            tokLink[tokUsed] = li;
            tokPeer[tokUsed] = p;
            tokValue[tokUsed] = t;
            tokUsed++;
        }
    }

    private void forgetToken(int li, int p) {
        for (int i = 0; i < tokUsed; i++) {
            if (tokLink[i] == li && tokPeer[i] == p) {
                tokUsed--;
                tokLink[i] = tokLink[tokUsed];
                tokPeer[i] = tokPeer[tokUsed];
                tokValue[i] = tokValue[tokUsed];
                return;
            }
        }
    }

    /** The holder token (link, peer) handed this client, 0 when none (what this node's forwarded AWAITs carry there). */
    @Override
    public long heldAt(io.spectrum.link.Link l, int p) {
        final int li = node.linkIndex(l);
        return li < 0 ? 0 : token(li, p);
    }

    /** True once (link, peer) handed this client a holder token (tests, diagnostics). */
    public boolean holdsToken(io.spectrum.link.Link l, int p) {
        return token(node.linkIndex(l), p) > 0;
    }

    // ---------------------------------------------------------------- request helpers

    private int takeRequest(int li, int p) {
        for (int k = 0; k < reqState.length; k++) {
            if (reqState[k] == 0) {
                reqState[k] = PENDING;
                reqLink[k] = li;
                reqPeer[k] = p;
                reqError[k] = WireError.OK;
                reqLen[k] = 0;
                reqRes.taken();
                return k;
            }
        }
        reqRes.countRefused();
        return -1;
    }

    /** Sends FWD{op, dst, [FIELD subscribers[N] / [] ], src = /$reply/k, [payload]}; returns k or -code. */
    private int request(int li, int p, int op, NodePath dst, int slot, boolean list, long gen,
                        byte[] pb, int po, int pl) {
        return request(li, p, op, dst, null, slot, list, gen, pb, po, pl, false);
    }

    private int request(int li, int p, int op, NodePath dst, byte[] field, int slot, boolean list, long gen,
                        byte[] pb, int po, int pl) {
        return request(li, p, op, dst, field, slot, list, gen, pb, po, pl, false);
    }

    /**
     * As above; a non-null {@code field} (a whole FIELD TLV) is sent as the selector instead;
     * {@code askStamp}: the answer is to carry the topic stamp (a READ, docs/extensions.md).
     */
    private int request(int li, int p, int op, NodePath dst, byte[] field, int slot, boolean list, long gen,
                        byte[] pb, int po, int pl, boolean askStamp) {
        return request(li, p, op, dst, field, slot, list, gen, pb, po, pl, askStamp, -1);
    }

    /** As above; {@code backfillAfter >= 0}: a READ asking the values kept after that sequence (docs/extensions.md "Backfill"). */
    private int request(int li, int p, int op, NodePath dst, byte[] field, int slot, boolean list, long gen,
                        byte[] pb, int po, int pl, boolean askStamp, long backfillAfter) {
        if (li < 0) {
            return NodeResult.refusal(WireError.TRANSPORT_DOWN);
        }
        int k = takeRequest(li, p);
        if (k < 0) {
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        TlvWriter t = node.txWriter();
        t.begin(TlvType.FWD).value(op, 1).raw(dst.tlv());
        if (field != null) {
            t.raw(field);
        } else if (slot >= 0 || list) {
            t.begin(TlvType.FIELD);
            FieldView.element(t, Names.SUBSCRIBERS, slot, gen).end();
        }
        t.raw(replyEp[k].tlv());
        if (pb != null) {
            t.raw(pb, po, pl);
        }
        if (backfillAfter >= 0) {
            Extensions.announceAskingBackfill(t, token(li, p), backfillAfter).end();
        } else if (askStamp) {
            Extensions.announceAskingStamp(t, token(li, p)).end();
        } else {
            Extensions.announce(t, token(li, p)).end(); // extended answers ($node/caps with spectrum.boot...), the token
        }
        if (t.error() != WireError.OK) {
            release(k);
            return NodeResult.refusal(t.error());
        }
        node.sendTx(li, p, t.length());
        return k;
    }

    /** Remote READ of a vertex's value. Returns a request handle (poll {@link #requestState}). */
    public int read(io.spectrum.link.Link link, int p, NodePath remotePath) {
        return request(node.linkIndex(link), p, FwdView.OP_READ, remotePath, -1, false, -1, null, 0, 0);
    }

    /**
     * Remote READ of the values {@code remotePath} kept after sequence {@code after} (docs/extensions.md
     * "Backfill"): send it only to a peer whose {@code $node/caps} offers {@code spectrum.backfill}. The
     * answer ({@link #requestResult}) is the backfill SETTINGS, read with {@link io.spectrum.wire.Backfill}.
     * Returns a request handle or a negated code.
     */
    public int readBackfill(io.spectrum.link.Link link, int p, NodePath remotePath, long after) {
        return request(node.linkIndex(link), p, FwdView.OP_READ, remotePath, null, -1, false, -1, null, 0, 0, false,
                Math.max(0, after));
    }

    /**
     * Remote READ of a field of a vertex, {@code field} being the whole FIELD TLV (e.g.
     * {@code :settings.app}, where a vertex's declaration lives). Returns a request handle.
     */
    public int readField(io.spectrum.link.Link link, int p, NodePath remotePath, byte[] field) {
        return request(node.linkIndex(link), p, FwdView.OP_READ, remotePath, field, -1, false, -1, null, 0, 0);
    }

    /** Remote WRITE of one value TLV. */
    public int write(io.spectrum.link.Link link, int p, NodePath remotePath, byte[] tlv, int off, int len) {
        return request(node.linkIndex(link), p, FwdView.OP_WRITE, remotePath, -1, false, -1, tlv, off, len);
    }

    /** Remote READ of {@code :subscribers[]} (the positional list). */
    public int readList(io.spectrum.link.Link link, int p, NodePath remotePath) {
        return request(node.linkIndex(link), p, FwdView.OP_READ, remotePath, -1, true, -1, null, 0, 0);
    }

    /** Remote READ of {@code :subscribers[N]} (the rendering with the live bit). */
    public int readSlot(io.spectrum.link.Link link, int p, NodePath remotePath, int n) {
        return request(node.linkIndex(link), p, FwdView.OP_READ, remotePath, n, false, -1, null, 0, 0);
    }

    /** Remote clear of {@code :subscribers[N]} (empty STATUS), guarded by {@code gen} when >= 0. */
    public int clearSlot(io.spectrum.link.Link link, int p, NodePath remotePath, int n, long gen) {
        return request(node.linkIndex(link), p, FwdView.OP_WRITE, remotePath, n, false, gen, FixedTlvs.EMPTY_STATUS, 0, FixedTlvs.EMPTY_STATUS.length);
    }

    /**
     * Remote toggle of {@code :subscribers[N]}: renders {@code record} (the slot's record as read back
     * from {@code [N]}) with bit 9 = {@code suspended} and writes it back (RFC-0035 §4.4 arm 2).
     */
    public int setSlotSuspended(io.spectrum.link.Link link, int p, NodePath remotePath, int n, long gen,
                                byte[] rec, int off, int len, boolean suspended) {
        int m = renderer.render(rec, off, len, suspended, work, 0, work.length);
        if (m < 0) {
            return m;
        }
        return request(node.linkIndex(link), p, FwdView.OP_WRITE, remotePath, n, false, gen, work, 0, m);
    }

    /** Suspends or resumes a remote subscription this client made (uses its acknowledged identity). */
    public int setSuspended(int h, boolean suspended) {
        if (state[h] != ACKED || index[h] < 0) {
            return NodeResult.refusal(WireError.PATH_NOT_FOUND);
        }
        byte[] rec = record[h];
        int m = renderer.render(rec, 0, rec.length, suspended, work, 0, work.length);
        if (m < 0) {
            return m;
        }
        lastSeq[h] = 0; // what is published while suspended is not delivered: no gap to see on resume
        return request(link[h], peer[h], FwdView.OP_WRITE, remote[h], index[h], false, gen[h], work, 0, m);
    }

    /**
     * Clears a remote subscription this client made and forgets its record (the record goes in every
     * case).
     *
     * @return quantity: the clear's request handle (release it), or a negated code: PATH_NOT_FOUND
     *     for a free handle or an append never acknowledged (no remote slot known, nothing sent),
     *     or the send's refusal
     */
    public int unsubscribe(int h) {
        if (state[h] == FREE) {
            return NodeResult.refusal(WireError.PATH_NOT_FOUND);
        }
        int r = state[h] == ACKED && index[h] >= 0
                ? request(link[h], peer[h], FwdView.OP_WRITE, remote[h], index[h], false, gen[h], FixedTlvs.EMPTY_STATUS, 0, FixedTlvs.EMPTY_STATUS.length)
                : NodeResult.refusal(WireError.PATH_NOT_FOUND);
        forget(h);
        return r;
    }

    /** PENDING, DONE, or 0 for a free handle. */
    public int requestState(int k) {
        return reqState[k];
    }

    /** The answer's error code (OK for a RESULT). */
    public int requestError(int k) {
        return reqError[k];
    }

    /** When request k's answer arrived, by the node's clock ({@code nanoTime}); meaningful once DONE. */
    public long requestAnsweredAt(int k) {
        return reqAt[k];
    }

    /** Copies the RESULT payload TLV out; returns its length. */
    public int requestResult(int k, byte[] out, int off) {
        System.arraycopy(reqBuf, k * reqCap, out, off, reqLen[k]);
        return reqLen[k];
    }

    /** Frees a request handle (answered or not: a late reply is then ignored). */
    public void release(int k) {
        if (reqState[k] != 0) {
            if (reqRecord[k] >= 0) {
                checkReq[reqRecord[k]] = -1;
                reqRecord[k] = -1;
            }
            if (reqFetch[k] >= 0) {
                fetchReq[reqFetch[k]] = -1;
                reqFetch[k] = -1;
            }
            reqState[k] = 0;
            reqRes.returned();
        }
    }
}
