package io.spectrum.bus.state;

import io.spectrum.wire.BusError;
import io.spectrum.wide.Grants;

import io.spectrum.time.Clock;
import io.spectrum.wide.AnonymousIds;
import io.spectrum.wide.WideNode;
import io.spectrum.wide.WidePeer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.bus.protocol.ClientIdentity;
import io.spectrum.bus.store.ArtifactStore;

/**
 * The Flybus host bus state machine (docs/bus.md): connections with
 * their grants and identities, topics and subscriptions, services and calls, and the ownership
 * roots that decide when the {@link ArtifactStore} may collect an object. Single-threaded and
 * free of I/O and transport: a transport calls {@link #connect}, the {@link BusConnection}
 * operations and {@link BusConnection#poll()}, and encodes what they return.
 */
public final class HostBus {
    final BusLimits limits;
    final Roots roots;
    final Topics topics;
    final Services services;
    final Clock clock;
    /** The node whose vertices the topics are (the host's, or the bus's own). */
    final WideNode node;
    /** Whether {@link #node} is the bus's own, which {@link #tick} then runs the janitor of. */
    private final boolean ownsNode;
    private final List<BusConnection> connections = new ArrayList<>();
    private final Map<String, BusConnection> byClientId = new HashMap<>();
    /**
     * The last incarnation of the client ids seen, at most {@link #REMEMBERED_IDS}, oldest first; an id
     * forgotten (or never seen) starts above every incarnation forgotten, so an id's incarnations only grow.
     */
    private final java.util.LinkedHashMap<String, Long> incarnations = new java.util.LinkedHashMap<>();
    private long forgottenIncarnations;
    static final int REMEMBERED_IDS = 4096;
    private final ArrayDeque<BusConnection> closing = new ArrayDeque<>();
    private boolean stopped;

    /**
     * A bus over {@code store} (the artifacts' bytes), {@code clock} (the seconds in anonymous ids, the bus's timers)
     * and its bounds, its topics the vertices of a node of its own (a WIDE node on {@code clock});
     * {@link IllegalArgumentException} when one is null. Single-threaded: every call, and every
     * connection's, on one thread.
     */
    public HostBus(ArtifactStore store, Clock clock, BusLimits limits) {
        this(store, clock, limits, null);
    }

    /**
     * As {@link #HostBus(ArtifactStore, Clock, BusLimits)}, its topics the vertices of {@code node}
     * (the host's; null: a node of the bus's own), which the bus then calls on its one thread: the
     * node's thread (docs/bus.md, "Topics are the node's vertices").
     */
    public HostBus(ArtifactStore store, Clock clock, BusLimits limits, WideNode node) {
        if (store == null || clock == null || limits == null) {
            throw new IllegalArgumentException("a host bus needs a store, a clock and limits");
        }
        this.limits = limits;
        this.clock = clock;
        this.ownsNode = node == null;
        this.node = node != null ? node : new WideNode(WideNode.hostConfig().clock(clock).build());
        this.roots = new Roots(store);
        this.topics = new Topics(limits, roots, this.node);
        this.services = new Services(limits, roots, this);
    }

    /** The node whose vertices the bus's topics are. */
    public WideNode node() {
        return node;
    }

    /**
     * The bus's periodic work on its thread: a node of its own runs its janitor (stale values purged
     * after the grace), and retained artifacts whose value the node no longer holds are let go.
     */
    public void tick() {
        if (ownsNode) {
            node.tick();
        }
        topics.reconcileDue(clock.nanoTime());
    }

    /** The clock the bus reads its timers and anonymous ids' seconds from. */
    public Clock clock() {
        return clock;
    }

    /** The bounds this bus enforces. */
    public BusLimits limits() {
        return limits;
    }

