package io.spectrum.bus.state;

import java.util.ArrayList;
import java.util.List;
import io.spectrum.bus.protocol.ArtifactFiles;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusFrames;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.BusWire;
import io.spectrum.bus.protocol.ClientIdentity;

/**
 * The byte size of the delivery frames the bus would send: the
 * {@code topic.message}, {@code rpc.request} and {@code rpc.result} events as {@link BusWire}
 * spells them and {@link BusFrames} frames them, with every router-issued id and name at its
 * longest, so a message that fits now still fits whatever ids it is given. Admission refuses a
 * delivery over the envelope limit.
 */
final class Envelopes {
    private static final String ID = "x".repeat(Names.MAX_ID);
    private static final String DIGEST = "0".repeat(64);
    /** The longest stale reason a delivery may carry (the node's limit), so a delivery's size is an upper bound. */
    private static final String LONGEST_STALE = "x".repeat(io.spectrum.wire.StaleReason.MAX_BYTES);
    private static final String LOCATION = ArtifactFiles.sealedLocation(Long.MAX_VALUE, Long.MAX_VALUE);

    private Envelopes() {
    }

    /** One attachment as a delivery carries it. */
    record Slot(String name, String storeId, String contentType) {
    }

    static int topicMessage(String topic, byte[] payload, List<Slot> slots) {
        return size(new BusMessage.TopicMessage(ID, ID, topic, ID, Long.MAX_VALUE, Long.MAX_VALUE, payload,
                attachments(slots), LONGEST_STALE));
    }

    static int rpcRequest(ClientIdentity caller, String target, String method, byte[] payload, List<Slot> slots) {
        return size(new BusMessage.RpcRequest(ID, ID, new ClientIdentity(caller.clientId(), Long.MAX_VALUE, false),
                target, ID, method, payload, attachments(slots)));
    }

    static int rpcResult(ClientIdentity responder, byte[] outcome, List<Slot> slots) {
        return size(new BusMessage.RpcResult(ID, ID, new ClientIdentity(responder.clientId(), Long.MAX_VALUE, false), ID,
                outcome, attachments(slots)));
    }

    private static List<Attachment> attachments(List<Slot> slots) {
        List<Attachment> out = new ArrayList<>(slots.size());
        for (Slot s : slots) {
            out.add(new Attachment(s.name(), new ArtifactRef(s.storeId() == null ? ID : s.storeId(), Long.MAX_VALUE,
                    Long.MAX_VALUE, Long.MAX_VALUE, DIGEST), ID));
        }
        return out;
    }

    private static int size(BusMessage m) {
        long n = BusFrames.eventSize(BusWire.kind(m), BusWire.fields(m, r -> LOCATION));
        return (int) Math.min(Integer.MAX_VALUE, n);
    }
}
