package io.spectrum.host.view;

/**
 * An MQTT bridge's state as the dashboard shows it: which broker, whether it is
 * connected, and its counters. The bridge queues what it cannot publish while the broker is away,
 * up to {@code capacity} messages; a newer state of a topic replaces its unsent older one
 * ({@code coalesced}), and past the bound the oldest is dropped and counted in {@code dropped}.
 *
 * @param broker     the broker's URL as given (never with a password)
 * @param connected  the bridge is connected to the broker now
 * @param queued     messages waiting to be published
 * @param capacity   the queue's bound ({@code --mqtt-queue})
 * @param dropped    messages dropped, oldest first, because the queue was full
 * @param coalesced  unsent states replaced by a newer state of the same topic
 * @param published  messages the broker accepted
 * @param reconnects connections after the first one (each a broker restart or a network loss survived)
 * @param values     values the bridge took from the host
 */
public record BridgeView(String broker, boolean connected, int queued, int capacity, long dropped, long coalesced,
                         long published, long reconnects, long values) {
    /** "connected" or "disconnected". */
    public String state() {
        return connected ? "connected" : "disconnected";
    }
}
