package io.spectrum.bus.protocol;

/**
 * A snapshot of the bus's accounting: artifact roots (one per distinct object per queued or
 * unconsumed delivery, explicit hold and retained value), live owners over all connections,
 * sealed objects and bytes in the store, topic entries queued for subscribers, retained
 * artifact bytes, and counts of topics, subscriptions, connections, services and active calls.
 */
public record BusStats(long roots, long owners, long sealedArtifacts, long queued, long storeBytes,
        long retainedBytes, int topics, int subscriptions, int connections, int services, int activeCalls) {
}
