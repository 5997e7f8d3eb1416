package io.spectrum.bus.state;

import java.util.ArrayDeque;
import io.spectrum.bus.protocol.SubscriptionMode;

/**
 * One subscription: its connection, topic, mode and caps, the queue of undelivered entries (each
 * holding its roots), the deliveries handed out and not yet consumed ({@code inFlight}), and how
 * many values a latest queue replaced since its previous delivery.
 */
final class Subscription {
    final String id;
    final BusConnection connection;
    final Topic topic;
    final SubscriptionMode mode;
    final int maxQueued;
    final int maxInFlight;
    final ArrayDeque<Topic.Entry> queue = new ArrayDeque<>();
    int inFlight;
    long replacedSinceDelivery;

    Subscription(String id, BusConnection connection, Topic topic, SubscriptionMode mode, int maxQueued, int maxInFlight) {
        this.id = id;
        this.connection = connection;
        this.topic = topic;
        this.mode = mode;
        this.maxQueued = maxQueued;
        this.maxInFlight = maxInFlight;
    }

    boolean latest() {
        return mode == SubscriptionMode.LATEST;
    }

    /** Has a queued entry and a free credit. */
    boolean ready() {
        return !queue.isEmpty() && inFlight < maxInFlight;
    }
}
