package io.spectrum.bus.state;

import io.spectrum.bus.protocol.SubscriptionMode;
import io.spectrum.wide.ModeQueue;

/**
 * One subscription: its connection, topic and mode, and its {@link ModeQueue} (the delivery-mode
 * rule the host's node uses too): the undelivered entries (each holding its roots), the credits of
 * the deliveries handed out and not yet consumed, and how many values a latest queue replaced since
 * its previous delivery.
 */
final class Subscription {
    final String id;
    final BusConnection connection;
    final Topic topic;
    final ModeQueue<Topic.Entry> mode;

    Subscription(String id, BusConnection connection, Topic topic, SubscriptionMode mode, int maxQueued, int maxInFlight) {
        this.id = id;
        this.connection = connection;
        this.topic = topic;
        this.mode = new ModeQueue<>(mode == SubscriptionMode.LATEST, maxQueued, maxInFlight);
    }

    boolean latest() {
        return mode.latest();
    }

    /** Has a queued entry and a free credit. */
    boolean ready() {
        return mode.ready();
    }
}
