/**
 * The libtracer UDP binding: {@link io.spectrum.link.udp.UdpLink} (one datagram is one frame, no
 * framing bytes; a listener that learns peers into a bounded table, or a dialer connected to one
 * peer) and its limits and timers, {@link io.spectrum.link.udp.UdpLinkConfig}. Implements the {@code
 * io.spectrum.link} contract of core-narrow and uses its liveness, frame-shape and counter helpers;
 * depends on nothing else of Spectrum (no node, no WIDE core), so a board and a host run the same
 * class. Sends answer a {@link io.spectrum.wire.WireError} status. See {@code docs/links.md}, "UDP
 * binding".
 */
package io.spectrum.link.udp;
