/**
 * The MQTT bridge: {@link io.spectrum.bridge.MqttBridge} follows a node's tree as a client of it
 * (the peer side, one {@code PeerClient}) and publishes each vertex's state to a broker (the
 * broker side, Eclipse Paho, with a bounded coalescing outbox between the two threads), takes
 * writes on {@code …/set} for the paths it is told to, and says its presence with a retained
 * {@code $online} and a last will. {@link io.spectrum.bridge.Topics} owns the path-to-topic mapping,
 * {@link io.spectrum.client.ValueLine} the payload, {@link io.spectrum.bridge.FabricMirror} reads
 * other hosts back. It depends on the client module, never on the host. See docs/mqtt.md.
 */
package io.spectrum.bridge;
