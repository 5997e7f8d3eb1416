package io.spectrum.client;

import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.Names;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one follower of a peer: what the CLI's {@code sub} and {@code record} and the MQTT bridge's
 * peer side share. MQTT-style patterns ({@code /board1/#}); subscriptions that ask for the node's
 * stamp and the written vertex's path (docs/extensions.md, "Which child changed") and are held
 * ({@link HeldSubscriptions}: {@link #verify} re-appends a slot the node lost, checking it with the
 * generation guard when its identity is known, and then forgets the peer's declarations, which a
 * restarted peer may have changed); deliveries turned into samples rendered by the declaration of
 * the vertex that was written, a stale one always with a reason ({@link Sample#reason}). Subscription
 * deliveries are queued by the client's sink (each with a copy of its value, not of its frame:
 * {@link Delivery#detachValue}, as they are kept past its call) and rendered by
 * {@link #next()} outside it, so reading a child's declaration never runs inside the client's own
 * pump. Single-threaded, on the client's thread.
 *
 * <p>With a {@link Mode} (docs/extensions.md "Delivery modes") the records carry the mode keys, the
 * client announces the extensions (so the append answers the slot's identity, which the consumed
 * message is addressed to), {@link #handled} returns each numbered delivery's credit, and
 * {@link #probe} returns the credits of deliveries lost in transit.
 *
 * <p>A subscription the node dropped is never lost in silence: {@link #next} first restores the held
 * subscriptions when the client was not polled past its {@link PeerClient#pollGapLimit} (the node
 * reaps a peer it has not heard from) or a slot answered as unknown
 * ({@link HeldSubscriptions#restoreIfLost}), and each one found dropped is reported by {@link #gaps}:
 * the values published in between were missed, and what the application holds from before is stale
 * ({@link Gap#reason}) until the next delivery.
 */
public final class Follower {
    /** {@code spectrum.topic} value the followers ask for: the stamp with the written vertex's path. */
    public static final int TOPIC = Names.TOPIC_STAMP | Names.TOPIC_WITH_PATH;

    /** The reason of a value the node delivered stamped stale when its stamp carries none (a node that predates reasons). */
    public static final String STALE_AT_NODE =
            "the node marks it stale: its publisher went away (behind a host: the board's link is down)";

    /**
     * One value as a follower sees it: the path written, its value rendered by that vertex's
     * declaration, and the delivery.
     *
     * @param path     the vertex that was written (the subscribed vertex when the node did not say)
     * @param value    the delivered value rendered ({@link ValueFormat})
     * @param delivery the delivery as received, without its frame (detached: it may be kept)
     */
    public record Sample(String path, ValueText value, Delivery delivery) {
        /** Whether the node stamped the value stale (a value without a stamp is not known to be stale). */
        public boolean stale() {
            return delivery.stamped() && delivery.stale();
        }

        /** Why a stale value is not current: the stamp's reason, else {@link #STALE_AT_NODE}; null when not stale. */
        public String reason() {
            return !stale() ? null : delivery.reason() != null ? delivery.reason() : STALE_AT_NODE;
        }
    }

    /**
     * The delivery mode asked for: {@code kind} {@link DeliveryMode#LATEST} or {@link DeliveryMode#BOUNDED},
     * {@code maxQueued} / {@code maxInFlight} 0 for "the node's limit" (the key is left out).
     *
     * @param kind        {@link DeliveryMode#LATEST} or {@link DeliveryMode#BOUNDED}
     * @param maxQueued   values the node holds undelivered (bounded), 0: the node's limit
     * @param maxInFlight values sent and not yet handled, 0: the node's limit
     */
    public record Mode(int kind, int maxQueued, int maxInFlight) {
        /** "latest" or "bounded", as {@code --mode} spells it. */
        public String name() {
            return kind == DeliveryMode.LATEST ? "latest" : "bounded";
        }
    }

    /**
     * A subscription the node dropped and the follower appended again ({@link HeldSubscriptions.Lost}):
     * values published at {@code vertex} in between were missed; a value held from before is stale,
     * with {@link #reason}, until the next delivery.
     *
     * @param pattern the pattern followed
     * @param vertex  the vertex it subscribes to
     * @param lost    what the holder found
     */
    public record Gap(String pattern, String vertex, HeldSubscriptions.Lost lost) {
        /** The stale reason of a value held from before the gap: the subscription feeding it lost its slot. */
        public String reason() {
            return StaleReason.NOT_FOLLOWED;
        }

        /** One line for a person: the pattern and what happened. */
        public String notice() {
            return pattern + ": " + lost.text();
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
    private final Map<String, String> patterns = new HashMap<>();
    private final ArrayDeque<Delivery> queue = new ArrayDeque<>();
    /** Deliveries queued from a slot the node has since dropped: their numbers are not the new slot's. */
    private final Set<Delivery> beforeRestore = Collections.newSetFromMap(new IdentityHashMap<>());

    /** A follower of plain v1 subscriptions; it takes over {@code client}'s deliveries ({@link PeerClient#onDelivery}). */
    public Follower(PeerClient client) {
        this(client, null);
    }

    /** A follower asking for {@code mode} on every subscription (null: plain v1 subscriptions). */
    public Follower(PeerClient client, Mode mode) {
        this.client = client;
        this.mode = mode;
        this.held = new HeldSubscriptions(client);
        client.onDelivery(d -> { // rendered later, outside the sink: its value is kept past the call, not its frame
            if (d.srcEmpty()) { // a subscription delivery: the only kind next() shows
                queue.add(d.detachValue());
            }
        });
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
    public static String vertexOf(String pattern) {
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

    /**
     * Whether the vertex {@code pattern} names exists on the node, asked before subscribing (an
     * accepted subscription may itself make the vertex): it holds a value, or has a declaration, or
     * answers its {@code :children[]} (an inner vertex such as a board's mount). Only a definite
     * {@code tr::path::not_found} to all three is "no"; any other answer (a timeout, a refusal) is not
     * taken as absence.
     */
    public boolean exists(String pattern) {
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
    public Reply follow(String pattern, String route) {
        String vertex = vertexOf(pattern);
        Reply r = mode == null
                ? held.subscribe(vertex, route, DeliveryPolicy.DURABILITY_REQUEST, TOPIC).reply()
                : held.subscribe(vertex, route, record(route, mode)).reply();
        if (r.ok()) {
            routes.put(route, vertex);
            patterns.put(route, pattern);
            if (mode != null) {
                credits.put(route, new Credits(pattern));
            }
        }
        return r;
    }

    /** The SUBSCRIBER a follower appends with {@code mode}: durability, the stamp with the path, the mode keys. */
    public static byte[] record(String route, Mode mode) {
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
    public String handled(Sample x) {
        Delivery d = x.delivery();
        Credits c = credits.get(d.route());
        if (c == null || beforeRestore.remove(d)) {
            return null; // no mode, or the dropped slot's delivery: its credit is not the new slot's to return
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
    public List<String> probe() {
        List<String> notices = new ArrayList<>();
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
            if (d.route().equals(route) && !beforeRestore.contains(d)) {
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
    public int leave() {
        return mode == null ? 0 : held.clearAll();
    }

    /**
     * Re-appends a held subscription whose slot is gone ({@link HeldSubscriptions#verify}); when one
     * was found gone and admitted again (the peer restarted, or evicted it), the peer's declarations
     * are forgotten and read again on their next use, since a restarted peer may declare differently.
     *
     * @return how many were found gone and admitted again
     */
    public int verify() {
        return check(false);
    }

    /**
     * Checks the held subscriptions (always, or only when {@link HeldSubscriptions#peerStateLost});
     * forgets the declarations when a slot was found gone, and for each mode slot appended again
     * restarts its numbering and sets apart the deliveries queued from the dropped slot.
     */
    private int check(boolean onlyIfLost) {
        if (onlyIfLost && !held.peerStateLost()) {
            return 0;
        }
        List<Delivery> queued = new ArrayList<>(queue); // before the appends: whatever the new slots send comes after
        int restored = held.verify();
        if (restored > 0) {
            client.forgetDeclarations();
        }
        for (HeldSubscriptions.Lost l : held.lastFound()) {
            Credits c = credits.get(l.route());
            if (c == null || !l.resubscribed()) {
                continue;
            }
            c.consumed = 0; // a re-appended slot numbers from 1 again
            for (Delivery d : queued) {
                if (d.route().equals(l.route())) {
                    beforeRestore.add(d);
                }
            }
        }
        return restored;
    }

    /**
     * The subscriptions found dropped at the node and appended again since the last call (each told
     * once; restored by {@link #next} after a gap in polling, or by {@link #verify}).
     */
    public List<Gap> gaps() {
        List<Gap> out = new ArrayList<>();
        for (HeldSubscriptions.Lost l : held.takeLost()) {
            out.add(new Gap(patterns.getOrDefault(l.route(), l.vertex()), l.vertex(), l));
        }
        return out;
    }

    /** True when the node answered the last {@link #verify} ({@link HeldSubscriptions#peerAnswered}). */
    public boolean peerAnswered() {
        return held.peerAnswered();
    }

    /**
     * The next delivered value, or null when none is queued. Only subscription deliveries (empty src);
     * the path is the written vertex's when the node said it, else the subscribed vertex; a delivery
     * that names neither (on a route whose subscription was not confirmed, from a node that does not
     * say the path) is dropped, never shown under a made-up path.
     */
    public Sample next() {
        check(true); // the node may have reaped us (a gap in polling, a slot answered unknown): restore now
        for (Delivery d = queue.poll(); d != null; d = queue.poll()) {
            String path = d.source() != null ? d.source() : routes.get(d.route());
            if (path == null) { // only subscription deliveries (empty src) were queued
                continue;
            }
            return new Sample(path, d.render(schema(path)), d);
        }
        return null;
    }

    /**
     * The declaration of {@code path} ({@link PeerClient#declaration}: read once and kept until the
     * peer restarts; a request that got no answer is asked again), null when it has none, or when the
     * path the node named is no valid path (bad input renders raw, never crashes the follower).
     */
    public VertexSchema schema(String path) {
        try {
            return client.declaration(path);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
