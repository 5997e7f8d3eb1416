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

    public String deliveryId() {
        return deliveryId;
    }

    public String subscriptionId() {
        return subscriptionId;
    }

    public String topic() {
        return topic;
    }

    public String topicIncarnation() {
        return topicIncarnation;
    }

    public long topicSequence() {
        return topicSequence;
    }

    public long replaced() {
        return replaced;
    }

    public byte[] payload() {
        return payload.clone();
    }

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
