package io.spectrum.bus.state;

import java.util.List;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.ClientIdentity;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;

/**
 * One connection's operations on the host bus, the whole Flybus profile from one Java API: what
 * {@link BusConnection} does on the bus's own thread, and what a remote caller does through the
 * frames of docs/bus.md. Every refusal is a {@link BusException} with its typed code.
 */
public interface BusSession {
    /** The client id and incarnation this session was admitted with. */
    ClientIdentity identity();

    /** False once disconnected, shut down or closed for an overflowing control lane. */
    boolean isOpen();

    /**
     * {@code topic.declare}: creates the topic with its retention, or answers false (and the same incarnation) for a
     * compatible redeclaration; NOT_AUTHORIZED without a manage-topics grant.
     */
    Replies.Declared declare(String name, Retention retained) throws BusException;

    /** {@code topic.declare} retaining the latest value. */
    default Replies.Declared declare(String name) throws BusException {
        return declare(name, Retention.LATEST);
    }

    /**
     * {@code subscribe}: a subscription in {@code mode} with its queue and in-flight bounds, replaying the retained
     * value first when {@code replayLatest}; NO_TOPIC for an undeclared topic.
     */
    Replies.Subscribed subscribe(String topic, SubscriptionMode mode, int maxQueued, int maxInFlight,
            boolean replayLatest) throws BusException;

    /** {@code unsubscribe}: false for an id this connection does not hold. */
    boolean unsubscribe(String subscriptionId) throws BusException;

    /**
     * {@code publish}: the payload is opaque bytes (at most the envelope limit with the delivery around it);
     * BACKPRESSURE when a bounded subscriber has no room, and then nothing is delivered.
     */
    Replies.Published publish(String topic, byte[] payload, List<Attachment> attachments) throws BusException;

    /**
     * {@code publish} with {@code retain}: false publishes without replacing a {@code latest} topic's
     * retained value (a sequence number is spent and the subscribers get it; a later replay is still
     * the last retained value with its own sequence). On a {@code none} topic it changes nothing.
     */
    Replies.Published publish(String topic, byte[] payload, List<Attachment> attachments, boolean retain)
            throws BusException;

    /** {@code publish} of a text payload (sent as UTF-8). */
    default Replies.Published publish(String topic, String text, List<Attachment> attachments) throws BusException {
        return publish(topic, text == null ? null : text.getBytes(java.nio.charset.StandardCharsets.UTF_8), attachments);
    }

    /** {@code topic.clear}: true when a retained value was released. */
    boolean clear(String topic) throws BusException;

    /** {@code topic.delete}: false for an undeclared topic; CONFLICT while it has subscriptions. */
    boolean delete(String topic) throws BusException;

    /**
     * {@code delivery.consumed}: returns the subscription credits; the count of deliveries newly released (a retired
     * id counts 0).
     */
    long consumed(List<String> deliveryIds) throws BusException;

    /**
     * {@code artifact.allocate}: a writer owner ({@code own-N}) and the staging to write {@code byteLength} bytes
     * into.
     */
    Replies.Allocated allocate(long byteLength, String contentType) throws BusException;

    /**
     * {@code artifact.seal}: the writer becomes the sealed object's hold (same owner id); {@code digest} is the
     * expected SHA-256 hex, or null. OWNER_INVALID for an owner that is no unsealed writer of this artifact here.
     */
    Replies.Sealed seal(long artifactId, long generation, String ownerId, String digest) throws BusException;

    /** {@code artifact.open}: where to map an object this connection owns, relative to the store root. */
    String open(ArtifactRef ref, String ownerId) throws BusException;

    /** {@code artifact.retain}: a new explicit hold ({@code own-N}) while the source owner lives. */
    String retain(ArtifactRef ref, String ownerId) throws BusException;

    /**
     * {@code artifact.release}: drops holds and unsealed writers; the count newly released. A never-issued or
     * wrong-kind id refuses the whole batch.
     */
    long release(List<String> ownerIds) throws BusException;

    /**
     * {@code service.register}: an exclusive registration with a new {@code svc-N} incarnation; CONFLICT while
     * the name is registered.
     */
    Replies.Registered register(String name, int maxQueued, int maxInFlight) throws BusException;

    /** {@code service.unregister}: false unless this connection holds that incarnation. */
    boolean unregister(String name, String serviceIncarnation) throws BusException;

    /**
     * {@code rpc.call}: admission only; an {@link BusMessage.RpcResult} or a {@link BusMessage.CallFailed} follows.
     * {@code expectedIncarnation} (or null) pins the registration the caller means.
     */
    Replies.CallAccepted call(String callId, String target, String expectedIncarnation, String method,
            byte[] payload, List<Attachment> attachments) throws BusException;

    /** {@code rpc.call} with a text payload (sent as UTF-8). */
    default Replies.CallAccepted call(String callId, String target, String expectedIncarnation, String method,
            String text, List<Attachment> attachments) throws BusException {
        return call(callId, target, expectedIncarnation, method,
                text == null ? null : text.getBytes(java.nio.charset.StandardCharsets.UTF_8), attachments);
    }

    /**
     * {@code rpc.reply}: only by the connection the request was delivered to; true when routed to the caller, false
     * for a detached call.
     */
    boolean reply(String callId, String requestDeliveryId, byte[] outcome, List<Attachment> attachments)
            throws BusException;

    /** {@code rpc.reply} with a text outcome (sent as UTF-8). */
    default boolean reply(String callId, String requestDeliveryId, String text, List<Attachment> attachments)
            throws BusException {
        return reply(callId, requestDeliveryId, text == null ? null : text.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                attachments);
    }

    /** {@code rpc.responder.release}: the service is done with a request it will not answer. */
    boolean releaseResponder(String callId, String requestDeliveryId) throws BusException;

    /** {@code rpc.cancel}: cancelled before dispatch, execution unknown, completed, or call gone. */
    Replies.CancelState cancel(String callId) throws BusException;

    /** The next outbound message, or null when nothing may go now. */
    BusMessage poll();

    /** True while a message is waiting to go out. */
    boolean hasOutbound();

    /** Disconnects. */
    void close();
}