    /**
     * A new connection: {@code clientId} (an Id, not {@code anon-…}) gets the next incarnation of
     * that id; null gets an anonymous id.
     *
     * @throws BusException ROUTER_LOST after shutdown; INVALID_ENVELOPE for a bad id; CONFLICT
     *     while that id has a live connection; QUOTA_EXCEEDED past {@link BusLimits#maxClients()}
     */
    public BusConnection connect(String clientId, Grants grants) throws BusException {
        if (stopped) {
            throw new BusException(BusError.ROUTER_LOST, "the bus has shut down");
        }
        if (grants == null) {
            throw new IllegalArgumentException("a connection needs grants");
        }
        if (clientId != null) {
            Names.id("clientId", clientId);
            if (!AnonymousIds.nameAllowed(clientId)) {
                throw Names.invalid("client ids starting anon- are the bus's");
            }
            if (byClientId.containsKey(clientId)) {
                throw new BusException(BusError.CONFLICT, clientId + " is connected");
            }
        }
        if (connections.size() >= limits.maxClients()) {
            throw new BusException(BusError.QUOTA_EXCEEDED, "at most " + limits.maxClients() + " clients");
        }
        // the node issues the connection's identity: an anonymous one is the node's anon-…, never reused
        WidePeer peer = node.connect(clientId);
        ClientIdentity id = clientId == null ? new ClientIdentity(peer.identity(), 1, true)
                : new ClientIdentity(clientId, nextIncarnation(clientId), false);
        BusConnection c = new BusConnection(this, id, grants, peer);
        connections.add(c);
        if (clientId != null) {
            byClientId.put(clientId, c);
        }
        return c;
    }

    /** The next incarnation of {@code clientId}: one above its last, or above every forgotten one. */
    private long nextIncarnation(String clientId) {
        Long last = incarnations.remove(clientId);
        long next = (last != null ? last : forgottenIncarnations) + 1;
        incarnations.put(clientId, next);
        if (incarnations.size() > REMEMBERED_IDS) {
            var eldest = incarnations.entrySet().iterator();
            forgottenIncarnations = Math.max(forgottenIncarnations, eldest.next().getValue());
            eldest.remove();
        }
        return next;
    }

    /**
     * Stops the bus: each connection gets {@code subscription.closed{router-stopping}} per
     * subscription, then {@code connection.closing{ROUTER_LOST}}, and then its poll ends; all
     * state, retained values included, is released.
     */
    public void shutdown() {
        if (stopped) {
            return;
        }
        stopped = true;
        List<BusConnection> all = new ArrayList<>(connections);
        for (BusConnection c : all) {
            for (Subscription s : c.subscriptions.values()) {
                c.control.add(new BusMessage.SubscriptionClosed(s.id, s.topic.name, "router-stopping"));
            }
            c.control.add(new BusMessage.ConnectionClosing(BusError.ROUTER_LOST, "the router is stopping"));
            c.open = false;
        }
        for (BusConnection c : all) {
            teardown(c);
        }
        topics.clearAll();
        if (ownsNode) {
            node.close();
        }
    }

    /** A registered service as an operator sees it. */
    public record ServiceInfo(String name, String serviceIncarnation, String holder, int queued, int inFlight) {
    }

    /**
     * A stored artifact as an operator sees it: its ref, content type, ownership roots, and the
     * topics whose retained value carries it (a subscriber with replay can read it from there).
     */
    public record ArtifactInfo(ArtifactRef ref, String contentType, int roots, List<String> retainedBy) {
        /** Copies the topic names. */
        public ArtifactInfo {
            retainedBy = List.copyOf(retainedBy);
        }
    }

    /** The registered services, by name. */
    public List<ServiceInfo> services() {
        List<ServiceInfo> out = new ArrayList<>();
        for (Service s : services.all()) {
            out.add(new ServiceInfo(s.name, s.incarnation, s.owner.identity().clientId(), s.queue.size(), s.inFlight));
        }
        out.sort(java.util.Comparator.comparing(ServiceInfo::name));
        return out;
    }

