/**
 * The host bus's protocol (docs/bus.md, "Envelope"): what the bus server and every client
 * share, and nothing of either. {@link io.spectrum.bus.protocol.BusFrames} frames an envelope (a
 * command, its reply, an event) as libtracer TLVs and {@link io.spectrum.bus.protocol.BusFields}
 * holds its typed fields; {@link io.spectrum.bus.protocol.BusWire} is the one spelling of the bus's
 * records as fields (artifact refs, attachments, each {@link io.spectrum.bus.protocol.BusMessage}
 * event, the stats); {@link io.spectrum.bus.protocol.BusException} is a typed refusal (a
 * {@link io.spectrum.wire.BusError} code and its {@link io.spectrum.wire.Dispatch} state).
 * {@link io.spectrum.bus.protocol.ArtifactRef} names a sealed artifact and
 * {@link io.spectrum.bus.protocol.ArtifactFiles} turns a store-issued location into a file safely,
 * for the store and for a client mapping it. {@link io.spectrum.bus.protocol.BusLimits} holds the
 * bus's bounds, whose frame size both ends size their links by.
 *
 * <p>The bus's error codes and dispatch states are the wire's ({@code io.spectrum.wire}); this
 * package needs collections and exceptions, which the NARROW core's wire package does not allow, so
 * it is a module of its own (bus-protocol) that the server (bus) and the client depend on.
 */
package io.spectrum.bus.protocol;
