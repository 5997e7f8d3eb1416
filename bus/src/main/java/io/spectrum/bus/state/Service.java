package io.spectrum.bus.state;

import java.util.ArrayDeque;

/** One registration of a service name: its incarnation, owner connection, caps and FIFO of queued calls. */
final class Service {
    final String name;
    final String incarnation;
    final BusConnection owner;
    final int maxQueued;
    final int maxInFlight;
    final ArrayDeque<Call> queue = new ArrayDeque<>();
    /** Calls dispatched to the owner whose reply authority is still held. */
    int inFlight;

    Service(String name, String incarnation, BusConnection owner, int maxQueued, int maxInFlight) {
        this.name = name;
        this.incarnation = incarnation;
        this.owner = owner;
        this.maxQueued = maxQueued;
        this.maxInFlight = maxInFlight;
    }

    boolean ready() {
        return !queue.isEmpty() && inFlight < maxInFlight;
    }
}
