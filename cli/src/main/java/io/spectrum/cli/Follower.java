package io.spectrum.cli;

import io.spectrum.client.Delivery;
import io.spectrum.client.HeldSubscriptions;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.Requests;
import io.spectrum.client.ValueFormat;
import io.spectrum.client.ValueText;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * What {@code sub} and {@code record} share: MQTT-style patterns ({@code /board1/#}), subscriptions
 * that ask for the written vertex's path (docs/extensions.md, "Which child changed") and are held
 * ({@link HeldSubscriptions}), and deliveries turned into samples rendered by the declaration of the
 * vertex that was written. Deliveries are queued by the client's sink and rendered by {@link #next()}
 * outside it, so reading a child's declaration never runs inside the client's own pump.
 *
 * <p>With a {@link Mode} (docs/extensions.md "Delivery modes") the records carry the mode keys, the
 * client announces the extensions (so the append answers the slot's identity, which the consumed
 * message is addressed to), {@link #handled} returns each numbered delivery's credit, and
 * {@link #probe} returns the credits of deliveries lost in transit.
 */
final class Follower {
    /** {@code spectrum.topic} value the followers ask for: the stamp with the written vertex's path. */
    static final int TOPIC = Names.TOPIC_STAMP | Names.TOPIC_WITH_PATH;

    /** One value as a follower sees it: the path written, its value rendered, and the delivery. */
    record Sample(String path, ValueText value, Delivery delivery) { }

    /**
     * The delivery mode asked for: {@code kind} {@link DeliveryMode#LATEST} or {@link DeliveryMode#BOUNDED},
     * {@code maxQueued} / {@code maxInFlight} 0 for "the node's limit" (the key is left out).
     */
    record Mode(int kind, int maxQueued, int maxInFlight) {
        String name() {
            return kind == DeliveryMode.LATEST ? "latest" : "bounded";
        }
    }

    /** What a follower knows of one mode subscription's numbering (per route). */
    private static final class Credits {
        final String pattern;
        /** A delivery came: whether it carried {@code dlv} is then known. */
        boolean seen;
        /** The node sent the first delivery without {@code dlv}: it did not take the mode. */
        boolean plain;
        /** The highest delivery number whose credit was given back (0: none). */
        long consumed;
        /** A delivery was handled since the last {@link #probe}. */
        boolean active;

        Credits(String pattern) {
            this.pattern = pattern;
        }
    }

    private final PeerClient client;
    private final Mode mode;
    private final Map<String, Credits> credits = new HashMap<>();
    private final HeldSubscriptions held;
    private final Map<String, String> routes = new HashMap<>();
    private final Map<String, VertexSchema> schemas = new HashMap<>();
    private final ArrayDeque<Delivery> queue = new ArrayDeque<>();

    Follower(PeerClient client) {
        this(client, null);
    }

    /** A follower asking for {@code mode} on every subscription (null: plain v1 subscriptions). */
    Follower(PeerClient client, Mode mode) {
        this.client = client;
        this.mode = mode;
        this.held = new HeldSubscriptions(client);
        client.onDelivery(queue::add);
        if (mode != null) {
            client.announceExtensions(true); // the append then answers the slot's identity, for consumed
        }
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
     * Whether the vertex {@code pattern} names exists on the node, asked before subscribing (an
     * accepted subscription may itself make the vertex): it holds a value, or has a declaration, or
     * answers its {@code :children[]} (an inner vertex such as a board's mount). Only a definite
     * {@code tr::path::not_found} to all three is "no"; any other answer (a timeout, a refusal) is not
     * taken as absence.
     */
    boolean exists(String pattern) {
        String vertex = vertexOf(pattern);
        Reply value = client.read(vertex);
        if (value.code() != WireError.PATH_NOT_FOUND || client.declaration(vertex) != null) {
            return true;
        }
        return client.read(vertex, Requests.children()).code() != WireError.PATH_NOT_FOUND;
    }

    /**
     * Subscribes {@code pattern} with {@code route} as its reply and delivery route.
     *
     * @throws IllegalArgumentException for a bad pattern or path (a one-line reason)
     */
    Reply follow(String pattern, String route) {
        String vertex = vertexOf(pattern);
        Reply r = mode == null
                ? held.subscribe(vertex, route, DeliveryPolicy.DURABILITY_REQUEST, TOPIC).reply()
                : held.subscribe(vertex, route, record(route, mode)).reply();
        if (r.ok()) {
            routes.put(route, vertex);
            if (mode != null) {
                credits.put(route, new Credits(pattern));
            }
        }
        return r;
    }

    /** The SUBSCRIBER a follower appends with {@code mode}: durability, the stamp with the path, the mode keys. */
    static byte[] record(String route, Mode mode) {
        return Requests.subscriber(route, DeliveryPolicy.DURABILITY_REQUEST, TOPIC, mode.kind(),
                mode.maxQueued(), mode.maxInFlight());
    }

    /**
     * Called once a sample has been handled (printed): gives back the credit of its delivery (the
     * consumed message, cumulative up to its {@code dlv}), one message per handled delivery. Nothing
     * for a plain follower or an unnumbered delivery.
     *
     * @return a one-line notice to show once, when this is a subscription's first delivery and it says
     *     the node did not take the mode (no {@code dlv}: a libtracer v1 node or a NARROW board), or
     *     that it numbers deliveries but did not name the slot; else null
     */
    String handled(Sample x) {
        Delivery d = x.delivery();
        Credits c = credits.get(d.route());
        if (c == null) {
            return null;
        }
        String notice = null;
        if (!c.seen) {
            c.seen = true;
            if (d.dlv() < 0) {
                c.plain = true;
                notice = c.pattern + ": the node did not take --mode " + mode.name() + " (its deliveries carry no "
                        + "delivery number: a plain libtracer v1 node or a board); following it as a plain subscription";
            } else if (!held.knowsSlot(d.route())) {
                notice = c.pattern + ": the node numbers deliveries but did not name the subscription's slot, so no "
                        + "credit can be given back and deliveries stop once the in-flight window is used";
            }
        }
        if (c.plain || d.dlv() < 0) {
            return notice;
        }
        c.active = true;
        c.consumed = d.dlv(); // a re-appended slot numbers from 1 again: follow what the node says
        held.consumed(d.route(), d.dlv()); // lost or refused: the next one (or the probe) repairs it
        return notice;
    }

    /**
     * For each mode subscription that had no delivery since the last probe (and none is waiting to be
     * handled): sends consumed with the highest number handled (idempotent) and reads the node's last
     * delivered number from the answer; when that is higher, the deliveries in between were lost in
     * transit (no redelivery), and their credits are given back too, so the subscription does not
     * stall. The same message repairs a lost consumed.
     *
     * @return one-line notices of lost deliveries (empty when none)
     */
    java.util.List<String> probe() {
        java.util.List<String> notices = new java.util.ArrayList<>();
        for (Map.Entry<String, Credits> e : credits.entrySet()) {
            Credits c = e.getValue();
            boolean quiet = !c.active;
            c.active = false;
            if (!quiet || c.plain || !held.knowsSlot(e.getKey()) || waiting(e.getKey())) {
                continue;
            }
            long last = delivered(held.consumed(e.getKey(), c.consumed));
            long arrived = Math.max(c.consumed, highestWaiting(e.getKey())); // sent before the answer: here now
            if (last > arrived) {
                held.consumed(e.getKey(), last);
                notices.add(c.pattern + ": " + (last - arrived) + (last - arrived == 1 ? " delivery was" : " deliveries were")
                        + " lost in transit (numbers " + (arrived + 1) + ".." + last + "); their credits are given back");
                c.consumed = last;
            }
        }
        return notices;
    }

    private boolean waiting(String route) {
        return highestWaiting(route) >= 0;
    }

    private long highestWaiting(String route) {
        long n = -1;
        for (Delivery d : queue) {
            if (d.srcEmpty() && d.route().equals(route)) {
                n = Math.max(n, d.dlv() < 0 ? 0 : d.dlv());
            }
        }
        return n;
    }

    /** The {@code spectrum.delivered} number of a consumed answer, or -1. */
    private static long delivered(Reply r) {
        byte[] v = r.value();
        if (!r.ok() || v == null) {
            return -1;
        }
        TlvIndex x = new TlvIndex(8, 2);
        return new FrameDecoder().decode(v, 0, v.length, x) == WireError.OK ? DeliveryMode.delivered(x, 0) : -1;
    }

    /**
     * The follower is done: a mode follower clears its slots (a bounded one would otherwise hold
     * values that publishers are refused for until the node reaps it); a plain follower leaves them,
     * as it always did. Returns how many were cleared.
     */
    int leave() {
        return mode == null ? 0 : held.clearAll();
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
