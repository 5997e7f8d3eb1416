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
 * A node also drops every slot of a client it has not heard from for its peer timeout, which is
 * what happens to a client that is not polled for that long. The client counts such gaps
 * ({@link PeerClient#peerStateLosses}); {@link #restoreIfLost} (and the next {@link #verify}) then
 * checks every held subscription at once instead of a period later. Nothing is restored silently:
 * each subscription found gone, or (plain v1, no identity to check) re-appended after such a gap,
 * is reported once through {@link #takeLost}, since what was published meanwhile was missed.
 *
 * Single-threaded, on the client's thread, like {@link PeerClient}.
 */
public final class HeldSubscriptions {
    /**
     * One held subscription the node had dropped (or, for a plain v1 slot without an identity to
     * check, may have dropped), appended again: what was published at {@code vertex} in between was
     * missed, and a value held from before is not current until the next delivery.
     *
     * @param vertex  the subscribed vertex
     * @param route   the subscription's route
     * @param certain true when the generation guard found the slot gone; false when the client only
     *                knows it was not polled past {@link PeerClient#pollGapLimit} (a plain v1 slot)
     * @param gapNanos the gap in the client's polling behind it, 0 when none was seen (evicted,
     *                cleared, or the node restarted)
     * @param code    {@link WireError#OK} when the subscription was admitted again, else the refusal
     *                ({@code FLOW_TIMEOUT}: no answer); the next {@link #verify} tries again
     */
    public record Lost(String vertex, String route, boolean certain, long gapNanos, int code) {
        /** Whether the subscription was admitted again. */
        public boolean resubscribed() {
            return code == WireError.OK;
        }

        /** One line saying what happened and what it means, without the subscription's name. */
        public String text() {
            String why = gapNanos > 0
                    ? "the client was not polled for " + (gapNanos / 1_000_000L) + " ms, past the node's peer timeout, and "
                    + (certain ? "the node dropped" : "the node may have dropped") + " the subscription"
                    : "the node dropped the subscription (evicted, cleared, or it restarted)";
            String missed = "values published in between " + (certain ? "were" : "may be") + " missed";
            return why + (resubscribed() ? "; subscribed again, " + missed
                    : "; subscribing again was refused (" + WireError.identity(code) + "), tried again on the next check; " + missed);
        }
    }

    private static final class Held {
        final String vertex;
        final String route;
        final byte[] record;
        int index;
        long generation;
        /** Found gone and not admitted again (refused, no answer): already reported. */
        boolean toldGone;

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

    /** Reports kept for {@link #takeLost} at most. */
    private static final int MAX_LOST = 1024;

    private final PeerClient client;
    private final List<Held> held = new ArrayList<>();
    private long restored;
    private long checks;
    private boolean answered = true;
    /** {@link PeerClient#peerStateLosses} as last checked. */
    private long lossesSeen;
    /** A consumed to a held slot said it is gone, outside a check: look at all of them. */
    private boolean suspect;
    private final List<Lost> lost = new ArrayList<>();
    private final List<Lost> lastFound = new ArrayList<>();

    /** Holds subscriptions made through {@code client}, on its thread. */
    public HeldSubscriptions(PeerClient client) {
        this.client = client;
        this.lossesSeen = client.peerStateLosses();
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
        Reply r = client.consumed(h.vertex, h.index, h.generation, upTo);
        if (r.code() == WireError.PATH_NOT_FOUND || r.code() == WireError.PATH_INVALID) {
            // the slot is gone: a hole now (the generation guard), or past the end of the list (the
            // index is refused; also the answer to a number never delivered): restoreIfLost checks them all
            suspect = true;
        }
        return r;
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
     * Whether the node may have dropped the held slots since the last check: the client was not
     * polled past {@link PeerClient#pollGapLimit} ({@link PeerClient#peerStateLosses} moved), or a
     * {@link #consumed} answered {@code path::not_found} or {@code path::invalid} (the slot's index is
     * past the end of the list now).
     */
    public boolean peerStateLost() {
        return suspect || client.peerStateLosses() != lossesSeen;
    }

    /**
     * {@link #verify} now when {@link #peerStateLost}, else nothing: call it after each poll (the
     * {@link Follower} does, in {@link Follower#next}), so a subscription the node dropped while the
     * client was not polled is appended again as soon as the client polls again.
     *
     * @return what {@link #verify} returned, or 0 when nothing was suspected
     */
    public int restoreIfLost() {
        return peerStateLost() ? verify() : 0;
    }

    /**
     * Checks every held subscription and re-appends those whose slot is gone; each one found gone is
     * reported ({@link #takeLost}), and after a gap in the client's polling ({@link #peerStateLost})
     * so is each plain v1 one re-appended (it may have been gone).
     *
     * @return how many were found gone and admitted again (with an identity to tell; a plain node's
     *     re-admission cannot be told from a duplicate and is not counted)
     */
    public int verify() {
        long losses = client.peerStateLosses();
        boolean gap = losses != lossesSeen;
        long gapNanos = gap ? client.lastGapNanos() : 0;
        lossesSeen = losses;
        suspect = false;
        lastFound.clear();
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
            boolean known = h.index >= 0; // and found gone by the generation guard
            Subscribed s = client.subscribe(h.vertex, h.route, h.record);
            heard |= s.reply().answered();
            if (s.ok() && known) {
                n++;
            }
            if ((known || gap || h.toldGone) && (s.ok() || !h.toldGone)) { // a refused one is told once, and again when back
                if (lost.size() == MAX_LOST) {
                    lost.remove(0); // a holder that never takes them: bounded, the newest kept
                }
                Lost l = new Lost(h.vertex, h.route, known, gapNanos, s.ok() ? WireError.OK : s.code());
                lost.add(l);
                lastFound.add(l);
            }
            h.toldGone = !s.ok() && (known || gap || h.toldGone);
            if (s.ok()) {
                h.admitted(s);
            }
        }
        restored += n;
        answered = heard;
        return n;
    }

    /** What the last {@link #verify} found (reported or not yet by {@link #takeLost}). */
    public List<Lost> lastFound() {
        return List.copyOf(lastFound);
    }

    /**
     * The subscriptions found dropped (and appended again) since the last call, oldest first; each is
     * told once. At most one per held subscription per {@link #verify}.
     */
    public List<Lost> takeLost() {
        if (lost.isEmpty()) {
            return List.of();
        }
        List<Lost> out = List.copyOf(lost);
        lost.clear();
        return out;
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
