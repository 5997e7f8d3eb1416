package io.spectrum.bus.state;

import io.spectrum.wide.WidePeer;
import io.spectrum.wire.BusError;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.ClientIdentity;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;
import io.spectrum.bus.store.StagedArtifact;
import io.spectrum.wide.Grants;

/**
 * One client's connection to a {@link HostBus}: its identity and grants, the bus's
 * commands (each returns its reply value or throws a typed {@link BusException}, and a refusal
 * changes nothing), and its outbound side, which the transport drains with {@link #poll()}:
 * control notices first, then RPC requests/results, then topic deliveries — a topic delivery is
 * handed out (and given its {@code dlv-N} id) only while its subscription has a free credit and
 * this client has an ordinary owner left. Credits come back only through {@link #consumed}.
 * Not thread-safe: the bus's one thread calls it.
 */
public final class BusConnection implements BusSession {
    private final HostBus bus;
    private final ClientIdentity identity;
    /** The connection as a peer of the node: the identity its topic publishes carry there. */
    final WidePeer peer;
    final Grants grants;
    final Owners owners = new Owners();
    final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
    final List<Service> services = new ArrayList<>();
    /** This connection's attached calls, by call id. */
    final Map<String, Call> calls = new LinkedHashMap<>();
    /** Calls whose requests were delivered here and that await this connection's reply, by delivery id. */
    final Map<String, Call> replyAuthority = new HashMap<>();
    final ArrayDeque<Call> pendingResults = new ArrayDeque<>();
    final ArrayDeque<BusMessage> control = new ArrayDeque<>();
    long callWatermark;
    long boundedQueuedBytes;
    boolean open = true;
    private long subscriptionsIssued;
    private int highInARow;
    private int topicCursor;
    private int serviceCursor;

    /**
     * Refuses with {@link BusError#NOT_AUTHORIZED} when the grants do not give {@code permission} on
     * {@code name} (a topic or service name; docs/bus.md, "The grants file").
     */
    void check(Grants.Permission permission, String name) throws BusException {
        if (!grants.allows(permission, name)) {
            throw new BusException(BusError.NOT_AUTHORIZED, "no " + permission.key() + " grant for " + name);
        }
    }

    BusConnection(HostBus bus, ClientIdentity identity, Grants grants, WidePeer peer) {
        this.bus = bus;
        this.identity = identity;
        this.grants = grants;
        this.peer = peer;
    }

    /** The client id and incarnation this connection was admitted with ({@code anon-…} when it gave no name). */
    public ClientIdentity identity() {
        return identity;
    }

    /** False once disconnected, shut down or closed for an overflowing control lane. */
    public boolean isOpen() {
        return open;
    }

    String nextSubscriptionId() {
        return Names.serial("sub", ++subscriptionsIssued);
    }

    /** {@code topic.declare}. */
    public Replies.Declared declare(String name, Retention retained) throws BusException {
        enter();
        try {
            return bus.topics.declare(this, name, retained);
        } finally {
            bus.settle();
        }
    }

    /** {@code subscribe}. */
    public Replies.Subscribed subscribe(String topic, SubscriptionMode mode, int maxQueued, int maxInFlight,
            boolean replayLatest) throws BusException {
        enter();
        try {
            return bus.topics.subscribe(this, topic, mode, maxQueued, maxInFlight, replayLatest);
        } finally {
            bus.settle();
        }
    }

    /** {@code unsubscribe}: false for an id this connection does not hold. */
    public boolean unsubscribe(String subscriptionId) throws BusException {
        enter();
        try {
            return bus.topics.unsubscribe(this, subscriptionId);
        } finally {
            bus.settle();
        }
    }

    /** {@code publish}: the payload is opaque bytes (at most the envelope limit with the delivery around it). */
    public Replies.Published publish(String topic, byte[] payload, List<Attachment> attachments) throws BusException {
        return publish(topic, payload, attachments, true, Seals.INLINE);
    }

    /** {@code publish} with {@code retain} (false: a {@code latest} topic's retained value stays, docs/bus.md). */
    @Override
    public Replies.Published publish(String topic, byte[] payload, List<Attachment> attachments, boolean retain)
            throws BusException {
        return publish(topic, payload, attachments, retain, Seals.INLINE);
    }

    /** {@code publish} whose seal-on-send goes through {@code seals}. */
    public Replies.Published publish(String topic, byte[] payload, List<Attachment> attachments, boolean retain, Seals seals)
            throws BusException {
        enter();
        try {
            return bus.topics.publish(this, topic, payload, attachments, retain, seals);
        } finally {
            bus.settle();
        }
    }

    /** {@code topic.clear}: true when a retained value was released. */
    public boolean clear(String topic) throws BusException {
        enter();
        try {
            return bus.topics.clear(this, topic);
        } finally {
            bus.settle();
        }
    }

    /** {@code topic.delete}: false for an undeclared topic; CONFLICT while it has subscriptions. */
    public boolean delete(String topic) throws BusException {
        enter();
        try {
            return bus.topics.delete(this, topic);
        } finally {
            bus.settle();
        }
    }

