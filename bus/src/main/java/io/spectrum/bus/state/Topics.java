package io.spectrum.bus.state;

import io.spectrum.wire.BusError;
import io.spectrum.wide.Grants;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexValue;
import io.spectrum.wide.ValueRoom;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.MessageValue;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;

/**
 * The topic half of the bus (docs/bus.md): declare, subscribe, publish,
 * unsubscribe, clear, delete and the handing out of topic deliveries. A topic is a vertex of the
 * node (topic {@code a.b} is {@code /a/b}; docs/bus.md, "Topics are the node's vertices"): the node
 * holds its value, numbers every publish, marks it stale when its publisher goes and delivers it to
 * every libtracer subscriber; the bus keeps the topic's retention and incarnation, its own
 * subscriptions (fed by one in-process edge on the vertex, so a libtracer write reaches them too)
 * and the artifacts a retained value roots. Every refusal is decided before anything changes, so a
 * refused operation leaves the sequence, queues, retained values and roots as they were.
 */
final class Topics {
    /** How often retained artifacts whose value the node no longer holds are let go. */
    static final long RECONCILE_NANOS = 1_000_000_000L;
    private final BusLimits limits;
    private final Roots roots;
    private final WideNode node;
    private final Map<String, Topic> byName = new HashMap<>();
    private long incarnations;
    private long retainedBytes;
    private int subscriptions;
    private long nextReconcile;
    /** The body of the bus publish under way (its edge hands this, not a copy of the value), or null. */
    private Carried publishing;
    /** Values the publish under way replaced in latest queues. */
    private long replacedNow;

    Topics(BusLimits limits, Roots roots, WideNode node) {
        this.limits = limits;
        this.roots = roots;
        this.node = node;
    }

    /** Topic {@code a.b-c} as its vertex {@code /a/b-c}. */
    static NodePath pathOf(String topic) {
        return NodePath.of(io.spectrum.wide.TopicPaths.path(topic));
    }

    Replies.Declared declare(BusConnection c, String name, Retention retention) throws BusException {
        Names.topic(name);
        c.check(Grants.Permission.MANAGE, name);
        if (retention == null) {
            throw Names.invalid("retained must be none or latest");
        }
        Topic t = byName.get(name);
        if (t != null) {
            if (t.retention != retention) {
                throw new BusException(BusError.CONFLICT, name + " is declared retained:" + t.retention.wireName());
            }
            return new Replies.Declared(false, t.incarnation);
        }
        if (byName.size() >= limits.maxTopics()) {
            throw new BusException(BusError.QUOTA_EXCEEDED, "at most " + limits.maxTopics() + " topics");
        }
        NodePath path = pathOf(name);
        if (node.isDeclaredOrMounted(path)) {
            throw new BusException(BusError.CONFLICT, name + " is " + path
                    + ", a declared or mounted vertex (a board's): reach it through the node door");
        }
        t = new Topic(name, path, Names.serial("top", ++incarnations), retention,
                Envelopes.topicMessage(name, new byte[0], List.of()));
        byName.put(name, t);
        return new Replies.Declared(true, t.incarnation);
    }

