package io.spectrum.node.fwd;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.time.Clock;

/**
 * Each remote peer's share of the node: the subscriber slots and pending awaits
 * it holds against {@link NodeConfig#slotsPerPeer()} and {@link NodeConfig#awaitsPerPeer()}, and a
 * token bucket over the delivery frames it is sent ({@link NodeConfig#peerDeliveriesPerSecond()}).
 * A peer over its share is refused (the caller answers {@code tr::flow::backpressure}) or, for a
 * delivery, skipped; both are counted here per peer and on the peer's link ({@link
 * io.spectrum.link.LinkStats}), and nobody else's share moves.
 *
 * <p>A fixed table of (link index, peer) entries, compact (swap-remove), found through a
 * {@link PeerIndex} after a check of the last hit; an entry lives while its peer holds a slot or an await. The owner (link index
 * {@link FwdServer#OWNER}) has no share and is never limited. Allocation-free.
 */
public final class PeerShares {
    private final LinkTable links;
    private final Clock clock;
    private final int slotCap;
    private final int awaitCap;
    /** Tokens are kept in nanoseconds of refill: one delivery costs {@link #costNanos}. */
    private final long costNanos;
    private final long bucketNanos;
    /** The share entries (in use, peak, refusals). */
    public final ResourceCounter resource;

    private final int[] link;
    private final int[] peer;
    private final int[] slots;
    private final int[] awaits;
    private final long[] tokens;
    private final long[] refilled;
    private final long[] slotRefused;
    private final long[] awaitRefused;
    private final long[] dropped;
    private int used;
    private int last;
    /** Where each (link, peer) entry is. */
    private final PeerIndex index;

    /** Totals over every peer that ever had an entry (an entry's own counters go with it). */
    private long slotRefusalsTotal;
    private long awaitRefusalsTotal;
    private long droppedTotal;

    PeerShares(NodeConfig cfg, LinkTable links, Clock clock) {
        this.links = links;
        this.clock = clock;
        this.slotCap = cfg.slotsPerPeer();
        this.awaitCap = cfg.awaitsPerPeer();
        int rate = cfg.peerDeliveriesPerSecond();
        this.costNanos = rate == 0 ? 0 : Math.max(1, 1_000_000_000L / rate);
        this.bucketNanos = costNanos * cfg.peerDeliveryBurst();
        int n = cfg.sharePeers();
        resource = new ResourceCounter("node.peers", n);
        link = new int[n];
        peer = new int[n];
        index = new PeerIndex(n);
        slots = new int[n];
        awaits = new int[n];
        tokens = new long[n];
        refilled = new long[n];
        slotRefused = new long[n];
        awaitRefused = new long[n];
        dropped = new long[n];
    }

    /** Takes one slot of the peer's share: true, or false (refusal counted) when it is used up. */
    boolean takeSlot(int li, int p) {
        if (take(li, p, slots, slotCap, slotRefused)) {
            return true;
        }
        slotRefusalsTotal++;
        return false;
    }

    /** Gives one slot back (the slot was reaped, replaced by the owner, or its append failed later). */
    public void returnSlot(int li, int p) {
        give(li, p, slots);
    }

    /** Takes one await of the peer's share: true, or false (refusal counted). */
    boolean takeAwait(int li, int p) {
        if (take(li, p, awaits, awaitCap, awaitRefused)) {
            return true;
        }
        awaitRefusalsTotal++;
        return false;
    }

    void returnAwait(int li, int p) {
        give(li, p, awaits);
    }

    /** One unit of {@code held} for (link, peer) up to {@code cap}; a refusal is counted per peer and on the link. */
    private boolean take(int li, int p, int[] held, int cap, long[] refusals) {
        if (li < 0) {
            return true;
        }
        int e = entry(li, p, true);
        if (e >= 0 && held[e] < cap) {
            held[e]++;
            return true;
        }
        if (e >= 0) {
            refusals[e]++;
        }
        links.shareRefused(li);
        return false;
    }

    private void give(int li, int p, int[] held) {
        if (li < 0) {
            return;
        }
        int e = entry(li, p, false);
        if (e >= 0 && held[e] > 0) {
            held[e]--;
            releaseIfIdle(e);
        }
    }

