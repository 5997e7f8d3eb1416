package io.spectrum.client.bus;

import io.spectrum.bus.protocol.BusException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** One subscription: its id and topic incarnation, and the deliveries that arrived for it, in order. */
public final class BusSubscription {
    private final BusClient client;
    private final String id;
    private final String topic;
    /** Null until the subscribe's reply names it (a replay can arrive, and make this handle, first). */
    volatile String topicIncarnation;
    final LinkedBlockingQueue<Message> inbox = new LinkedBlockingQueue<>();
    volatile String closedReason;

    BusSubscription(BusClient client, String id, String topic, String topicIncarnation) {
        this.client = client;
        this.id = id;
        this.topic = topic;
        this.topicIncarnation = topicIncarnation;
    }

    /** The subscription id ({@code sub-N}) the bus gave it. */
    public String id() {
        return id;
    }

    /** The topic subscribed to. */
    public String topic() {
        return topic;
    }

    /** The topic's incarnation, or null for the moment a replay arrives before the subscribe's reply. */
    public String topicIncarnation() {
        return topicIncarnation;
    }

    /** The next delivery, waiting up to {@code timeoutMillis}; null when none came. */
    public Message next(long timeoutMillis) throws InterruptedException {
        return inbox.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** Why the bus closed it ({@code router-stopping}), or null while open. */
    public String closedReason() {
        return closedReason;
    }

    /** Ends it: undelivered messages are discarded; delivered ones stay valid until consumed. */
    public boolean unsubscribe() throws BusException {
        return client.unsubscribe(id);
    }
}
