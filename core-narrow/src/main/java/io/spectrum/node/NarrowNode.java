package io.spectrum.node;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.node.api.AccessPolicy;
import io.spectrum.node.api.ActivityListener;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.node.api.VertexValue;
import io.spectrum.node.graph.VertexTable;
import io.spectrum.node.pool.BlockPool;
import io.spectrum.node.pool.Counter;
import io.spectrum.node.subs.SlotTable;
import io.spectrum.stats.BoundedResource;
import io.spectrum.time.Clock;
import io.spectrum.wire.Bytes;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.Opt;
import io.spectrum.wire.PathKeys;
import io.spectrum.wire.SubscriberRenderer;
import io.spectrum.wire.SubscriberView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/**
 * The NARROW node: fixed pools sized once from a {@link NodeConfig}, a vertex table, last-known
 * values, subscriber slots with the whole RFC-0035 surface, topic semantics, and the FWD terminus
 * for requests arriving over attached {@link Link}s. Single-threaded; steady-state writes, reads,
 * toggles and FWD handling allocate nothing.
 *
 * <p>Caller identity: the local host (in-process calls, the owner) is link index {@link #OWNER};
 * a remote caller is (attached link index, peer).
 */
public final class NarrowNode implements Node, FrameHandler {
    public static final int OWNER = -1;
    static final int NO_PUBLISHER = -2;

    static final int OP_READ = 0;
    static final int OP_WRITE = 1;
    static final int OP_AWAIT = 2;
    static final int OP_REPLY = 3;
    /** FWD op bit 6 on a WRITE: "send me active/idle notices for this vertex" (extension). */
    static final int OP_ACTIVITY = 0x40;
    static final int KIND_RESULT = 0;
    static final int KIND_ERROR = 1;

    private final Clock clock;
    private final AccessPolicy access;
    private final long defaultAwait;
    private final int framesPerPoll;

    final VertexTable vt;
    final SlotTable st;
    final BlockPool values;
    final BlockPool records;
    private final TopicState topic;

    private final LinkTable links;

    private final FrameDecoder decoder = new FrameDecoder(16, FrameDecoder.MAX_TLV_BYTES);
    private final TlvIndex rx;
    private final FrameBuffers buffers;
    private final byte[] tx;
    private final byte[] scratch;
    private final BoundedResource[] resources;

    private final AwaitTable awaits;
    private final ListenerCounts counts;
    private final SubscriberSlots slots;
    private final Fanout fanout;

    // the request being answered
    private int reqLink;
    private int reqPeer;
    private int reqOp;
    private int reqDst;
    private int reqSrc;
    private boolean reqSilent;

    // the parsed FIELD selector
    private int fFirst;
    private int fLevels;
    private int fMode;
    private int fIdx;
    private long fGen;

    final RemoteClient client;
    static final NodePath CAPS = NodePath.of("/$node/caps");
    static final NodePath PING_EP = NodePath.of("/$reply/ping");
    private long pingAnswers;
    private final FieldView fieldView = new FieldView();
    private final SubscriberRenderer renderer = new SubscriberRenderer();
    private final SubscriberView subscriberView = new SubscriberView(1, 1);

    public NarrowNode(NodeConfig cfg) {
        if (cfg.maxVertices < 2 || cfg.maxSubscribers < 1 || cfg.maxKeyBytes < 1 || cfg.frameBytes < 64) {
            throw new IllegalArgumentException("node pools too small");
        }
        clock = cfg.clock;
        access = cfg.accessPolicy;
        defaultAwait = cfg.defaultAwaitTimeoutNanos;
        framesPerPoll = cfg.framesPerPoll;
        vt = new VertexTable(cfg.maxVertices, cfg.maxKeyBytes);
        st = new SlotTable(cfg.maxSubscribers);
        values = new BlockPool("node.values", cfg.valueBytes);
        records = new BlockPool("node.records", cfg.recordBytes);
        topic = new TopicState(vt, values, records, cfg.payloadCap, cfg.staleGraceNanos);
        links = new LinkTable(cfg.maxLinks);
        rx = new TlvIndex(cfg.maxTlvsPerFrame, 16);
        buffers = new FrameBuffers(cfg.frameBytes);
        tx = buffers.tx;
        scratch = buffers.scratch;
        awaits = new AwaitTable(cfg.maxAwaits, cfg.awaitRouteBytes, vt, links, buffers);
        counts = new ListenerCounts(vt, records, links, buffers);
        slots = new SubscriberSlots(vt, st, records, counts);
        fanout = new Fanout(vt, st, values, records, links, buffers, topic, awaits, slots);
        client = new RemoteClient(this, cfg.maxRemoteSubscriptions, cfg.remoteResultBytes);
        resources = new BoundedResource[] {new TableResource("node.vertices", 0), new TableResource("node.slots", 1),
            values, records, awaits.resource, links.resource, client.resource(), client.requestResource()};
        publishCaps();
    }

