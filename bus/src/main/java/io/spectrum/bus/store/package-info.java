/**
 * The host bus's artifact store (docs/bus.md, "Artifacts"): where the bytes of artifacts live.
 * {@link io.spectrum.bus.store.ArtifactStore} is what the bus's state machine asks of a store
 * (allocate a staging, seal it into an immutable object, collect it when its last root goes);
 * {@link io.spectrum.bus.store.FileArtifactStore} keeps them as files under one root (staging
 * files a writer maps, sealed objects a reader maps), made from a
 * {@link io.spectrum.bus.store.StoreConfig}; a {@link io.spectrum.bus.store.SealJob} is one seal's
 * copy and hash, run off the bus thread. The store counts bytes, never owners: who holds an object
 * is the state machine's ({@code io.spectrum.bus.state}), which this package does not know.
 */
package io.spectrum.bus.store;