    /** The sealed artifacts the bus holds roots on, by id. */
    public List<ArtifactInfo> artifacts() {
        java.util.Map<SealedObject, List<String>> retainedBy = new java.util.IdentityHashMap<>();
        for (Topic t : topics.all()) {
            if (t.retained != null) {
                for (SealedObject o : t.retained.body().objects) {
                    retainedBy.computeIfAbsent(o, k -> new ArrayList<>()).add(t.name);
                }
            }
        }
        List<ArtifactInfo> out = new ArrayList<>();
        for (SealedObject o : roots.objects()) {
            List<String> names = retainedBy.getOrDefault(o, new ArrayList<>());
            names.sort(null);
            out.add(new ArtifactInfo(o.ref, o.contentType, o.roots, names));
        }
        out.sort(java.util.Comparator.comparingLong(a -> a.ref().artifactId()));
        return out;
    }

    /**
     * Counts for an operator: roots, owners, sealed objects, queued entries, store and retained bytes, registry
     * sizes.
     */
    public BusStats stats() {
        long owners = 0;
        int calls = 0;
        for (BusConnection c : connections) {
            owners += c.owners.size();
            calls += c.calls.size();
        }
        ArtifactStore store = roots.store();
        return new BusStats(roots.total(), owners, store.objects(), topics.queued(), store.inUse(),
                topics.retainedBytes(), topics.topicCount(), topics.subscriptionCount(), connections.size(),
                services.serviceCount(), calls);
    }

    /** Queues a control notice; a connection whose control lane is full is closed instead. */
    void notice(BusConnection c, BusMessage m) {
        if (!c.open) {
            return;
        }
        if (c.control.size() >= limits.controlLaneFrames()) {
            if (!closing.contains(c)) {
                closing.add(c);
            }
            return;
        }
        c.control.add(m);
    }

    /** Closes the connections whose control lane overflowed during the last operation. */
    void settle() {
        while (!closing.isEmpty()) {
            BusConnection c = closing.poll();
            if (c.open) {
                c.control.add(new BusMessage.ConnectionClosing(BusError.BACKPRESSURE, "the control lane is full"));
                c.open = false;
                teardown(c);
            }
        }
    }

    /** Closes {@code c} for a transport's bound: {@code connection.closing{code, message}}, then its state ends. */
    public void close(BusConnection c, BusError code, String message) {
        if (c.open) {
            c.control.add(new BusMessage.ConnectionClosing(code, message));
            c.open = false;
            teardown(c);
        }
        settle();
    }

    void disconnect(BusConnection c, boolean keepControl) {
        if (c.open) {
            c.open = false;
            teardown(c);
        }
        if (!keepControl) {
            c.control.clear();
        }
        settle();
    }

    /** Releases one owner: a delivery's roots (and its credit or call), a hold's root, or a writer's staging. */
    void release(BusConnection c, Owner o) {
        c.owners.remove(o);
        switch (o.kind) {
            case WRITER -> roots.store().abandon(o.staged.artifactId());
            case TOPIC_DELIVERY -> {
                o.subscription.mode.consumeOne();
                roots.dropAll(o.objects);
            }
            case RESULT_DELIVERY -> {
                services.resultConsumed(o.call);
                roots.dropAll(o.objects);
            }
            default -> roots.dropAll(o.objects);
        }
    }

    private void teardown(BusConnection c) {
        for (Subscription s : new ArrayList<>(c.subscriptions.values())) {
            topics.drop(s);
        }
        services.connectionLost(c);
        for (Owner o : c.owners.all()) {
            release(c, o);
        }
        c.peer.disconnect(); // its published values go stale on the node (purged after the grace)
        connections.remove(c);
        if (byClientId.get(c.identity().clientId()) == c) {
            byClientId.remove(c.identity().clientId());
        }
        closing.remove(c);
    }

    /** Connections in connect order (tests, the transport's accept loop). */
    List<BusConnection> connections() {
        return List.copyOf(connections);
    }

}
