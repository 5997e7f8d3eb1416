package io.spectrum.wide.bus;

import java.util.List;

/**
 * One connection's operations on the host bus, the whole Flybus profile from one Java API: what
 * {@link BusConnection} does on the bus's own thread, and what a remote caller does through the
 * frames of docs/bus.md. Every refusal is a {@link BusException} with its typed code.
 */
public interface BusSession {
    ClientIdentity identity();

    /** False once disconnected, shut down or closed for an overflowing control lane. */
    boolean isOpen();

    Replies.Declared declare(String name, Retention retained) throws BusException;

    /** {@code topic.declare} retaining the latest value. */
    default Replies.Declared declare(String name) throws BusException {
        return declare(name, Retention.LATEST);
    }

    Replies.Subscribed subscribe(String topic, SubscriptionMode mode, int maxQueued, int maxInFlight,
            boolean replayLatest) throws BusException;

    boolean unsubscribe(String subscriptionId) throws BusException;

    Replies.Published publish(String topic, byte[] payload, List<Attachment> attachments) throws BusException;

    /** {@code publish} of a text payload (sent as UTF-8). */
    default Replies.Published publish(String topic, String text, List<Attachment> attachments) throws BusException {
        return publish(topic, text == null ? null : text.getBytes(java.nio.charset.StandardCharsets.UTF_8), attachments);
    }

    boolean clear(String topic) throws BusException;

    boolean delete(String topic) throws BusException;

    long consumed(List<String> deliveryIds) throws BusException;

    Replies.Allocated allocate(long byteLength, String contentType) throws BusException;

    Replies.Sealed seal(long artifactId, long generation, String ownerId, String digest) throws BusException;

    String open(ArtifactRef ref, String ownerId) throws BusException;

    String retain(ArtifactRef ref, String ownerId) throws BusException;

    long release(List<String> ownerIds) throws BusException;

    Replies.Registered register(String name, int maxQueued, int maxInFlight) throws BusException;

    boolean unregister(String name, String serviceIncarnation) throws BusException;

    Replies.CallAccepted call(String callId, String target, String expectedIncarnation, String method,
            byte[] payload, List<Attachment> attachments) throws BusException;

    /** {@code rpc.call} with a text payload (sent as UTF-8). */
    default Replies.CallAccepted call(String callId, String target, String expectedIncarnation, String method,
            String text, List<Attachment> attachments) throws BusException {
        return call(callId, target, expectedIncarnation, method,
                text == null ? null : text.getBytes(java.nio.charset.StandardCharsets.UTF_8), attachments);
    }

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

    Replies.CancelState cancel(String callId) throws BusException;

    /** The next outbound message, or null when nothing may go now. */
    BusMessage poll();

    /** True while a message is waiting to go out. */
    boolean hasOutbound();

    /** Disconnects. */
    void close();
}