    /**
     * Check order: name → grant → 1..65535 → latest needs maxQueued 1 → mode caps → NO_TOPIC →
     * subscription counts → a bounded replay must fit the client's queued-bytes pool.
     */
    Replies.Subscribed subscribe(BusConnection c, String topic, SubscriptionMode mode, int maxQueued, int maxInFlight,
            boolean replayLatest) throws BusException {
        Names.topic(topic);
        c.check(Grants.Permission.SUBSCRIBE, topic);
        if (mode == null) {
            throw Names.invalid("mode must be latest or bounded");
        }
        Names.range("maxQueued", maxQueued);
        Names.range("maxInFlight", maxInFlight);
        if (mode == SubscriptionMode.LATEST) {
            if (maxQueued != 1) {
                throw Names.invalid("a latest subscription has maxQueued 1");
            }
            if (maxInFlight > limits.latestMaxInFlight()) {
                throw new BusException(BusError.QUOTA_EXCEEDED, "latest maxInFlight is at most " + limits.latestMaxInFlight());
            }
        } else if (maxQueued > limits.boundedMaxQueued() || maxInFlight > limits.boundedMaxInFlight()) {
            throw new BusException(BusError.QUOTA_EXCEEDED,
                    "bounded caps are " + limits.boundedMaxQueued() + "/" + limits.boundedMaxInFlight());
        }
        Topic t = byName.get(topic);
        if (t == null) {
            throw new BusException(BusError.NO_TOPIC, topic + " is not declared");
        }
        if (c.subscriptions.size() >= limits.maxSubscriptionsPerClient() || subscriptions >= limits.maxSubscriptions()) {
            throw new BusException(BusError.QUOTA_EXCEEDED, "subscription limit reached");
        }
        Topic.Entry replay = replayLatest && t.retention == Retention.LATEST ? retainedOf(t) : null;
        if (replay != null) {
            replay = new Topic.Entry(replay.sequence(), replay.body(), staleReason(t)); // as the node holds it now
        }
        if (replay != null && mode == SubscriptionMode.BOUNDED
                && c.boundedQueuedBytes + replay.body().deliveryBytes > limits.maxBoundedQueuedBytesPerClient()) {
            throw new BusException(BusError.BACKPRESSURE, "the retained value does not fit this client's queued bytes");
        }
        if (t.edge == null) {
            io.spectrum.node.api.Subscription edge = node.subscribe(t.path, DeliveryPolicy.ABSENT, new Feed(t));
            if (!edge.isOpen()) {
                throw new BusException(BusError.QUOTA_EXCEEDED, "the node refused a subscription to " + t.path + ": "
                        + WireError.identity(edge.error()));
            }
            t.edge = edge;
            t.handed = node.sequence(t.path); // what the node numbered before the edge is not handed again
        }
        Subscription s = new Subscription(c.nextSubscriptionId(), c, t, mode, maxQueued, maxInFlight);
        t.subscriptions.add(s);
        c.subscriptions.put(s.id, s);
        subscriptions++;
        if (replay != null) {
            enqueue(s, replay);
        }
        return new Replies.Subscribed(s.id, t.incarnation);
    }

    /**
     * Admission order: name → grant → NO_TOPIC → attachments → delivery size (longest ids) →
     * each bounded subscriber's queue and its client's queued-bytes pool (BACKPRESSURE) →
     * retained-bytes quota → the node's own admission of the value (its size, a board's declared
     * rights, its bounded FWD subscribers); then the accept (seal-on-send, the node's publish, which
     * numbers it and hands it to the bus's subscriptions through the topic's edge, roots, retained
     * swap). {@code retain} false, or a topic retained {@code none}: the node keeps nothing and the
     * retained value and its sequence stay (docs/bus.md, "Retain: false").
     */
    Replies.Published publish(BusConnection c, String topic, byte[] payload, List<Attachment> attachments,
            boolean retain, Seals seals) throws BusException {
        Names.topic(topic);
        c.check(Grants.Permission.PUBLISH, topic);
        Topic t = byName.get(topic);
        if (t == null) {
            throw new BusException(BusError.NO_TOPIC, topic + " is not declared");
        }
        if (payload == null) {
            throw Names.invalid("publish needs a payload");
        }
        Admission adm = Admission.check(c.owners, roots, attachments);
        int bytes = Envelopes.topicMessage(topic, payload, adm.slots());
        if (bytes > limits.maxEnvelopeBytes()) {
            throw Names.invalid("the delivery would be " + bytes + " bytes, over " + limits.maxEnvelopeBytes());
        }
        BusException full = roomFor(t, bytes);
        if (full != null) {
            throw full;
        }
        reconcile(t);
        long oldRetained = t.retained == null ? 0 : t.retained.body().artifactBytes();
        final boolean retains = retain && t.retention == Retention.LATEST;
        if (retains
                && retainedBytes - oldRetained + adm.distinctBytes() > limits.maxRetainedBytes()) {
            throw new BusException(BusError.QUOTA_EXCEEDED, "retained bytes would pass " + limits.maxRetainedBytes());
        }
        // the node's value, measured before the seal (a ref sealed on send is spelled at its final length)
        byte[] value = MessageValue.of(payload, names(attachments), refs(attachments));
        int rc = node.admits(c.peer, t.path, value, 0, value.length);
        if (rc != WireError.OK) {
            throw nodeRefused(t, rc);
        }
        Carried body = adm.commit(c.owners, roots, payload, bytes, seals);
        if (!body.named.isEmpty()) { // the refs as sealed: each digest known now, the value's length unchanged
            value = MessageValue.of(payload, body.named.stream().map(Carried.Named::name).toList(),
                    body.named.stream().map(n -> n.object().ref).toList());
        }
        publishing = body;
        replacedNow = 0;
        try {
            rc = c.peer.publish(t.path, value, 0, value.length, retains);
        } finally {
            publishing = null;
        }
        if (rc != WireError.OK) { // admitted a moment ago on this thread: the node broke its own answer
            throw new IllegalStateException("the node refused an admitted publish to " + t.path + ": "
                    + WireError.identity(rc));
        }
        long seq = node.sequence(t.path);
        t.handed = Math.max(t.handed, seq);
        if (retains) {
            setRetained(t, new Topic.Entry(seq, body));
        }
        return new Replies.Published(seq, t.subscriptions.size(), replacedNow);
    }

