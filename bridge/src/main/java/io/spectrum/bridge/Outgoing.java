package io.spectrum.bridge;

/**
 * One message towards the broker: its topic, payload (empty = clear the retained message),
 * retained flag and, for a vertex state, the node's stamp (carried as MQTT 5 user properties
 * {@code seq} and {@code stale}; {@code seq < 0}: unstamped). {@code bornNanos} is when the bridge
 * got the value (for the latency benchmark).
 */
record Outgoing(String topic, byte[] payload, boolean retained, long seq, boolean stale, long bornNanos) {
    static Outgoing state(String topic, byte[] payload, long seq, boolean stale) {
        return new Outgoing(topic, payload, true, seq, stale, System.nanoTime());
    }

    static Outgoing clear(String topic) {
        return new Outgoing(topic, new byte[0], true, -1, false, System.nanoTime());
    }

    static Outgoing event(String topic, byte[] payload) {
        return new Outgoing(topic, payload, false, -1, false, System.nanoTime());
    }
}
