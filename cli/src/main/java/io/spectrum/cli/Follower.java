package io.spectrum.cli;

import io.spectrum.client.Delivery;
import io.spectrum.client.HeldSubscriptions;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.ValueFormat;
import io.spectrum.client.ValueText;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.Names;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * What {@code sub} and {@code record} share: MQTT-style patterns ({@code /board1/#}), subscriptions
 * that ask for the written vertex's path (docs/extensions.md, "Which child changed") and are held
 * ({@link HeldSubscriptions}), and deliveries turned into samples rendered by the declaration of the
 * vertex that was written. Deliveries are queued by the client's sink and rendered by {@link #next()}
 * outside it, so reading a child's declaration never runs inside the client's own pump.
 */
final class Follower {
    /** {@code spectrum.topic} value the followers ask for: the stamp with the written vertex's path. */
    static final int TOPIC = Names.TOPIC_STAMP | Names.TOPIC_WITH_PATH;

    /** One value as a follower sees it: the path written, its value rendered, and the delivery. */
    record Sample(String path, ValueText value, Delivery delivery) { }

    private final PeerClient client;
    private final HeldSubscriptions held;
    private final Map<String, String> routes = new HashMap<>();
    private final Map<String, VertexSchema> schemas = new HashMap<>();
    private final ArrayDeque<Delivery> queue = new ArrayDeque<>();

    Follower(PeerClient client) {
        this.client = client;
        this.held = new HeldSubscriptions(client);
        client.onDelivery(queue::add);
    }

    /**
     * The vertex an MQTT-style pattern subscribes to: {@code /a/b/#} is {@code /a/b} (a subscription
     * to a vertex delivers the vertex and everything below it), {@code /#} is {@code /}, a path without
     * a wildcard is itself.
     *
     * @throws IllegalArgumentException with a one-line reason for {@code #} before the last segment or
     *     any {@code +}
     */
    static String vertexOf(String pattern) {
        String[] segs = pattern.split("/", -1);
        for (int i = 0; i < segs.length; i++) {
            if (segs[i].equals("+")) {
                throw new IllegalArgumentException("'+' (one level) is not supported; subscribe to the parent with '/#' "
                        + "(it delivers every vertex below, each line naming its path)");
            }
            if (segs[i].equals("#") && i != segs.length - 1) {
                throw new IllegalArgumentException("'#' only as the last segment (it means the vertex and everything below)");
            }
        }
        if (pattern.equals("#") || pattern.equals("/#")) {
            return "/";
        }
        return pattern.endsWith("/#") ? pattern.substring(0, pattern.length() - 2) : pattern;
    }

    /** Refuses a bad pattern as a usage error (one line, exit 2) before anything is sent. */
    static void check(picocli.CommandLine cl, java.util.List<String> patterns) {
        for (String p : patterns) {
            try {
                vertexOf(p);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(cl, "bad path '" + p + "': " + e.getMessage());
            }
        }
    }

    /**
     * Subscribes {@code pattern} with {@code route} as its reply and delivery route.
     *
     * @throws IllegalArgumentException for a bad pattern or path (a one-line reason)
     */
    Reply follow(String pattern, String route) {
        Reply r = held.subscribe(vertexOf(pattern), route, DeliveryPolicy.DURABILITY_REQUEST, TOPIC).reply();
        if (r.ok()) {
            routes.put(route, vertexOf(pattern));
        }
        return r;
    }

    /** Re-appends a held subscription whose slot is gone ({@link HeldSubscriptions#verify}). */
    void verify() {
        held.verify();
    }

    /** True when the node answered the last {@link #verify} ({@link HeldSubscriptions#peerAnswered}). */
    boolean peerAnswered() {
        return held.peerAnswered();
    }

    /**
     * The next delivered value, or null when none is queued. Only subscription deliveries (empty src);
     * the path is the written vertex's when the node said it, else the subscribed vertex.
     */
    Sample next() {
        for (Delivery d = queue.poll(); d != null; d = queue.poll()) {
            if (!d.srcEmpty()) {
                continue;
            }
            String path = d.source() != null ? d.source() : routes.getOrDefault(d.route(), d.route());
            if (!schemas.containsKey(path)) {
                schemas.put(path, client.declaration(path)); // read once per path: values render by it
            }
            return new Sample(path, ValueFormat.render(d.value(), schemas.get(path)), d);
        }
        return null;
    }

    /** The declaration {@link #next} rendered {@code path} by (null: none). */
    VertexSchema schema(String path) {
        return schemas.get(path);
    }
}
