/**
 * {@code spectrum demo}: a host node in this JVM and emulated boards in child JVMs
 * ({@link io.spectrum.cli.demo.ChildJvm}), linked by pseudo-terminal pairs or UDP loopback, with the
 * terminal view and the dashboard ({@link io.spectrum.cli.demo.Demo}). It assembles the host
 * module's {@code HostService} and the board command; it adds no behaviour of its own. See the
 * README and docs/host.md.
 */
package io.spectrum.cli.demo;