    /**
     * The refusal a value of {@code bytes} (a delivery's envelope) meets at t's subscriptions, or null:
     * a bounded subscription with no queue room, or a client whose queued-bytes pool it would pass.
     * The one room rule of a topic, for the bus's publishes and (through {@link Feed#hasRoom}) the
     * node's writes alike.
     */
    private BusException roomFor(Topic t, int bytes) {
        Map<BusConnection, Long> pool = null;
        for (Subscription s : t.subscriptions) {
            if (s.latest()) {
                continue;
            }
            if (s.mode.full()) {
                return new BusException(BusError.BACKPRESSURE, "subscription " + s.id + " of "
                        + s.connection.identity().clientId() + " has no queue room");
            }
            if (pool == null) {
                pool = new IdentityHashMap<>();
            }
            long want = pool.merge(s.connection, (long) bytes, Long::sum);
            if (s.connection.boundedQueuedBytes + want > limits.maxBoundedQueuedBytesPerClient()) {
                return new BusException(BusError.BACKPRESSURE, s.connection.identity().clientId()
                        + " has no room in its queued-bytes pool");
            }
        }
        return null;
    }

    /** The node's refusal of a topic's value as the bus's typed error. */
    private BusException nodeRefused(Topic t, int rc) {
        BusError e = switch (rc) {
            case WireError.ACCESS_DENIED -> BusError.NOT_AUTHORIZED;
            case WireError.FLOW_BACKPRESSURE -> BusError.BACKPRESSURE;
            default -> BusError.INVALID_ENVELOPE;
        };
        return new BusException(e, "the node refused the value of " + t.path + ": " + WireError.identity(rc)
                + (rc == WireError.FLOW_BACKPRESSURE ? " (a full bounded subscriber, or larger than the node's frames hold)" : ""));
    }

    /** The attachments' names, in order (none for null). */
    private static List<String> names(List<Attachment> attachments) {
        return attachments == null ? List.of() : attachments.stream().map(Attachment::name).toList();
    }

    /** The attachments' refs as the publisher gave them, in order (none for null). */
    private static List<io.spectrum.bus.protocol.ArtifactRef> refs(List<Attachment> attachments) {
        return attachments == null ? List.of() : attachments.stream().map(Attachment::ref).toList();
    }

    /** A value the node holds or delivered, as a bus body (no attachments). */
    private static Carried foreign(String topic, byte[] payload) {
        return new Carried(payload, List.of(), List.of(), Envelopes.topicMessage(topic, payload, List.of()));
    }

