/**
 * The local stream link for host processes: {@link io.spectrum.link.local.LocalLink} (a Unix domain
 * socket, or TCP for a process on another host, each libtracer v1 frame behind a u32 little-endian
 * length prefix), its limits ({@link io.spectrum.link.local.LocalLinkConfig}), the hello a client
 * opens with ({@link io.spectrum.link.local.LocalHello}) and the closing notice. Implements the
 * {@code io.spectrum.link} contract of core-narrow with per-connection outbound queues per
 * {@code Lane} and reuses its peer-handle and counter helpers; depends on no node and no WIDE-core
 * class. Sends answer a {@link io.spectrum.wire.WireError} status. See {@code docs/links.md}, "Local
 * stream link for host processes", and {@code docs/extensions.md} for the hello's announcement and
 * {@code connection.closing}.
 */
package io.spectrum.link.local;
