/**
 * MQTT bridge harnesses against a Mosquitto they start ({@link io.spectrum.bench.mqtt.BenchMosquitto}):
 * board-to-subscriber latency through the bridge, the host's clients while the broker is down, and
 * the cost of each MQTT client library. They skip when Mosquitto is not installed; see docs/mqtt.md
 * and docs/benchmarks.md.
 */
package io.spectrum.bench.mqtt;