    /** {@code $node/caps}: the extensions map a peer reads (core 1, rfc0035 1, topic 1). */
    private void publishCaps() {
        byte[] b = new byte[128];
        TlvWriter cw = new TlvWriter(4).wrap(b, 0, b.length);
        cw.begin(TlvType.SETTINGS)
                .leaf(TlvType.NAME, Names.CORE).value(1, 2)
                .leaf(TlvType.NAME, Names.RFC0035).value(1, 2)
                .leaf(TlvType.NAME, Names.TOPIC_EXT).value(1, 2)
                .end();
        write(CAPS, b, 0, cw.length());
    }

    // ------------------------------------------------------------------ local API

    @Override
    public int write(NodePath path, byte[] tlv, int off, int len) {
        int v = resolveOrCreate(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0) {
            return -v;
        }
        int tl = untrailed(tlv, off, len);
        if (tl < 0) {
            return WireError.FRAME_INVALID;
        }
        return publish(v, tlv, off, tl, OWNER, 0, false, null, 0, 0);
    }

    @Override
    public int read(NodePath path, byte[] dst, int off, int cap) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0 || vt.valLen[v] < 0) {
            return -WireError.PATH_NOT_FOUND;
        }
        int n = vt.valLen[v];
        if (n > cap) {
            return -WireError.FLOW_BACKPRESSURE;
        }
        System.arraycopy(values.memory(), vt.valOff[v], dst, off, n);
        return n;
    }

    @Override
    public Subscription subscribe(NodePath path, int policy, ValueListener listener) {
        LocalSubscription sub = new LocalSubscription(slots, path, listener);
        int v = resolveOrCreate(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0) {
            sub.refused(-v);
            return sub;
        }
        int s = st.take();
        if (s < 0) {
            sub.refused(WireError.FLOW_BACKPRESSURE);
            return sub;
        }
        int word = SlotTable.IN_USE | SlotTable.KIND_CALLBACK | (policy & SlotTable.POLICY_MASK);
        slots.fill(s, v, word, OWNER, 0, -1, 0, 0);
        st.policyHi[s] = -1;
        st.handle[s] = sub;
        slots.place(v, s);
        sub.bind(s, st.gen[s], st.pos[s]);
        if (st.delivering(s)) {
            counts.adjust(v, 1);
            fanout.latch(s, v);
        }
        return sub;
    }

    @Override
    public int clear(NodePath path, boolean notify) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0) {
            return WireError.OK;
        }
        topic.clear(v, notify);
        if (notify) {
            fanout.propagate(v, Names.EMPTY_STATUS, 0, 4, true);
        }
        return WireError.OK;
    }

    @Override
    public long sequence(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        return v < 0 ? 0 : vt.seq[v];
    }

    @Override
    public boolean isStale(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        return v >= 0 && (vt.flags[v] & VertexTable.F_STALE) != 0;
    }

    @Override
    public int listenerCount(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        return v < 0 ? 0 : vt.listeners[v];
    }

    /**
     * The id of the link the vertex's last publisher came over: -1 for the local host, -2 when the
     * vertex was never published (or is absent).
     */
    public int lastPublisherLinkId(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v < 0 || vt.pubLink[v] == NO_PUBLISHER) {
            return NO_PUBLISHER;
        }
        return vt.pubLink[v] == OWNER ? OWNER : links.id(vt.pubLink[v]);
    }

    /** The peer of the vertex's last remote publisher (0 for the local host). */
    public int lastPublisherPeer(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        return v < 0 ? 0 : vt.pubPeer[v];
    }

    /**
     * Retires a leaf vertex: its slots are reaped (RFC-0035 §9.3 trigger 3), its value dropped and
     * pending awaits on it answered with PATH_NOT_FOUND; it then reads not_found and notifies
     * nobody. A vertex with children answers PATH_IN_USE; the root and absent vertices
     * PATH_NOT_FOUND.
     */
    public int retire(NodePath path) {
        int v = vt.find(path.tlv(), path.bodyOffset(), path.bodyLength());
        if (v <= 0) {
            return WireError.PATH_NOT_FOUND;
        }
        if (vt.firstChild[v] != VertexTable.NONE) {
            return WireError.PATH_IN_USE;
        }
        slots.removeAllOf(v);
        awaits.failVertex(v, WireError.PATH_NOT_FOUND);
        topic.retire(v);
        return WireError.OK;
    }

    /** True when the vertex exists (diagnostics, tests). */
    public boolean exists(NodePath path) {
        return vt.find(path.tlv(), path.bodyOffset(), path.bodyLength()) >= 0;
    }

    @Override
    public void setActivityListener(ActivityListener listener) {
        counts.setActivityListener(listener);
    }

    @Override
    public int attach(Link link) {
        if (!links.add(link)) {
            return WireError.FLOW_BACKPRESSURE;
        }
        link.setPeerListener(this);
        return WireError.OK;
    }

    @Override
    public int poll() {
        int n = 0;
        for (int i = 0; i < links.count(); i++) {
            n += links.link(i).poll(this, framesPerPoll);
        }
        return n;
    }

    @Override
    public void tick() {
        final long now = clock.nanoTime();
        awaits.expire(now);
        topic.purgeExpired(now); // publishers that did not come back in their grace
    }

    @Override
    public void onPeerUp(Link link, int peer) {
        int li = linkIndex(link);
        if (li >= 0) {
            client.peerUp(li, peer);
        }
    }

    @Override
    public void onPeerDown(Link link, int peer) {
        int li = linkIndex(link);
        if (li < 0) {
            return;
        }
        final long now = clock.nanoTime();
        topic.publisherDown(li, peer, now);
        slots.removeHeldBy(li, peer); // reaping trigger 4
        awaits.dropPeer(li, peer);
        client.peerDown(li, peer);
    }

    @Override
    public int subscribeRemote(Link link, int peer, NodePath remotePath, NodePath localTarget, int policy) {
        int li = linkIndex(link);
        if (li < 0) {
            return -WireError.TRANSPORT_DOWN;
        }
        int v = resolveOrCreate(localTarget.tlv(), localTarget.bodyOffset(), localTarget.bodyLength());
        if (v < 0) {
            return v;
        }
        return client.subscribe(li, peer, remotePath, localTarget, policy);
    }

    /**
     * Liveness ping: sends {@code FWD{READ, dst = /$node/caps, src = /$reply/ping}} to the peer, whose
     * answer (any frame) refreshes the link's liveness clock. Shaped to be a link's liveness probe
     * hook ({@code link.setLivenessProbe(node::ping)}). The answer is read, not stored:
     * {@link #pingAnswers()} counts answers. Allocation-free.
     *
     * @return OK, TRANSPORT_DOWN for a link that is not attached, or the link's send code
     */
    public int ping(Link link, int peer) {
        int li = linkIndex(link);
        if (li < 0) {
            return WireError.TRANSPORT_DOWN;
        }
        TlvWriter t = buffers.txWriter();
        t.begin(TlvType.FWD).value(OP_READ, 1).raw(CAPS.tlv()).raw(PING_EP.tlv()).end();
        return t.error() != WireError.OK ? t.error() : links.link(li).send(peer, tx, 0, t.length());
    }

    /** Answers to {@link #ping} received so far. */
    public long pingAnswers() {
        return pingAnswers;
    }

    /** The client side of remote subscriptions and requests. */
    public RemoteClient remote() {
        return client;
    }

    @Override
    public BoundedResource[] resources() {
        return resources.clone();
    }

    @Override
    public void close() {
        links.clear();
    }

    /**
     * Handles one FWD request as the node's owner (the local host, empty caller context) and
     * copies the reply frame, if any, into {@code reply}.
     *
     * @return reply length (0 when nothing was answered) or a negated decode error
     */
    public int handleOwnerRequest(byte[] req, int off, int len, byte[] reply, int rOff, int rCap) {
        int r = decoder.decode(req, off, len, rx);
        if (r != WireError.OK) {
            return -r;
        }
        links.captureOwnerReply(reply, rOff, rCap);
        handleRequest(OWNER, 0);
        return links.endOwnerReply();
    }

    // ------------------------------------------------------------------ links

    int linkIndex(Link link) {
        return links.indexOf(link);
    }

    Link link(int index) {
        return links.link(index);
    }

    @Override
    public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
        int li = linkIndex(link);
        if (li < 0) {
            return;
        }
        int r = decoder.decode(buf, off, len, rx);
        if (r != WireError.OK) {
            link.stats().droppedInvalid++;
            return;
        }
        handleRequest(li, peer);
    }

    private void send(int li, int peer, byte[] b, int len) {
        links.send(li, peer, b, len);
    }

    /** Sends a frame built in the node's transmit buffer (used by the remote client). */
    void sendTx(int li, int peer, int len) {
        send(li, peer, tx, len);
    }

    TlvWriter txWriter() {
        return buffers.txWriter();
    }

    // ------------------------------------------------------------------ the FWD terminus

    private void handleRequest(int li, int peer) {
        final TlvIndex x = rx;
        if (x.type(0) != TlvType.FWD || !x.isContainer(0)) {
            dropped(li);
            return;
        }
        int c = x.firstChild(0);
        if (c == TlvIndex.NONE || x.type(c) != TlvType.VALUE || x.bodyLength(c) < 1) {
            dropped(li);
            return;
        }
        final int opByte = (int) x.valueAsLong(c);
        final int op = opByte & 0x3F;
        int d = x.nextSibling(c);
        if (d == TlvIndex.NONE || (x.type(d) != TlvType.PATH && x.type(d) != TlvType.PATH_REF)) {
            dropped(li);
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
            dropped(li);
            return;
        }
        final int rest = x.nextSibling(src);
        if (op == OP_REPLY) {
            if (x.type(d) == TlvType.PATH
                    && Bytes.equals(x.buffer(), x.bodyOffset(d), x.bodyLength(d), PING_EP.tlv(), 4, PING_EP.bodyLength())) {
                pingAnswers++;
                return;
            }
            client.onReply(li, peer, x, d, src, rest);
            return;
        }
        reqLink = li;
        reqPeer = peer;
        reqOp = opByte;
        reqDst = d;
        reqSrc = src;
        reqSilent = x.type(src) == TlvType.PATH && x.bodyLength(src) == 0;
        if (reqSilent && (op != OP_WRITE || (opByte & 0x80) != 0)) {
            return; // empty src: READ, AWAIT, mint-flagged and unknown ops are dropped silently
        }
        switch (op) {
            case OP_READ:
                doRead(field);
                break;
            case OP_WRITE:
                doWrite(field, rest);
                break;
            case OP_AWAIT:
                doAwait(field, rest);
                break;
            default:
                replyError(WireError.SCHEMA_TYPE_MISMATCH);
        }
    }

    private void dropped(int li) {
        links.dropped(li);
    }

    /** Resolves the request's dst to an existing vertex; answers the refusal and returns -1 on failure. */
    private int resolveDst() {
        final TlvIndex x = rx;
        if (x.type(reqDst) == TlvType.PATH_REF) {
            replyError(WireError.PATH_NOT_FOUND); // this node mints no refs: nothing validates
            return -1;
        }
        if (x.isContainer(reqDst) || PathKeys.validateKey(x.buffer(), x.bodyOffset(reqDst), x.bodyLength(reqDst)) != WireError.OK) {
            replyError(WireError.PATH_INVALID);
            return -1;
        }
        return 0;
    }

    private int findDst() {
        final TlvIndex x = rx;
        return vt.find(x.buffer(), x.bodyOffset(reqDst), x.bodyLength(reqDst));
    }

    private boolean remoteCanRead(int v) {
        return reqLink == OWNER || access == null
                || access.canRead(vt.keys, vt.keyOffset(v), vt.keyLen[v], links.id(reqLink), reqPeer);
    }

    private boolean remoteCanWrite(int v) {
        return reqLink == OWNER || access == null
                || access.canWrite(vt.keys, vt.keyOffset(v), vt.keyLen[v], links.id(reqLink), reqPeer);
    }

    private void doRead(int field) {
        if (resolveDst() < 0) {
            return;
        }
        if (field != TlvIndex.NONE) {
            int r = parseField(field);
            if (r != WireError.OK) {
                replyError(r);
                return;
            }
        }
        int v = findDst();
        if (v < 0) {
            replyError(WireError.PATH_NOT_FOUND);
            return;
        }
        if (!remoteCanRead(v)) {
            replyError(WireError.ACCESS_DENIED);
            return;
        }
        if (field == TlvIndex.NONE) {
            if (vt.valLen[v] < 0) {
                replyError(WireError.PATH_NOT_FOUND);
                return;
            }
            replyResult(values.memory(), vt.valOff[v], vt.valLen[v]);
            return;
        }
        final TlvIndex x = rx;
        if (x.payloadEquals(fFirst, Names.SUBSCRIBERS)) {
            if (fLevels > 1 || fMode == 2) {
                replyError(WireError.SCHEMA_NOT_FOUND);
            } else if (fIdx < 0) {
                replyList(v);
            } else {
                int s = slots.slotAt(v, fIdx);
                if (s < 0 || (fGen >= 0 && st.gen[s] != (int) fGen)) {
                    replyError(WireError.PATH_NOT_FOUND);
                    return;
                }
                int n = render(s, (st.word[s] & SlotTable.SUSPENDED) != 0, scratch, 0);
                replyResult(scratch, 0, n);
            }
        } else if (x.payloadEquals(fFirst, Names.SETTINGS) && fLevels == 1 && fMode == 0) {
            replyResult(Names.EMPTY_SETTINGS, 0, 4);
        } else if (x.payloadEquals(fFirst, Names.ACL) && fLevels == 1 && fMode == 0) {
            replyError(WireError.PATH_NOT_FOUND); // no ACL is set on any vertex
        } else {
            replyError(WireError.SCHEMA_NOT_FOUND);
        }
    }

    private void doWrite(int field, int payload) {
        final TlvIndex x = rx;
        if (field == TlvIndex.NONE) {
            if (resolveDst() < 0) {
                return;
            }
            int v = findDst();
            if (v >= 0 && (vt.flags[v] & VertexTable.F_RESERVED) != 0 && reqLink != OWNER) {
                replyError(WireError.ACCESS_DENIED);
                return;
            }
            if (v < 0 && reqLink == OWNER) {
                v = resolveOrCreate(x.buffer(), x.bodyOffset(reqDst), x.bodyLength(reqDst));
                if (v < 0) {
                    replyError(-v);
                    return;
                }
            }
            if (v < 0) {
                if (isReservedKey(x.buffer(), x.bodyOffset(reqDst), x.bodyLength(reqDst))) {
                    replyError(WireError.ACCESS_DENIED);
                } else {
                    replyError(WireError.PATH_NOT_FOUND); // only local writes create
                }
                return;
            }
            if (!remoteCanWrite(v)) {
                replyError(WireError.ACCESS_DENIED);
                return;
            }
            if (payload == TlvIndex.NONE || x.type(payload) == TlvType.PATH_REF_REVERSE) {
                replyError(WireError.SCHEMA_TYPE_MISMATCH);
                return;
            }
            int len = x.untrailedLength(payload);
            boolean notify = (reqOp & OP_ACTIVITY) != 0 && !reqSilent;
            int r = publish(v, x.buffer(), x.start(payload), len, reqLink, reqPeer, notify,
                    x.buffer(), x.start(reqSrc), x.totalLength(reqSrc));
            if (r != WireError.OK) {
                replyError(r);
            } else {
                replyResult(null, 0, 0);
            }
            return;
        }
        if (resolveDst() < 0) {
            return;
        }
        int r = parseField(field);
        if (r != WireError.OK) {
            replyError(r);
            return;
        }
        if (!x.payloadEquals(fFirst, Names.SUBSCRIBERS)) {
            replyError(WireError.SCHEMA_NOT_FOUND);
            return;
        }
        if (fMode == 2) {
            replyError(WireError.PATH_INVALID); // [*] never on writes
            return;
        }
        if (fLevels > 1) {
            replyError(WireError.SCHEMA_NOT_FOUND); // :subscribers is addressed whole
            return;
        }
        if (fIdx < 0 && reqSilent) {
            return; // a subscribe with no return route is dropped silently
        }
        int v = findDst();
        if (v < 0) {
            replyError(WireError.PATH_NOT_FOUND);
            return;
        }
        // the RFC-0035 §7.2 gate runs before the slot is looked up
        if (!remoteCanRead(v)) {
            replyError(WireError.ACCESS_DENIED);
            return;
        }
        if (fIdx < 0) {
            appendDoor(v, payload, -1);
            return;
        }
        int s = slots.slotAt(v, fIdx);
        if (s < 0) {
            replyError(WireError.PATH_INVALID); // never grow from a wire index
            return;
        }
        if (reqLink != OWNER && (st.holderLink[s] != reqLink || st.holderPeer[s] != reqPeer)) {
            replyError(WireError.ACCESS_DENIED); // someone else's slot is the owner's alone
            return;
        }
        if (fGen >= 0 && st.gen[s] != (int) fGen) {
            replyError(WireError.PATH_NOT_FOUND);
            return;
        }
        if (payload == TlvIndex.NONE) {
            replyError(WireError.SCHEMA_TYPE_MISMATCH);
            return;
        }
        // arm 1: the empty STATUS clears
        if (x.type(payload) == TlvType.STATUS && x.bodyLength(payload) == 0 && !x.isContainer(payload)) {
            slots.remove(s);
            replyResult(null, 0, 0);
            return;
        }
        if (x.type(payload) == TlvType.SUBSCRIBER) {
            // arm 2: byte-identical to the rendering of slot N with bit 9 = x sets the state to x
            if (st.recOff[s] >= 0) {
                int xState = toggleState(s, payload);
                if (xState >= 0) {
                    slots.setSuspended(s, xState == 1);
                    replyResult(null, 0, 0);
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
        // arm 4
        replyError(WireError.SCHEMA_TYPE_MISMATCH);
    }

    private void doAwait(int field, int rest) {
        if (resolveDst() < 0) {
            return;
        }
        if (field != TlvIndex.NONE) {
            int r = parseField(field);
            replyError(r != WireError.OK ? r : WireError.SCHEMA_NOT_FOUND);
            return;
        }
        int v = findDst();
        if (v < 0) {
            replyError(WireError.PATH_NOT_FOUND);
            return;
        }
        if (!remoteCanRead(v)) {
            replyError(WireError.ACCESS_DENIED);
            return;
        }
        final TlvIndex x = rx;
        long timeout = defaultAwait;
        if (rest != TlvIndex.NONE && x.type(rest) == TlvType.VALUE && x.bodyLength(rest) >= 1) {
            timeout = x.valueAsLong(rest);
        }
        final int dLen = x.totalLength(reqDst);
        final int sLen = x.totalLength(reqSrc);
        int r = awaits.add(v, clock.nanoTime() + timeout, reqLink, reqPeer,
                x.buffer(), x.start(reqDst), dLen, x.start(reqSrc), sLen);
        if (r != WireError.OK) {
            replyError(r);
        }
    }

    /**
     * Reads a FIELD selector through the codec's {@link FieldView} (levels of NAME then 0..3
     * VALUEs; the generation is the codec's spelling). Adds the terminus rule that {@code [*]} is
     * only the first step under {@code subscribers}. Refusals: PATH_INVALID.
     */
    private int parseField(int f) {
        final TlvIndex x = rx;
        fFirst = TlvIndex.NONE;
        fLevels = 0;
        fMode = 0;
        fIdx = -1;
        fGen = -1;
        int r = fieldView.wrap(x, f);
        if (r != WireError.OK) {
            return WireError.PATH_INVALID;
        }
        fLevels = fieldView.levels();
        fFirst = fieldView.nameEntry(0);
        fMode = fieldView.mode(0);
        fIdx = fieldView.index(0);
        fGen = fieldView.generation(0);
        for (int i = 0; i < fLevels; i++) {
            if (fieldView.mode(i) == FieldView.MODE_WILDCARD && (i != 0 || !x.payloadEquals(fFirst, Names.SUBSCRIBERS))) {
                return WireError.PATH_INVALID; // [*] only as the first step under subscribers
            }
        }
        return WireError.OK;
    }

    private void replyResult(byte[] pb, int po, int pl) {
        if (reqSilent) {
            return;
        }
        final TlvIndex x = rx;
        TlvWriter t = buffers.txWriter();
        t.begin(TlvType.FWD).value(OP_REPLY, 1)
                .raw(x.buffer(), x.start(reqSrc), x.totalLength(reqSrc))
                .raw(x.buffer(), x.start(reqDst), x.totalLength(reqDst))
                .value(KIND_RESULT, 1);
        if (pb != null) {
            t.raw(pb, po, pl);
        }
        t.end();
        if (t.error() == WireError.OK) {
            send(reqLink, reqPeer, tx, t.length());
        } else {
            replyError(WireError.FLOW_BACKPRESSURE); // the answer does not fit the frame buffer
        }
    }

    private void replyError(int code) {
        if (reqSilent) {
            return;
        }
        final TlvIndex x = rx;
        TlvWriter t = buffers.txWriter();
        t.begin(TlvType.FWD).value(OP_REPLY, 1)
                .raw(x.buffer(), x.start(reqSrc), x.totalLength(reqSrc))
                .raw(x.buffer(), x.start(reqDst), x.totalLength(reqDst))
                .value(KIND_ERROR, 1)
                .status(code)
                .end();
        if (t.error() == WireError.OK) {
            send(reqLink, reqPeer, tx, t.length());
        }
    }

    /** Replies with the slot identity: FIELD{NAME subscribers, VALUE u32 N, VALUE u32 gen, VALUE u8 1}. */
    private void replyIdentity(int s) {
        replyIdentityOf(st.pos[s], st.gen[s]);
    }

    /** {@code :subscribers[]}: POINT{rendering of slot 0, 1, ...}, holes as empty STATUS, trailing holes omitted. */
    private void replyList(int v) {
        final TlvIndex x = rx;
        TlvWriter t = buffers.txWriter();
        t.begin(TlvType.FWD).value(OP_REPLY, 1)
                .raw(x.buffer(), x.start(reqSrc), x.totalLength(reqSrc))
                .raw(x.buffer(), x.start(reqDst), x.totalLength(reqDst))
                .value(KIND_RESULT, 1)
                .begin(TlvType.POINT);
        int expect = 0;
        for (int s = vt.firstSlot[v]; s != SlotTable.NONE; s = st.next[s]) {
            while (expect < st.pos[s]) {
                t.raw(Names.EMPTY_STATUS);
                expect++;
            }
            if ((st.word[s] & SlotTable.KIND_CALLBACK) != 0) {
                t.raw(Names.EMPTY_STATUS); // an in-process callback edge carries no record
            } else {
                int p = t.position();
                int room = tx.length - p;
                int n = room > 0 ? render(s, (st.word[s] & SlotTable.SUSPENDED) != 0, scratch, 0) : 0;
                t.raw(scratch, 0, n);
            }
            expect++;
        }
        t.end().end();
        if (t.error() == WireError.OK) {
            send(reqLink, reqPeer, tx, t.length());
        } else {
            replyError(t.error()); // the list does not fit the frame buffer
        }
    }

    // ------------------------------------------------------------------ subscriber slots

    /**
     * The append door (and arm 3's replace when {@code replace >= 0}): admits the SUBSCRIBER at
     * {@code p} in {@link #rx} for the current caller, then answers its identity.
     */
    private void appendDoor(int v, int p, int replace) {
        final TlvIndex x = rx;
        // the codec's view: SUBSCRIBER container, PATH target first (target-less records refused),
        // qos read with the config-reader rules (last well-formed delivery_policy wins)
        if (p == TlvIndex.NONE || subscriberView.wrap(x, p) != WireError.OK) {
            replyError(WireError.SCHEMA_TYPE_MISMATCH);
            return;
        }
        final int t = subscriberView.target();
        final int policy = subscriberView.policy();
        final boolean hasPolicy = subscriberView.hasPolicy();
        final boolean stamp = subscriberView.qos() != TlvIndex.NONE && subscriberView.qosReader().u8(Names.TOPIC, 0) != 0;
        final boolean local = reqLink == OWNER;
        int targetV = VertexTable.NONE;
        if (local) {
            if (PathKeys.validateKey(x.buffer(), x.bodyOffset(t), x.bodyLength(t)) != WireError.OK) {
                replyError(WireError.PATH_INVALID);
                return;
            }
            targetV = resolveOrCreate(x.buffer(), x.bodyOffset(t), x.bodyLength(t));
            if (targetV < 0) {
                replyError(-targetV);
                return;
            }
        }
        final int recStart = x.start(p);
        final int recLen = x.totalLength(p);
        final int routeStart = x.start(reqSrc);
        final int routeLen = local ? 0 : x.totalLength(reqSrc);
        final int kind = local ? SlotTable.KIND_LOCAL : SlotTable.KIND_ROUTED;
        final int word = SlotTable.IN_USE | kind | (policy & SlotTable.POLICY_MASK)
                | (hasPolicy ? SlotTable.HAS_POLICY : 0) | (stamp ? SlotTable.STAMP : 0);
        if (replace < 0) {
            int dup = findDuplicate(v, word, x.buffer(), x.start(t), x.totalLength(t), routeStart, routeLen);
            if (dup >= 0) {
                replyIdentity(dup); // a duplicate answers the existing entry and leaves its state alone
                return;
            }
        }
        int off = records.alloc(recLen + routeLen);
        if (off < 0) {
            replyError(WireError.FLOW_BACKPRESSURE);
            return;
        }
        int s = replace;
        boolean wasDelivering = false;
        if (s < 0) {
            s = st.take();
            if (s < 0) {
                records.free(off, recLen + routeLen);
                replyError(WireError.FLOW_BACKPRESSURE);
                return;
            }
        } else {
            wasDelivering = st.delivering(s);
            if (st.recOff[s] >= 0) {
                records.free(st.recOff[s], st.recLen[s] + st.routeLen[s]);
            }
            Object h = st.handle[s];
            st.handle[s] = null;
            if (h instanceof LocalSubscription) {
                ((LocalSubscription) h).reaped(); // a replace reaps the in-process edge it displaces
            }
        }
        final byte[] mem = records.memory();
        System.arraycopy(x.buffer(), recStart, mem, off, recLen);
        if (routeLen > 0) {
            System.arraycopy(x.buffer(), routeStart, mem, off + recLen, routeLen);
        }
        slots.fill(s, v, word, reqLink, reqPeer, off, recLen, routeLen);
        st.policyHi[s] = hasPolicy ? subscriberView.policyOffset() - recStart + 1 : -1;
        st.target[s] = targetV;
        if (replace < 0) {
            slots.place(v, s);
        }
        boolean delivering = st.delivering(s);
        if (delivering != wasDelivering) {
            counts.adjust(v, delivering ? 1 : -1);
        }
        int pos = st.pos[s];
        int gen = st.gen[s];
        if (delivering) {
            fanout.latch(s, v);
        }
        // the identity survives a one_shot latch that already reaped the slot
        replyIdentityOf(pos, gen);
    }

    private void replyIdentityOf(int pos, int gen) {
        if (reqSilent) {
            return;
        }
        final TlvIndex x = rx;
        TlvWriter t = buffers.txWriter();
        t.begin(TlvType.FWD).value(OP_REPLY, 1)
                .raw(x.buffer(), x.start(reqSrc), x.totalLength(reqSrc))
                .raw(x.buffer(), x.start(reqDst), x.totalLength(reqDst))
                .value(KIND_RESULT, 1)
                .begin(TlvType.FIELD).leaf(TlvType.NAME, Names.SUBSCRIBERS)
                .value(pos, 4).value(gen & 0xFFFFFFFFL, 4).value(1, 1).end()
                .end();
        if (t.error() == WireError.OK) {
            send(reqLink, reqPeer, tx, t.length());
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
        final TlvIndex x = rx;
        final byte[] mem = records.memory();
        final int ro = st.recOff[s];
        final int rl = st.recLen[s];
        final int cOff = x.start(p);
        final int cLen = x.totalLength(p);
        if (cLen == rl) {
            final int hi = st.policyHi[s]; // where bit 9 lives in the stored record, -1 without a word
            final byte[] c = x.buffer();
            for (int i = 0; i < rl; i++) {
                int diff = mem[ro + i] ^ c[cOff + i];
                if (diff != 0 && (i != hi || diff != 0x02)) {
                    return -1;
                }
            }
            return hi < 0 ? 0 : (c[cOff + hi] >> 1) & 1; // rule 2 (verbatim is x = 0) / rule 1
        }
        if ((st.word[s] & SlotTable.HAS_POLICY) != 0 || cLen <= rl || cLen > rl + SubscriberRenderer.MAX_GROWTH) {
            return -1;
        }
        // rule 3 candidate: the record grew by the appended pair
        return renderer.matchesRendering(mem, ro, rl, x.buffer(), cOff, cLen, scratch, 0, scratch.length) == 1 ? 1 : -1;
    }

    /** Same target, same binding/holder, same policy with bit 9 masked (absent = 0). */
    private int findDuplicate(int v, int word, byte[] b, int tOff, int tLen, int rOff, int rLen) {
        final byte[] mem = records.memory();
        final int kinds = SlotTable.KIND_ROUTED | SlotTable.KIND_LOCAL;
        for (int s = vt.firstSlot[v]; s != SlotTable.NONE; s = st.next[s]) {
            int sw = st.word[s];
            if ((sw & kinds) != (word & kinds) || st.holderLink[s] != reqLink || st.holderPeer[s] != reqPeer) {
                continue;
            }
            if (((sw ^ word) & SlotTable.POLICY_MASK & ~SlotTable.SUSPENDED) != 0) {
                continue;
            }
            int ro = st.recOff[s];
            int sto = ro + Opt.headerSize(mem[ro + 1] & 0xFF);
            int stl = tlvTotal(mem, sto);
            if (!Bytes.equals(mem, sto, stl, b, tOff, tLen)) {
                continue;
            }
            if (!Bytes.equals(mem, ro + st.recLen[s], st.routeLen[s], b, rOff, rLen)) {
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
    int render(int s, boolean suspended, byte[] out, int o) {
        if (st.recOff[s] < 0) {
            System.arraycopy(Names.EMPTY_STATUS, 0, out, o, 4);
            return 4;
        }
        int n = renderer.render(records.memory(), st.recOff[s], st.recLen[s], suspended, out, o, out.length - o);
        return n < 0 ? 0 : n;
    }

    // ------------------------------------------------------------------ values, publish, delivery

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

    /** Header + payload length of the one TLV at {@code b[off, off+len)}, or -1 when it is not one TLV. */
    private static int untrailed(byte[] b, int off, int len) {
        if (len < 4 || (b[off] & 0xFF) == 0) {
            return -1;
        }
        int opt = b[off + 1] & 0xFF;
        if ((opt & Opt.RESERVED) != 0) {
            return -1;
        }
        int h = Opt.headerSize(opt);
        if (len < h) {
            return -1;
        }
        long bl = (opt & Opt.LL) != 0 ? Bytes.u32(b, off + 2) : Bytes.u16(b, off + 2);
        if (h + bl + Opt.tsSize(opt) + Opt.crcSize(opt) != len) {
            return -1;
        }
        return (int) (h + bl);
    }

    /** Finds or creates (mkdir -p) the vertex for a PATH body; returns it or a negated code. */
    int resolveOrCreate(byte[] b, int off, int len) {
        return topic.resolveOrCreate(b, off, len);
    }

    /** Write = assign + propagate, with the topic bookkeeping. */
    private int publish(int v, byte[] b, int off, int len, int pubLink, int pubPeer, boolean notify,
                        byte[] rb, int rOff, int rLen) {
        return fanout.publish(v, b, off, len, pubLink, pubPeer, notify, rb, rOff, rLen);
    }

    /** BoundedResource views of the vertex and slot tables. */
    private final class TableResource implements BoundedResource {
        private final String name;
        private final int which;

        TableResource(String name, int which) {
            this.name = name;
            this.which = which;
        }

        @Override
        public String resourceName() {
            return name;
        }

        @Override
        public int capacity() {
            return which == 0 ? vt.capacity : st.capacity;
        }

        @Override
        public int inUse() {
            return which == 0 ? vt.used() : st.used();
        }

        @Override
        public int peak() {
            return which == 0 ? vt.peak() : st.peak();
        }

        @Override
        public long refusals() {
            return which == 0 ? vt.refusals() : st.refusals();
        }
    }
}
