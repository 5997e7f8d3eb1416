package io.spectrum.wide.bus;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The byte size of the delivery envelopes the bus would build (seed 001 §4, reference F-19): the
 * JSON text of {@code topic.message}, {@code rpc.request} and {@code rpc.result} with every
 * router-issued id at its longest (64 characters) and every U64 at 20 digits, so a message that
 * fits now still fits whatever ids it is given. Admission refuses a delivery over the envelope
 * limit.
 */
final class Envelopes {
    private static final String ID = "x".repeat(Names.MAX_ID);
    private static final String U64 = "9".repeat(Names.MAX_U64_DIGITS);
    private static final String DIGEST = "0".repeat(64);

    private Envelopes() {
    }

    /** One attachment as a delivery carries it. */
    record Slot(String name, String storeId, String contentType) {
    }

    static int topicMessage(String topic, String payload, List<Slot> slots) {
        String body = "{\"deliveryId\":\"" + ID + "\",\"subscriptionId\":\"" + ID + "\",\"topic\":\"" + topic
                + "\",\"topicIncarnation\":\"" + ID + "\",\"topicSequence\":\"" + U64 + "\",\"replaced\":\"" + U64
                + "\",\"payload\":";
        return envelope("topic.message", body, payload, slots);
    }

    static int rpcRequest(ClientIdentity caller, String target, String method, String payload, List<Slot> slots) {
        String body = "{\"deliveryId\":\"" + ID + "\",\"callId\":\"" + ID + "\",\"caller\":" + identity(caller)
                + ",\"target\":\"" + target + "\",\"serviceIncarnation\":\"" + ID + "\",\"method\":" + string(method)
                + ",\"payload\":";
        return envelope("rpc.request", body, payload, slots);
    }

    static int rpcResult(ClientIdentity responder, String outcome, List<Slot> slots) {
        String body = "{\"deliveryId\":\"" + ID + "\",\"callId\":\"" + ID + "\",\"responder\":" + identity(responder)
                + ",\"serviceIncarnation\":\"" + ID + "\",\"outcome\":";
        return envelope("rpc.result", body, outcome, slots);
    }

    private static int envelope(String op, String bodyHead, String payload, List<Slot> slots) {
        String head = "{\"protocol\":\"flybus\",\"major\":1,\"minor\":0,\"id\":\"" + ID
                + "\",\"replyTo\":null,\"kind\":\"delivery\",\"op\":\"" + op + "\",\"body\":" + bodyHead;
        long n = utf8(head) + utf8(payload) + "},\"attachments\":[".length() + "]}".length();
        for (int i = 0; i < slots.size(); i++) {
            Slot s = slots.get(i);
            String a = "{\"name\":\"" + s.name() + "\",\"ref\":{\"storeId\":" + string(s.storeId()) + ",\"artifactId\":\""
                    + ID + "\",\"generation\":\"" + U64 + "\",\"byteLength\":\"" + U64 + "\",\"contentType\":"
                    + string(s.contentType()) + ",\"digest\":\"" + DIGEST + "\"},\"ownerId\":\"" + ID + "\"}";
            n += utf8(a) + (i > 0 ? 1 : 0);
        }
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    private static String identity(ClientIdentity id) {
        return "{\"clientId\":" + string(id.clientId()) + ",\"clientIncarnation\":\"" + U64 + "\"}";
    }

    /** A JSON string literal's worst-case text (quotes, and every escapable character escaped). */
    private static String string(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append("\\u0000");
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    private static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
