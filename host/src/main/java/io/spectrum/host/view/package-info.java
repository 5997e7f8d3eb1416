/**
 * What an operator sees of a host, as immutable values and read-only interfaces:
 * {@link io.spectrum.host.view.HostModel} (the source a view reads and writes through),
 * {@link io.spectrum.host.view.HostSnapshot} with its vertex, subscriber and link views, the
 * other hosts read back from a broker ({@link io.spectrum.host.view.RemoteView}) and the terminal
 * printer. It depends only on core-narrow's wire and node API types, so the dashboard and the
 * terminal never see the node itself. See docs/host.md, "What the host shows".
 */
package io.spectrum.host.view;