    /** {@code delivery.consumed}: the count of deliveries newly released (a retired id counts 0). */
    public long consumed(List<String> deliveryIds) throws BusException {
        enter();
        try {
            List<Owner> batch = owners.batch(Owners.DELIVERY, deliveryIds);
            for (Owner o : batch) {
                bus.release(this, o);
            }
            return batch.size();
        } finally {
            bus.settle();
        }
    }

    /** {@code artifact.allocate}: a writer owner and its staging. */
    public Replies.Allocated allocate(long byteLength, String contentType) throws BusException {
        enter();
        try {
            Names.contentType(contentType);
            if (byteLength < 1) {
                throw Names.invalid("byteLength must be at least 1");
            }
            ordinaryOwnerRoom();
            StagedArtifact staged = bus.roots.store().allocate(byteLength, contentType);
            return new Replies.Allocated(owners.newWriter(staged, contentType).id, staged);
        } finally {
            bus.settle();
        }
    }

    /**
     * {@code artifact.seal}: the writer becomes the sealed object's hold (same owner id).
     *
     * @param digest the expected SHA-256 hex, or null
     * @throws BusException OWNER_INVALID for an owner that is no unsealed writer of this
     *     artifact here (sealing twice included); the store's refusals
     */
    public Replies.Sealed seal(long artifactId, long generation, String ownerId, String digest) throws BusException {
        return seal(artifactId, generation, ownerId, digest, Seals.INLINE);
    }

    /** {@code artifact.seal} through {@code seals}. */
    public Replies.Sealed seal(long artifactId, long generation, String ownerId, String digest, Seals seals)
            throws BusException {
        enter();
        try {
            Names.id("ownerId", ownerId);
            Owner o = owners.get(ownerId);
            if (o == null || o.kind != Owner.Kind.WRITER) {
                throw new BusException(BusError.OWNER_INVALID, ownerId + " is no unsealed writer of this connection");
            }
            if (o.staged.artifactId() != artifactId || o.staged.generation() != generation) {
                throw new BusException(BusError.OWNER_INVALID, ownerId + " does not write artifact " + artifactId);
            }
            seals.want(o, digest);
            seals.deferIfWanted();
            SealedObject s = seals.seal(owners, bus.roots, o, digest);
            return new Replies.Sealed(s.ref, o.id);
        } finally {
            bus.settle();
        }
    }

    /** {@code artifact.open}: where to map an object this connection owns, relative to the store root. */
    public String open(ArtifactRef ref, String ownerId) throws BusException {
        enter();
        try {
            return bus.roots.store().readLocation(owned(ref, ownerId).ref.artifactId());
        } finally {
            bus.settle();
        }
    }

    /** {@code artifact.retain}: a new explicit hold ({@code own-N}) while the source owner lives. */
    public String retain(ArtifactRef ref, String ownerId) throws BusException {
        enter();
        try {
            SealedObject o = owned(ref, ownerId);
            ordinaryOwnerRoom();
            Owner hold = owners.newHold(o);
            bus.roots.add(o);
            return hold.id;
        } finally {
            bus.settle();
        }
    }

    /** {@code artifact.release}: drops holds and unsealed writers; the count newly released. */
    public long release(List<String> ownerIds) throws BusException {
        enter();
        try {
            List<Owner> batch = owners.batch(Owners.HOLD, ownerIds);
            for (Owner o : batch) {
                bus.release(this, o);
            }
            return batch.size();
        } finally {
            bus.settle();
        }
    }

    /** {@code service.register}: an exclusive registration with a new incarnation. */
    public Replies.Registered register(String name, int maxQueued, int maxInFlight) throws BusException {
        enter();
        try {
            return bus.services.register(this, name, maxQueued, maxInFlight);
        } finally {
            bus.settle();
        }
    }

    /** {@code service.unregister}: false unless this connection holds that incarnation. */
    public boolean unregister(String name, String serviceIncarnation) throws BusException {
        enter();
        try {
            return bus.services.unregister(this, name, serviceIncarnation);
        } finally {
            bus.settle();
        }
    }

    /** {@code rpc.call}: admission only; an {@link BusMessage.RpcResult} or a call failure follows. */
    public Replies.CallAccepted call(String callId, String target, String expectedIncarnation, String method,
            byte[] payload, List<Attachment> attachments) throws BusException {
        return call(callId, target, expectedIncarnation, method, payload, attachments, Seals.INLINE);
    }

    /** {@code rpc.call} whose seal-on-send goes through {@code seals}. */
    public Replies.CallAccepted call(String callId, String target, String expectedIncarnation, String method,
            byte[] payload, List<Attachment> attachments, Seals seals) throws BusException {
        enter();
        try {
            return bus.services.call(this, callId, target, expectedIncarnation, method, payload, attachments, seals);
        } finally {
            bus.settle();
        }
    }

    /** {@code rpc.reply}: true when routed to the caller, false for a detached call. */
    public boolean reply(String callId, String requestDeliveryId, byte[] outcome, List<Attachment> attachments)
            throws BusException {
        return reply(callId, requestDeliveryId, outcome, attachments, Seals.INLINE);
    }

