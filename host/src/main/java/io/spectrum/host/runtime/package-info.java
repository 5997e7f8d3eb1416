/**
 * The running host: {@link io.spectrum.host.runtime.HostRuntime} runs a WIDE node on its own thread
 * (the only thread that touches it), mounts each board by name, keeps the host's copies of board
 * vertices fed by upstream subscriptions and publishes immutable snapshots for the views;
 * {@link io.spectrum.host.runtime.HostService} adds the board links, client listeners, dashboard
 * and terminal view. It builds on core-wide, the client and runtime modules; other threads reach
 * the node only through submitted tasks. See docs/host.md.
 */
package io.spectrum.host.runtime;
