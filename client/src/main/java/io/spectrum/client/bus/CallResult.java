package io.spectrum.client.bus;

import io.spectrum.bus.protocol.BusException;
import java.util.List;

/**
 * The outcome of a call: the service's domain answer (opaque bytes, as the service sent them) and
 * its artifacts, or the bus's refusal ({@link #failure()}: e.g. ROUTER_LOST when the service's
 * incarnation died mid-call). Consume it when done: the result's delivery holds its artifacts.
 */
public record CallResult(String callId, String deliveryId, String responder, String serviceIncarnation,
        byte[] outcome, List<Artifact> artifacts, BusException failure, BusClient client) {

    /** Returns the result's credit and artifact roots (a failure has none). */
    public long consume() throws BusException {
        return deliveryId == null ? 0 : client.consumed(deliveryId);
    }
}
