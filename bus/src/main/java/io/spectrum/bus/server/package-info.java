/**
 * The host bus server (docs/bus.md): {@link io.spectrum.bus.server.BusServer} serves the bus's
 * state machine ({@code io.spectrum.bus.state}) over links (the Unix socket, TCP, the in-process
 * link), one connection per peer: it decodes each request envelope, runs the command, encodes the
 * reply and pumps each connection's outbound messages, and runs seals off the bus thread.
 * {@link io.spectrum.bus.server.BusHost} is the running bus of {@code spectrum host}: a file store,
 * the state machine, the server and the bus thread, with the in-process connections the host's own
 * clients use. The package depends on the state machine, the store and the protocol; nothing
 * depends on it but the host.
 */
package io.spectrum.bus.server;
