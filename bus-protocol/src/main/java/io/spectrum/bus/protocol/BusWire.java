package io.spectrum.bus.protocol;

import io.spectrum.wire.BusError;
import io.spectrum.wire.Dispatch;
import io.spectrum.wire.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The one spelling of the bus's records as {@link BusFields} (docs/bus.md): artifact refs and
 * attachments, each outbound {@link BusMessage} as an event, and the stats. The bus server encodes
 * with it and sizes deliveries with it (admission's envelope limit), and the client decodes with it.
 */
public final class BusWire {
    private BusWire() {
    }

    /** The five fields of an artifact ref as one record (storeId, artifactId, generation, length, digest). */
    public static BusFields ref(ArtifactRef r) {
        return BusFields.of().put("storeId", r.storeId()).put("artifactId", r.artifactId())
                .put("generation", r.generation()).put("length", r.length()).put("digest", r.digest());
    }

    /** Reads an artifact ref record; INVALID_ENVELOPE for a missing, malformed or unknown field. */
    public static ArtifactRef ref(BusFields f) throws BusException {
        f.allowOnly("storeId", "artifactId", "generation", "length", "digest");
        return new ArtifactRef(f.string("storeId"), f.u64("artifactId"), f.u64("generation"), f.u64("length"),
                f.string("digest"));
    }

    /**
     * An attachment of a request: {@code {name, ref, ownerId}} for a sealed artifact the sender
     * holds, or {@code {name, ownerId}} naming the sender's own unsealed writer (sealed on send).
     */
    public static BusFields attachment(String name, ArtifactRef ref, String ownerId) {
        BusFields a = BusFields.of();
        if (name != null) {
            a.put("name", name);
        }
        if (ref != null) {
            a.putRecord("ref", ref(ref));
        }
        return ownerId == null ? a : a.put("ownerId", ownerId);
    }

    /** The attachments of a request. */
    public static List<Attachment> attachments(BusFields f) throws BusException {
        List<Attachment> out = new ArrayList<>();
        for (BusFields a : f.recordsOrEmpty("attachments")) {
            a.allowOnly("name", "ref", "ownerId");
            out.add(new Attachment(a.string("name", null), a.has("ref") ? ref(a.record("ref")) : null,
                    a.string("ownerId")));
        }
        return out;
    }

    /** The event kind of an outbound message ({@code topic.message}, …). */
    public static String kind(BusMessage m) {
        if (m instanceof BusMessage.TopicMessage) {
            return "topic.message";
        }
        if (m instanceof BusMessage.RpcRequest) {
            return "rpc.request";
        }
        if (m instanceof BusMessage.RpcResult) {
            return "rpc.result";
        }
        if (m instanceof BusMessage.SubscriptionClosed) {
            return "subscription.closed";
        }
        if (m instanceof BusMessage.ConnectionClosing) {
            return "connection.closing";
        }
        if (m instanceof BusMessage.RouteRemoved) {
            return "route.removed";
        }
        return "call.failed";
    }

    /**
     * The fields of an outbound message. Each delivered attachment carries where its recipient
     * maps it ({@code readLocation}, from {@code locate}; the 2026-10-01 amendment).
     */
    public static BusFields fields(BusMessage m, Function<ArtifactRef, String> locate) {
        if (m instanceof BusMessage.TopicMessage t) {
            BusFields f = BusFields.of().put("deliveryId", t.deliveryId()).put("subscriptionId", t.subscriptionId())
                    .put("topic", t.topic()).put("topicIncarnation", t.topicIncarnation())
                    .put("topicSequence", t.topicSequence()).put("replaced", t.replaced())
                    .putBytes("payload", t.payload());
            if (t.stale() != null) {
                f.put("stale", t.stale()); // only on a value that is not current: a current one has no such key
            }
            return delivered(f, t.attachments(), locate);
        }
        if (m instanceof BusMessage.RpcRequest r) {
            return delivered(BusFields.of().put("deliveryId", r.deliveryId()).put("callId", r.callId())
                    .put("caller", r.caller().clientId()).put("callerIncarnation", r.caller().incarnation())
                    .put("target", r.target()).put("serviceIncarnation", r.serviceIncarnation())
                    .put("method", r.method()).putBytes("payload", r.payload()), r.attachments(), locate);
        }
        if (m instanceof BusMessage.RpcResult r) {
            return delivered(BusFields.of().put("deliveryId", r.deliveryId()).put("callId", r.callId())
                    .put("responder", r.responder().clientId()).put("responderIncarnation", r.responder().incarnation())
                    .put("serviceIncarnation", r.serviceIncarnation()).putBytes("outcome", r.outcome()),
                    r.attachments(), locate);
        }
        if (m instanceof BusMessage.SubscriptionClosed s) {
            return BusFields.of().put("subscriptionId", s.subscriptionId()).put("topic", s.topic())
                    .put("reason", s.reason());
        }
        if (m instanceof BusMessage.ConnectionClosing c) {
            return BusFields.of().put("code", c.code().wireName()).put("message", c.message());
        }
        if (m instanceof BusMessage.RouteRemoved r) {
            return BusFields.of().put("service", r.service()).put("serviceIncarnation", r.serviceIncarnation())
                    .put("reason", r.reason());
        }
        BusMessage.CallFailed f = (BusMessage.CallFailed) m;
        BusFields out = BusFields.of().put("callId", f.callId()).put("code", f.code().wireName())
                .put("dispatch", f.dispatch().wireName()).put("message", f.message());
        return f.serviceIncarnation() == null ? out : out.put("serviceIncarnation", f.serviceIncarnation());
    }

    private static BusFields delivered(BusFields to, List<Attachment> list, Function<ArtifactRef, String> locate) {
        List<BusFields> out = new ArrayList<>(list.size());
        for (Attachment a : list) {
            BusFields r = attachment(a.name(), a.ref(), a.ownerId());
            String where = locate.apply(a.ref());
            if (where != null) {
                r.put("readLocation", where);
            }
            out.add(r);
        }
        return to.putRecords("attachments", out);
    }

    /** The bus's counters as reply fields. */
    public static BusFields stats(BusStats s) {
        return BusFields.of().put("roots", s.roots()).put("owners", s.owners()).put("sealedArtifacts", s.sealedArtifacts())
                .put("queued", s.queued()).put("storeBytes", s.storeBytes()).put("retainedBytes", s.retainedBytes())
                .put("topics", s.topics()).put("subscriptions", s.subscriptions()).put("connections", s.connections())
                .put("services", s.services()).put("activeCalls", s.activeCalls());
    }

    /** The error code a notice names, or null. */
    public static BusError code(BusFields f) throws BusException {
        return BusError.byWireName(f.string("code"));
    }

    /**
     * The outbound message an event frame carries: the inverse of {@link #fields} (a remote
     * caller's view of what the bus handed it).
     *
     * @throws BusException INVALID_ENVELOPE for an unknown kind or a malformed event
     */
    public static BusMessage message(String kind, BusFields f) throws BusException {
        switch (String.valueOf(kind)) {
            case "topic.message":
                return new BusMessage.TopicMessage(f.string("deliveryId"), f.string("subscriptionId"), f.string("topic"),
                        f.string("topicIncarnation"), f.u64("topicSequence"), f.u64("replaced"), f.bytes("payload"),
                        delivered(f), f.string("stale", null));
            case "rpc.request":
                return new BusMessage.RpcRequest(f.string("deliveryId"), f.string("callId"),
                        identity(f.string("caller"), f.u64("callerIncarnation")), f.string("target"),
                        f.string("serviceIncarnation"), f.string("method"), f.bytes("payload"), delivered(f));
            case "rpc.result":
                return new BusMessage.RpcResult(f.string("deliveryId"), f.string("callId"),
                        identity(f.string("responder"), f.u64("responderIncarnation")), f.string("serviceIncarnation"),
                        f.bytes("outcome"), delivered(f));
            case "subscription.closed":
                return new BusMessage.SubscriptionClosed(f.string("subscriptionId"), f.string("topic"), f.string("reason"));
            case "connection.closing":
                return new BusMessage.ConnectionClosing(known(f.string("code")), f.string("message"));
            case "route.removed":
                return new BusMessage.RouteRemoved(f.string("service"), f.string("serviceIncarnation"), f.string("reason"));
            case "call.failed": {
                Dispatch d = Dispatch.byWireName(f.string("dispatch"));
                if (d == null) {
                    throw new BusException(BusError.INVALID_ENVELOPE, "unknown dispatch state");
                }
                return new BusMessage.CallFailed(f.string("callId"), f.string("serviceIncarnation", null),
                        known(f.string("code")), d, f.string("message"));
            }
            default:
                throw new BusException(BusError.INVALID_ENVELOPE, "no bus event '" + kind + "'");
        }
    }

    private static BusError known(String code) throws BusException {
        BusError e = BusError.byWireName(code);
        if (e == null) {
            throw new BusException(BusError.INVALID_ENVELOPE, "unknown error code " + code);
        }
        return e;
    }

    private static ClientIdentity identity(String id, long incarnation) {
        return new ClientIdentity(id, incarnation, Names.isAnonymous(id));
    }

    /** The attachments of a delivery (each with its readLocation, which the record does not keep). */
    private static List<Attachment> delivered(BusFields f) throws BusException {
        List<Attachment> out = new ArrayList<>();
        for (BusFields a : f.recordsOrEmpty("attachments")) {
            a.allowOnly("name", "ref", "ownerId", "readLocation");
            out.add(new Attachment(a.string("name", null), ref(a.record("ref")), a.string("ownerId")));
        }
        return List.copyOf(out);
    }

}
