package io.spectrum.client.bus;

import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import java.util.List;

/** A call delivered to a service this client serves: reply once, then consume. */
public record Request(String deliveryId, String callId, String caller, String target, String serviceIncarnation,
        String method, byte[] payload, List<Artifact> artifacts, BusClient client) {

    /** Answers the call; false when the bus no longer routes it (the caller cancelled or left). */
    public boolean reply(byte[] outcome, BusFields... attachments) throws BusException {
        return client.reply(this, outcome, attachments);
    }

    /** Says the request's delivery is done with (its artifacts' roots go). */
    public long consume() throws BusException {
        return client.consumed(deliveryId);
    }
}
