package io.spectrum.bus.protocol;

import io.spectrum.link.Lane;

import io.spectrum.wire.BusError;
import io.spectrum.wire.Dispatch;

import java.util.List;

/**
 * What the bus hands a connection's transport (deliveries and notices), each on its
 * {@link Lane}. Deliveries carry the recipient's delivery id, which is also the owner id of each
 * of their attachments. Payloads and outcomes are the opaque bytes the sender gave; {@link BusWire} spells each message on the wire.
 */
public sealed interface BusMessage {
    /** The outbound lane this message waits in: control first, then RPC, then topic deliveries. */
    Lane lane();

    /**
     * {@code topic.message}: one subscription's delivery. {@code stale}: null when the value is
     * current, else why it is not (the node's stale reason, e.g. {@code publisher gone}).
     */
    record TopicMessage(String deliveryId, String subscriptionId, String topic, String topicIncarnation,
            long topicSequence, long replaced, byte[] payload, List<Attachment> attachments, String stale)
            implements BusMessage {
        /** A current value's delivery (not stale). */
        public TopicMessage(String deliveryId, String subscriptionId, String topic, String topicIncarnation,
                long topicSequence, long replaced, byte[] payload, List<Attachment> attachments) {
            this(deliveryId, subscriptionId, topic, topicIncarnation, topicSequence, replaced, payload, attachments, null);
        }

        /** The payload read as UTF-8 text. */
        public String payloadText() {
            return new String(payload, java.nio.charset.StandardCharsets.UTF_8);
        }

        /** Topic deliveries travel on the topic lane, the last served. */
        public Lane lane() {
            return Lane.TOPIC;
        }
    }

    /** {@code rpc.request}: a call delivered to its service's connection (now dispatched). */
    record RpcRequest(String deliveryId, String callId, ClientIdentity caller, String target,
            String serviceIncarnation, String method, byte[] payload, List<Attachment> attachments) implements BusMessage {
        /** The payload read as UTF-8 text. */
        public String payloadText() {
            return new String(payload, java.nio.charset.StandardCharsets.UTF_8);
        }

        /** Requests travel on the RPC lane, ahead of topic deliveries. */
        public Lane lane() {
            return Lane.RPC;
        }
    }

    /** {@code rpc.result}: the responder's outcome, delivered to the caller. */
    record RpcResult(String deliveryId, String callId, ClientIdentity responder, String serviceIncarnation,
            byte[] outcome, List<Attachment> attachments) implements BusMessage {
        /** The outcome read as UTF-8 text. */
        public String outcomeText() {
            return new String(outcome, java.nio.charset.StandardCharsets.UTF_8);
        }

        /** Results travel on the RPC lane, ahead of topic deliveries. */
        public Lane lane() {
            return Lane.RPC;
        }
    }

    /** {@code subscription.closed}: the bus ended a subscription ({@code router-stopping}). */
    record SubscriptionClosed(String subscriptionId, String topic, String reason) implements BusMessage {
        /** Control notices go first, on the control lane. */
        public Lane lane() {
            return Lane.CONTROL;
        }
    }

    /** {@code connection.closing}: the bus is closing this connection; nothing follows. */
    record ConnectionClosing(BusError code, String message) implements BusMessage {
        /** Control notices go first, on the control lane. */
        public Lane lane() {
            return Lane.CONTROL;
        }
    }

    /**
     * {@code route.removed}: a service this connection has open calls to lost its registration
     * ({@code unregistered}) or its connection ({@code connection-lost}); the incarnation named
     * is gone for good.
     */
    record RouteRemoved(String service, String serviceIncarnation, String reason) implements BusMessage {
        /** Control notices go first, on the control lane. */
        public Lane lane() {
            return Lane.CONTROL;
        }
    }

    /**
     * {@code call.failed}: a call that will get no result. {@code dispatch} says whether its
     * handler may have run ({@link Dispatch#UNKNOWN} once the request was delivered);
     * {@code serviceIncarnation} is the registration the call was admitted to (the one lost when
     * the service's connection died).
     */
    record CallFailed(String callId, String serviceIncarnation, BusError code, Dispatch dispatch, String message)
            implements BusMessage {
        /** Control notices go first, on the control lane. */
        public Lane lane() {
            return Lane.CONTROL;
        }
    }
}
