package io.spectrum.bus.state;

import io.spectrum.wire.BusError;
import io.spectrum.wide.Grants;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;

/**
 * The topic half of the bus (docs/bus.md): declare, subscribe, publish,
 * unsubscribe, clear, delete and the handing out of topic deliveries. Every refusal is decided
 * before anything changes, so a refused operation leaves the sequence, queues, retained values
 * and roots as they were.
 */
final class Topics {
    private final BusLimits limits;
    private final Roots roots;
    private final Map<String, Topic> byName = new HashMap<>();
    private long incarnations;
    private long retainedBytes;
    private int subscriptions;

    Topics(BusLimits limits, Roots roots) {
        this.limits = limits;
        this.roots = roots;
    }

    Replies.Declared declare(BusConnection c, String name, Retention retention) throws BusException {
        Names.name("topic", name);
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
        t = new Topic(name, Names.serial("top", ++incarnations), retention);
        byName.put(name, t);
        return new Replies.Declared(true, t.incarnation);
    }

    /**
     * Check order: name → grant → 1..65535 → latest needs maxQueued 1 → mode caps → NO_TOPIC →
     * subscription counts → a bounded replay must fit the client's queued-bytes pool.
     */
    Replies.Subscribed subscribe(BusConnection c, String topic, SubscriptionMode mode, int maxQueued, int maxInFlight,
            boolean replayLatest) throws BusException {
        Names.name("topic", topic);
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
        Topic.Entry replay = replayLatest ? t.retained : null;
        if (replay != null && mode == SubscriptionMode.BOUNDED
                && c.boundedQueuedBytes + replay.body().deliveryBytes > limits.maxBoundedQueuedBytesPerClient()) {
            throw new BusException(BusError.BACKPRESSURE, "the retained value does not fit this client's queued bytes");
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
     * retained-bytes quota; then the accept (seal-on-send, one sequence number, fan-out, roots,
     * retained swap). {@code retain} false: no retained swap and no quota check (the retained value
     * and its sequence stay; docs/bus.md, "Retain: false").
     */
    Replies.Published publish(BusConnection c, String topic, byte[] payload, List<Attachment> attachments,
            boolean retain, Seals seals) throws BusException {
        Names.name("topic", topic);
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
        Map<BusConnection, Long> pool = new IdentityHashMap<>();
        for (Subscription s : t.subscriptions) {
            if (s.latest()) {
                continue;
            }
            if (s.mode.full()) {
                throw new BusException(BusError.BACKPRESSURE, "subscription " + s.id + " of "
                        + s.connection.identity().clientId() + " has no queue room");
            }
            long want = pool.merge(s.connection, (long) bytes, Long::sum);
            if (s.connection.boundedQueuedBytes + want > limits.maxBoundedQueuedBytesPerClient()) {
                throw new BusException(BusError.BACKPRESSURE, s.connection.identity().clientId()
                        + " has no room in its queued-bytes pool");
            }
        }
        long oldRetained = t.retained == null ? 0 : t.retained.body().artifactBytes();
        final boolean retains = retain && t.retention == Retention.LATEST;
        if (retains
                && retainedBytes - oldRetained + adm.distinctBytes() > limits.maxRetainedBytes()) {
            throw new BusException(BusError.QUOTA_EXCEEDED, "retained bytes would pass " + limits.maxRetainedBytes());
        }
        Carried body = adm.commit(c.owners, roots, payload, bytes, seals);
        Topic.Entry e = new Topic.Entry(++t.sequence, body);
        long replaced = 0;
        for (Subscription s : t.subscriptions) {
            if (enqueue(s, e)) {
                replaced++;
            }
        }
        if (retains) {
            setRetained(t, e);
        }
        return new Replies.Published(e.sequence(), t.subscriptions.size(), replaced);
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
        Names.name("topic", name);
        c.check(Grants.Permission.MANAGE, name);
        Topic t = byName.get(name);
        if (t == null) {
            throw new BusException(BusError.NO_TOPIC, name + " is not declared");
        }
        boolean had = t.retained != null;
        setRetained(t, null);
        return had;
    }

    boolean delete(BusConnection c, String name) throws BusException {
        Names.name("topic", name);
        c.check(Grants.Permission.MANAGE, name);
        Topic t = byName.get(name);
        if (t == null) {
            return false;
        }
        if (!t.subscriptions.isEmpty()) {
            throw new BusException(BusError.CONFLICT, name + " has " + t.subscriptions.size() + " subscriptions");
        }
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
                e.body().payload, e.body().attachmentsFor(o.id));
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
