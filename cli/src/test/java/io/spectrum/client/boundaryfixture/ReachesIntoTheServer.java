package io.spectrum.client.boundaryfixture;

import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.state.HostBus;
import io.spectrum.wide.AnonymousIds;
import io.spectrum.wide.Grants;

/**
 * A "client" class that reaches past the bus protocol into the bus server and the WIDE core: the
 * negative control of {@code ClientBoundaryTest} (a client names the protocol, never the server).
 */
public final class ReachesIntoTheServer {
    private ReachesIntoTheServer() {
    }

    /** Decides an id's grants itself, as only the bus server may. */
    public static Grants grantsFor(String id) {
        return AnonymousIds.nameAllowed(id) ? Grants.open() : null;
    }

    /** Holds the bus's own state. */
    public static boolean holds(HostBus bus) {
        return bus != null;
    }

    /** Uses the protocol too, which is allowed. */
    public static BusFields hello() {
        return BusFields.of();
    }
}