    /**
     * The node's retained value of t as an entry: the bus's own (with its attachments) when the node
     * still holds that publish, else what the node holds (a libtracer writer's value), else null.
     */
    private Topic.Entry retainedOf(Topic t) {
        reconcile(t);
        if (t.retained != null) {
            return t.retained;
        }
        long seq = node.valueSequence(t.path);
        byte[] tlv = seq == 0 ? null : node.valueCopy(t.path);
        return tlv == null ? null : new Topic.Entry(seq, foreign(t.name, MessageValue.payload(tlv)));
    }

    /** The bus's retained entry of t goes (its artifacts with it) once the node holds another value, or none. */
    void reconcile(Topic t) {
        if (t.retained != null && node.valueSequence(t.path) != t.retained.sequence()) {
            setRetained(t, null);
        }
    }

    /** {@link #reconcile} of every topic, at most every {@link #RECONCILE_NANOS}. */
    void reconcileDue(long now) {
        if (now - nextReconcile < 0) {
            return;
        }
        nextReconcile = now + RECONCILE_NANOS;
        for (Topic t : byName.values()) {
            reconcile(t);
        }
    }

    /**
     * The topic's edge on its vertex: what the node delivers there (a bus publish, a libtracer
     * client's write, a board's value) is queued on each of the topic's subscriptions, and a write it
     * has no room for is refused whole ({@link ValueRoom}).
     */
    private final class Feed implements ValueRoom {
        private final Topic t;

        Feed(Topic t) {
            this.t = t;
        }

        @Override
        public boolean hasRoom(int valueBytes) {
            if (publishing != null) {
                return true; // the bus's own publish: its room was checked with its envelope
            }
            // the delivery's envelope with the value's bytes for its payload: never smaller than the payload's
            return roomFor(t, t.emptyEnvelope + valueBytes) == null;
        }

        @Override
        public void onValue(io.spectrum.node.api.Subscription sub, VertexValue value, long seq, boolean stale) {
            if (value.deleted()) {
                if (t.retained != null) {
                    setRetained(t, null); // cleared or purged on the node: its artifacts go
                }
                return;
            }
            if (seq <= t.handed || !samePath(value, t.path)) {
                return; // a stale notice of a value handed already, or a write below the topic
            }
            t.handed = seq;
            Carried body = publishing != null ? publishing : foreign(t.name, MessageValue.payload(value.copy()));
            Topic.Entry e = new Topic.Entry(seq, body, stale ? staleReason(t) : null);
            long replaced = 0;
            for (Subscription s : t.subscriptions) {
                if (enqueue(s, e)) {
                    replaced++;
                }
            }
            replacedNow = replaced;
            if (publishing == null && node.valueSequence(t.path) == seq && t.retention == Retention.LATEST) {
                setRetained(t, e); // a writer's retained value: the bus's entry now stands for it
            }
        }
    }

    /** Why the node holds t's value as not current (its reason, or "stale" when it gave none), or null. */
    private String staleReason(Topic t) {
        if (!node.isStale(t.path)) {
            return null;
        }
        byte[] b = new byte[io.spectrum.wire.StaleReason.MAX_BYTES];
        int n = node.staleReason(t.path, b, 0, b.length);
        return n > 0 ? new String(b, 0, n, java.nio.charset.StandardCharsets.UTF_8) : "stale";
    }

    private static boolean samePath(VertexValue v, NodePath p) {
        int n = p.bodyLength();
        if (v.pathLength() != n) {
            return false;
        }
        byte[] b = p.tlv();
        int o = p.bodyOffset();
        for (int i = 0; i < n; i++) {
            if (v.pathByte(i) != b[o + i]) {
                return false;
            }
        }
        return true;
    }

    boolean unsubscribe(BusConnection c, String subscriptionId) throws BusException {
        Names.serialNumber(subscriptionId);
        Subscription s = c.subscriptions.get(subscriptionId);
        if (s == null) {
            return false;
        }
        drop(s);
        return true;
    }

