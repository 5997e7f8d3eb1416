/**
 * The host bus for an application: {@link io.spectrum.client.bus.BusClient}, one thread-safe
 * connection over the bus's Unix socket, TCP or in-process link, with topics and subscriptions
 * ({@link io.spectrum.client.bus.BusSubscription}, {@link io.spectrum.client.bus.Message}), artifacts
 * mapped by reference ({@link io.spectrum.client.bus.Artifact},
 * {@link io.spectrum.client.bus.ArtifactWriter}) and RPC. The envelope's frames, fields and typed
 * errors are the bus protocol's ({@code io.spectrum.bus.protocol}, module bus-protocol); this package
 * only sends commands and waits for their replies, and knows nothing of the bus server. See
 * docs/bus.md.
 */
package io.spectrum.client.bus;
