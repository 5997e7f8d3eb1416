package io.spectrum.client.bus;

import io.spectrum.bus.protocol.BusException;
import java.util.List;

/**
 * One topic delivery: its ids, the topic's incarnation and sequence, how many undelivered values
 * were coalesced before it ({@code replaced}), the payload and its artifacts. It holds one credit
 * of its subscription until it is consumed: the bus returns credits only then. Consumed means no
 * remaining use (docs/bus.md, "The delivery guard"): closing the message ({@link #consume()} or
 * {@link #close()}) consumes the delivery only once every artifact {@link #extract extracted} from
 * it is closed too; an explicit hold ({@link Artifact#retain()}) is independent of it.
 */
public final class Message implements AutoCloseable {
    private final BusClient client;
    private final String deliveryId;
    private final String subscriptionId;
    private final String topic;
    private final String topicIncarnation;
    private final long topicSequence;
    private final long replaced;
    private final byte[] payload;
    private final List<Artifact> artifacts;
    private final String stale;
    private final DeliveryGuard guard;
    /** The message's own share has been closed. */
    private boolean closed;

    Message(BusClient client, String deliveryId, String subscriptionId, String topic, String topicIncarnation,
            long topicSequence, long replaced, byte[] payload, List<Artifact> artifacts, String stale) {
        this.stale = stale;
        this.client = client;
        this.deliveryId = deliveryId;
        this.subscriptionId = subscriptionId;
        this.topic = topic;
        this.topicIncarnation = topicIncarnation;
        this.topicSequence = topicSequence;
        this.replaced = replaced;
        this.payload = payload;
        this.artifacts = List.copyOf(artifacts);
        this.guard = new DeliveryGuard(client, deliveryId);
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

    /**
     * Null when the value is current; else why it is not, as the host's node marked it (e.g.
     * {@code publisher gone}: its publisher left; docs/bus.md, "Topics are the node's vertices").
     */
    public String stale() {
        return stale;
    }

    /** A copy of the opaque payload bytes. */
    public byte[] payload() {
        return payload.clone();
    }

    /**
     * The attached artifacts, readable through this delivery while it is not consumed; they hold
     * nothing themselves (use {@link #extract} for one that must outlive the message, or
     * {@link Artifact#retain()} for an independent hold).
     */
    public List<Artifact> artifacts() {
        return artifacts;
    }

    /**
     * The attachment at {@code index} as a handle that holds this delivery (a share of its guard):
     * the delivery is not consumed, and its credit not returned, until this handle is closed too.
     * Each call is a new handle to close.
     *
     * @throws IllegalStateException once the delivery is consumed
     */
    public Artifact extract(int index) {
        Artifact a = artifacts.get(index);
        guard.acquire();
        return Artifact.extracted(a, guard);
    }

    /** {@link #extract(int)} of the attachment named {@code name}. */
    public Artifact extract(String name) {
        for (int i = 0; i < artifacts.size(); i++) {
            if (name.equals(artifacts.get(i).name())) {
                return extract(i);
            }
        }
        throw new IllegalArgumentException("no attachment named " + name + " in " + this);
    }

    /**
     * Says the message is done with. The delivery is consumed now (its credit comes back, its
     * artifacts' delivery roots go) unless an extracted artifact is still open, then when the last
     * one closes. Idempotent.
     *
     * @return the roots released, 0 while an extracted artifact still holds the delivery (or on a repeat)
     */
    public long consume() throws BusException {
        synchronized (this) {
            if (closed) {
                return 0;
            }
            closed = true;
        }
        return guard.drop();
    }

    /** {@link #consume()}. */
    @Override
    public void close() throws BusException {
        consume();
    }

    /** True once the delivery is consumed (the message and every extracted artifact closed). */
    public boolean isConsumed() {
        return guard.consumed();
    }

    @Override
    public String toString() {
        return topic + " #" + topicSequence + " (" + deliveryId + ", replaced " + replaced + ", " + payload.length
                + " B, " + artifacts.size() + " artifacts)";
    }
}