    /**
     * Whether one more delivery frame may go to (link, peer) now; a false answer is counted as a
     * dropped delivery (the caller skips the frame: it is not queued).
     */
    boolean allowDelivery(int li, int p) {
        if (costNanos == 0 || li < 0) {
            return true;
        }
        int e = entry(li, p, false);
        if (e < 0) {
            return true; // a peer without a slot is sent no deliveries; nothing to meter
        }
        final long now = clock.nanoTime();
        long t = tokens[e] + (now - refilled[e]);
        refilled[e] = now;
        if (t > bucketNanos) {
            t = bucketNanos;
        }
        if (t < costNanos) {
            tokens[e] = t;
            dropped[e]++;
            droppedTotal++;
            links.deliveryDropped(li);
            return false;
        }
        tokens[e] = t - costNanos;
        return true;
    }

    /**
     * Whether {@link #allowDelivery} would let one delivery to the peer through now, without taking
     * it or counting anything: a dirty edge's resend waits for this (docs/node.md, "Dirty edges").
     */
    public boolean canDeliver(int li, int p) {
        if (costNanos == 0 || li < 0) {
            return true;
        }
        int e = entry(li, p, false);
        if (e < 0) {
            return true;
        }
        long t = tokens[e] + (clock.nanoTime() - refilled[e]);
        return Math.min(t, bucketNanos) >= costNanos;
    }

    // ------------------------------------------------------------------ readout (stats, tests)

    /** Entries in use (peers holding a slot or an await). */
    int count() {
        return used;
    }

    int linkAt(int e) {
        return link[e];
    }

    int peerAt(int e) {
        return peer[e];
    }

    int slotsAt(int e) {
        return slots[e];
    }

    int awaitsAt(int e) {
        return awaits[e];
    }

    /** Slot and await refusals of the entry's peer while it has had this entry. */
    long refusalsAt(int e) {
        return slotRefused[e] + awaitRefused[e];
    }

    long droppedAt(int e) {
        return dropped[e];
    }

    /** Slots (link, peer) holds now. */
    int slotsOf(int li, int p) {
        int e = entry(li, p, false);
        return e < 0 ? 0 : slots[e];
    }

    int awaitsOf(int li, int p) {
        int e = entry(li, p, false);
        return e < 0 ? 0 : awaits[e];
    }

    long slotRefused() {
        return slotRefusalsTotal;
    }

    long awaitRefused() {
        return awaitRefusalsTotal;
    }

    long deliveriesDropped() {
        return droppedTotal;
    }

    // ------------------------------------------------------------------ table

    /** The entry of (link, peer); with {@code create}, a new one (full bucket), or -1 when the table is full. */
    private int entry(int li, int p, boolean create) {
        if (last < used && link[last] == li && peer[last] == p) {
            return last;
        }
        final int found = index.find(li, p);
        if (found >= 0) {
            last = found;
            return found;
        }
        if (!create) {
            return -1;
        }
        if (used == link.length) {
            resource.countRefused();
            return -1;
        }
        int e = used++;
        link[e] = li;
        peer[e] = p;
        index.put(li, p, e);
        slots[e] = 0;
        awaits[e] = 0;
        tokens[e] = bucketNanos;
        refilled[e] = clock.nanoTime();
        slotRefused[e] = 0;
        awaitRefused[e] = 0;
        dropped[e] = 0;
        resource.taken();
        last = e;
        return e;
    }

    private void releaseIfIdle(int e) {
        if (slots[e] != 0 || awaits[e] != 0) {
            return;
        }
        int l = --used;
        index.remove(link[e], peer[e]);
        if (e != l) {
            index.moved(link[l], peer[l], e);
        }
        link[e] = link[l];
        peer[e] = peer[l];
        slots[e] = slots[l];
        awaits[e] = awaits[l];
        tokens[e] = tokens[l];
        refilled[e] = refilled[l];
        slotRefused[e] = slotRefused[l];
        awaitRefused[e] = awaitRefused[l];
        dropped[e] = dropped[l];
        last = 0;
        resource.returned();
    }
}
