package io.spectrum.client.boundaryfixture;

import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusWire;
import io.spectrum.bus.protocol.ClientIdentity;
import io.spectrum.wire.BusError;

/** A client class that uses only the bus protocol and the wire: the positive control of {@code ClientBoundaryTest}. */
public final class SpeaksTheProtocol {
    private SpeaksTheProtocol() {
    }

    /** Reads an error code from a notice, as BusClient does. */
    public static BusError code(BusFields notice) throws BusException {
        return BusWire.code(notice);
    }

    /** A remote caller as the protocol spells it. */
    public static ClientIdentity caller(String id) {
        return new ClientIdentity(id, 1, false);
    }
}
