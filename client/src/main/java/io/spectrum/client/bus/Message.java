package io.spectrum.client.bus;

import io.spectrum.wide.bus.BusException;
import java.util.List;

/**
 * One topic delivery: its ids, the topic's incarnation and sequence, how many undelivered values
 * were coalesced before it ({@code replaced}), the payload and its artifacts. It holds one credit
 * of its subscription until {@link #consume()}: the bus returns credits only then.
 */
public final class Message {
    private final BusClient client;
    private final String deliveryId;
    private final String subscriptionId;
    private final String topic;
    private final String topicIncarnation;
    private final long topicSequence;
    private final long replaced;
    private final byte[] payload;
    private final List<Artifact> artifacts;

    Message(BusClient client, String deliveryId, String subscriptionId, String topic, String topicIncarnation,
            long topicSequence, long replaced, byte[] payload, List<Artifact> artifacts) {
        this.client = client;
        this.deliveryId = deliveryId;
        this.subscriptionId = subscriptionId;
        this.topic = topic;
        this.topicIncarnation = topicIncarnation;
        this.topicSequence = topicSequence;
        this.replaced = replaced;
        this.payload = payload;
        this.artifacts = List.copyOf(artifacts);
    }

    /** The delivery id ({@code dlv-N}), also the owner id of its artifacts until consumed. */
    public String deliveryId() {
        return deliveryId;
    }

    /** The subscription that received it. */
    public String subscriptionId() {
        return subscriptionId;
    }

    /** The topic it was published to. */
    public String topic() {
        return topic;
    }

    /** The topic's incarnation: a deleted and redeclared topic has a new one. */
    public String topicIncarnation() {
        return topicIncarnation;
    }

    /** The topic's sequence number of this publish, increasing per incarnation. */
    public long topicSequence() {
        return topicSequence;
    }

    /** Undelivered values coalesced before this one (latest mode), 0 in bounded mode. */
    public long replaced() {
        return replaced;
    }

    /** A copy of the opaque payload bytes. */
    public byte[] payload() {
        return payload.clone();
    }

    /** The attached artifacts, readable through this delivery until it is consumed. */
    public List<Artifact> artifacts() {
        return artifacts;
    }

    /** Says this delivery is done with (its credit comes back; its artifacts' delivery roots go). */
    public long consume() throws BusException {
        return client.consumed(deliveryId);
    }

    @Override
    public String toString() {
        return topic + " #" + topicSequence + " (" + deliveryId + ", replaced " + replaced + ", " + payload.length
                + " B, " + artifacts.size() + " artifacts)";
    }
}
