/**
 * Client examples against a board running in the same process: {@link io.spectrum.examples.peer.BoardClient}
 * reads, subscribes and writes with the {@code PeerClient}; {@link io.spectrum.examples.peer.GenerationGuard}
 * shows the {@code [N@G]} guard on a remote subscription's slot. See examples/README.md.
 */
package io.spectrum.examples.peer;