    boolean clear(BusConnection c, String name) throws BusException {
        Names.topic(name);
        c.check(Grants.Permission.MANAGE, name);
        Topic t = byName.get(name);
        if (t == null) {
            throw new BusException(BusError.NO_TOPIC, name + " is not declared");
        }
        reconcile(t);
        boolean had = node.valueSequence(t.path) != 0;
        node.clear(t.path, false); // the sequence stays: a vertex's numbers never go back
        setRetained(t, null);
        return had;
    }

    boolean delete(BusConnection c, String name) throws BusException {
        Names.topic(name);
        c.check(Grants.Permission.MANAGE, name);
        Topic t = byName.get(name);
        if (t == null) {
            return false;
        }
        if (!t.subscriptions.isEmpty()) {
            throw new BusException(BusError.CONFLICT, name + " has " + t.subscriptions.size() + " subscriptions");
        }
        node.clear(t.path, false);
        setRetained(t, null);
        byName.remove(name);
        return true;
    }

    /** Ends a subscription: its queue is discarded (roots released); handed-out deliveries stay. */
    void drop(Subscription s) {
        for (Topic.Entry e = s.mode.poll(); e != null; e = s.mode.poll()) {
            roots.dropAll(e.body().objects);
            if (!s.latest()) {
                s.connection.boundedQueuedBytes -= e.body().deliveryBytes;
            }
        }
        s.mode.clear();
        s.topic.subscriptions.remove(s);
        if (s.topic.subscriptions.isEmpty() && s.topic.edge != null) {
            s.topic.edge.close(); // the node counts the topic's subscribers as one edge
            s.topic.edge = null;
        }
        s.connection.subscriptions.remove(s.id);
        subscriptions--;
    }

    /** Hands out the head of a ready subscription's queue as a delivery owned by its connection. */
    BusMessage.TopicMessage deliver(Subscription s) {
        Topic.Entry e = s.mode.poll();
        BusConnection c = s.connection;
        if (!s.latest()) {
            c.boundedQueuedBytes -= e.body().deliveryBytes;
        }
        Owner o = c.owners.newDelivery(Owner.Kind.TOPIC_DELIVERY, e.body().objects);
        o.subscription = s;
        long replaced = s.mode.sent();
        return new BusMessage.TopicMessage(o.id, s.id, s.topic.name, s.topic.incarnation, e.sequence(), replaced,
                e.body().payload, e.body().attachmentsFor(o.id), e.stale());
    }

    /** Drops every topic and retained value (shutdown; subscriptions are gone already). */
    void clearAll() {
        for (Topic t : new ArrayList<>(byName.values())) {
            setRetained(t, null);
        }
        byName.clear();
    }

    /** Queues e on s (holding its roots); true when it replaced a latest value, whose roots go. */
    private boolean enqueue(Subscription s, Topic.Entry e) {
        Topic.Entry old = s.mode.offer(e);
        roots.addAll(e.body().objects);
        if (!s.latest()) {
            s.connection.boundedQueuedBytes += e.body().deliveryBytes;
        }
        if (old == null) {
            return false;
        }
        roots.dropAll(old.body().objects);
        return true;
    }

    private void setRetained(Topic t, Topic.Entry e) {
        if (t.retained != null) {
            roots.dropAll(t.retained.body().objects);
            retainedBytes -= t.retained.body().artifactBytes();
        }
        t.retained = e;
        if (e != null) {
            roots.addAll(e.body().objects);
            retainedBytes += e.body().artifactBytes();
        }
    }

    /** The declared topics (tests' invariant checks). */
    java.util.Collection<Topic> all() {
        return java.util.List.copyOf(byName.values());
    }

    long retainedBytes() {
        return retainedBytes;
    }

    int topicCount() {
        return byName.size();
    }

    int subscriptionCount() {
        return subscriptions;
    }

    long queued() {
        long n = 0;
        for (Topic t : byName.values()) {
            for (Subscription s : t.subscriptions) {
                n += s.mode.size();
            }
        }
        return n;
    }
}
