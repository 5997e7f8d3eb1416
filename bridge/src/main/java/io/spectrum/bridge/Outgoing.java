package io.spectrum.bridge;

/**
 * One message towards the broker: its topic, payload (empty = clear the retained message),
 * retained flag and, for a vertex state, the node's stamp (carried as MQTT 5 user properties
 * {@code seq} and {@code stale}; {@code seq < 0}: unstamped).
 */
record Outgoing(String topic, byte[] payload, boolean retained, long seq, boolean stale) {
    static Outgoing state(String topic, byte[] payload, long seq, boolean stale) {
        return new Outgoing(topic, payload, true, seq, stale);
    }

    static Outgoing clear(String topic) {
        return new Outgoing(topic, new byte[0], true, -1, false);
    }

    static Outgoing event(String topic, byte[] payload) {
        return new Outgoing(topic, payload, false, -1, false);
    }
}