    /** {@code rpc.reply} whose seal-on-send goes through {@code seals}. */
    public boolean reply(String callId, String requestDeliveryId, byte[] outcome, List<Attachment> attachments, Seals seals)
            throws BusException {
        enter();
        try {
            return bus.services.reply(this, callId, requestDeliveryId, outcome, attachments, seals);
        } finally {
            bus.settle();
        }
    }

    /** {@code rpc.responder.release}: gives up reply authority for a request delivered here. */
    public boolean releaseResponder(String callId, String requestDeliveryId) throws BusException {
        enter();
        try {
            return bus.services.releaseResponder(this, callId, requestDeliveryId);
        } finally {
            bus.settle();
        }
    }

    /** {@code rpc.cancel}: one of the four states. */
    public Replies.CancelState cancel(String callId) throws BusException {
        enter();
        try {
            return bus.services.cancel(this, callId);
        } finally {
            bus.settle();
        }
    }

    /**
     * True when {@link #poll()} would return a message now (a transport's writer checks this after
     * each operation on the bus, since one connection's operation can give another work).
     */
    public boolean hasOutbound() {
        if (!control.isEmpty()) {
            return true;
        }
        if (!open) {
            return false;
        }
        if (owners.size() < bus.limits.maxOwnersPerClient()) {
            if (!pendingResults.isEmpty()) {
                return true;
            }
            for (Service s : services) {
                if (s.ready()) {
                    return true;
                }
            }
        }
        if (owners.size() < bus.limits.ordinaryOwners()) {
            for (Subscription s : subscriptions.values()) {
                if (s.ready()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The next outbound message, or null when nothing may go now. After the connection closed,
     * only its remaining control notices come out (then null: end of stream).
     */
    public BusMessage poll() {
        try {
            if (open && highInARow >= bus.limits.topicFrameEvery()) {
                BusMessage m = nextTopic();
                if (m != null) {
                    highInARow = 0;
                    return m;
                }
            }
            BusMessage m = control.poll();
            if (m == null && open) {
                m = nextRpc();
            }
            if (m != null) {
                highInARow++;
                return m;
            }
            m = open ? nextTopic() : null;
            if (m != null) {
                highInARow = 0;
            }
            return m;
        } finally {
            bus.settle();
        }
    }

    /** Disconnects: subscriptions, registrations, calls, deliveries and holds end; writers are abandoned. */
    public void close() {
        bus.disconnect(this, false);
    }

    private BusMessage nextRpc() {
        if (owners.size() >= bus.limits.maxOwnersPerClient()) {
            return null;
        }
        if (!pendingResults.isEmpty()) {
            return bus.services.deliverResult(this);
        }
        int n = services.size();
        for (int i = 0; i < n; i++) {
            Service s = services.get((serviceCursor + i) % n);
            if (s.ready()) {
                serviceCursor = (serviceCursor + i + 1) % n;
                return bus.services.dispatch(s);
            }
        }
        return null;
    }

    private BusMessage nextTopic() {
        if (owners.size() >= bus.limits.ordinaryOwners()) {
            return null;
        }
        List<Subscription> subs = new ArrayList<>(subscriptions.values());
        int n = subs.size();
        for (int i = 0; i < n; i++) {
            Subscription s = subs.get((topicCursor + i) % n);
            if (s.ready()) {
                topicCursor = (topicCursor + i + 1) % n;
                return bus.topics.deliver(s);
            }
        }
        return null;
    }

    private SealedObject owned(ArtifactRef ref, String ownerId) throws BusException {
        if (ref == null) {
            throw Names.invalid("missing ref");
        }
        Names.id("ownerId", ownerId);
        if (!ref.storeId().equals(bus.roots.store().storeId())) {
            throw new BusException(BusError.ARTIFACT_GONE, "ref of another store run: " + ref.storeId());
        }
        Owner o = owners.get(ownerId);
        if (o == null) {
            throw new BusException(BusError.OWNER_INVALID, ownerId + " is not a live owner of this connection");
        }
        if (o.kind == Owner.Kind.WRITER) {
            throw new BusException(BusError.ARTIFACT_UNSEALED, "artifact " + ref.artifactId() + " is not sealed");
        }
        SealedObject s = o.find(ref.artifactId());
        if (s == null) {
            throw new BusException(bus.roots.object(ref.artifactId()) == null ? BusError.ARTIFACT_GONE
                    : BusError.OWNER_INVALID, ownerId + " does not own artifact " + ref.artifactId());
        }
        Admission.exact(s.ref, ref);
        return s;
    }

    private void ordinaryOwnerRoom() throws BusException {
        if (owners.size() >= bus.limits.ordinaryOwners()) {
            throw new BusException(BusError.QUOTA_EXCEEDED, "at most " + bus.limits.ordinaryOwners() + " ordinary owners");
        }
    }

    private void enter() throws BusException {
        if (!open) {
            throw new BusException(BusError.ROUTER_LOST, "this connection is closed");
        }
    }
}
