package io.spectrum.client;

import io.spectrum.wire.Names;

import io.spectrum.wire.WireError;

import java.util.ArrayList;
import java.util.List;

/**
 * The subscriptions a follower holds at one node, kept alive (no silent loss): the
 * node may evict a slot (a flood filled its tables), someone may clear it, or the node may restart,
 * and the node tells no one. Call {@link #verify} once per liveness period (the {@code sub}
 * command does every 3 s): each subscription is checked and re-appended when gone.
 *
 * <ul>
 * <li>When the append answered the slot's identity (the client announced the extensions), the
 *     check is a READ of {@code :subscribers[N@gen]} (the generation guard): {@code path::not_found}
 *     means the slot is gone or someone else's now, and the record is appended again.</li>
 * <li>Without an identity (plain v1), the check is the append itself: a node answers an append
 *     identical to an existing slot as a duplicate (nothing changes, nothing is replayed), and admits
 *     it anew when the slot is gone (its durability latch then brings the current value).</li>
 * </ul>
 *
 * Single-threaded, on the client's thread, like {@link PeerClient}.
 */
public final class HeldSubscriptions {
    private static final class Held {
        final String vertex;
        final String route;
        final byte[] record;
        int index;
        long generation;

        Held(String vertex, String route, byte[] record) {
            this.vertex = vertex;
            this.route = route;
            this.record = record;
        }

        void admitted(Subscribed s) {
            index = s.index();
            generation = s.generation();
        }
    }

    private final PeerClient client;
    private final List<Held> held = new ArrayList<>();
    private long restored;
    private long checks;
    private boolean answered = true;

    /** Holds subscriptions made through {@code client}, on its thread. */
    public HeldSubscriptions(PeerClient client) {
        this.client = client;
    }

    /**
     * Appends SUBSCRIBER{route, [policy], [spectrum.topic]} to {@code vertex:subscribers[]}
     * ({@link PeerClient#subscribe(String, String, int, boolean)}) and, when admitted, keeps it.
     */
    public Subscribed subscribe(String vertex, String route, int policy, boolean stamped) {
        return subscribe(vertex, route, policy, stamped ? Names.TOPIC_STAMP : 0);
    }

    /**
     * As {@link #subscribe(String, String, int, boolean)} with {@code spectrum.topic} VALUE u8
     * {@code topic} (0 = no key; {@link Names#TOPIC_STAMP} | {@link Names#TOPIC_WITH_PATH} also asks
     * for the written vertex's path, {@link Delivery#source()}).
     */
    public Subscribed subscribe(String vertex, String route, int policy, int topic) {
        return subscribe(vertex, route, Requests.subscriber(route, policy, topic));
    }

    /**
     * Appends the SUBSCRIBER {@code record} (already encoded, e.g. with the delivery-mode keys of
     * {@link Requests#subscriber(String, int, int, int, int, int)}) to {@code vertex:subscribers[]} with
     * {@code route} as the request's src and, when admitted, keeps it; {@link #verify} appends the same
     * bytes again when the slot is gone.
     */
    public Subscribed subscribe(String vertex, String route, byte[] record) {
        Held h = new Held(vertex, route, record.clone());
        Subscribed s = client.subscribe(vertex, route, h.record);
        if (s.ok()) {
            h.admitted(s);
            held.add(h);
        }
        return s;
    }

    /**
     * Whether the held subscription of {@code route} knows its slot's identity (the node answered the
     * append with it: the client announced the extensions, {@link PeerClient#announceExtensions}), so
     * that {@link #consumed} can address the slot. False for a route not held.
     */
    public boolean knowsSlot(String route) {
        Held h = find(route);
        return h != null && h.index >= 0;
    }

    /**
     * The consumed message (docs/extensions.md "Delivery modes") to the current slot of the held
     * subscription of {@code route} ({@link PeerClient#consumed}, with the slot's index and
     * generation as last admitted, so a re-appended slot is addressed anew).
     *
     * @return the node's answer, or a local {@code tr::path::not_found} when {@code route} is not held
     *     or its slot's identity is unknown ({@link #knowsSlot})
     */
    public Reply consumed(String route, long upTo) {
        Held h = find(route);
        if (h == null || h.index < 0) {
            return Reply.local(WireError.PATH_NOT_FOUND);
        }
        return client.consumed(h.vertex, h.index, h.generation, upTo);
    }

    /**
     * Clears every held slot whose identity is known ({@link PeerClient#clear}, with the generation
     * guard) and forgets every held subscription: the holder is leaving, so that, e.g., a bounded
     * delivery-mode slot no longer holds values a publisher is refused for. A slot without a known
     * identity is left to the node's reaping.
     *
     * @return how many slots the node cleared
     */
    public int clearAll() {
        int n = 0;
        for (Held h : held) {
            if (h.index >= 0 && client.clear(h.vertex, h.index, h.generation).ok()) {
                n++;
            }
        }
        held.clear();
        return n;
    }

    private Held find(String route) {
        for (Held h : held) {
            if (h.route.equals(route)) {
                return h;
            }
        }
        return null;
    }

    /**
     * Checks every held subscription and re-appends those whose slot is gone.
     *
     * @return how many were found gone and admitted again (with an identity to tell; a plain node's
     *     re-admission cannot be told from a duplicate and is not counted)
     */
    public int verify() {
        int n = 0;
        boolean heard = held.isEmpty();
        for (Held h : held) {
            checks++;
            if (h.index >= 0) {
                Reply r = client.slot(h.vertex, h.index, h.generation);
                heard |= r.answered();
                if (r.code() != WireError.PATH_NOT_FOUND) {
                    continue; // there, or unknowable now (timeout, denied): next period
                }
            }
            Subscribed s = client.subscribe(h.vertex, h.route, h.record);
            heard |= s.reply().answered();
            if (s.ok() && h.index >= 0) {
                n++;
            }
            if (s.ok()) {
                h.admitted(s);
            }
        }
        restored += n;
        answered = heard;
        return n;
    }

    /** Whether the node answered anything during the last {@link #verify} (true before the first). */
    public boolean peerAnswered() {
        return answered;
    }

    /** Subscriptions found gone and admitted again, in total. */
    public long restored() {
        return restored;
    }

    /** Checks run, in total (one per held subscription per {@link #verify}). */
    public long checks() {
        return checks;
    }

    /** The subscriptions held now. */
    public int size() {
        return held.size();
    }
}
