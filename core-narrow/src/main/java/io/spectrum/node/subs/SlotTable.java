package io.spectrum.node.subs;

import io.spectrum.wire.DeliveryPolicy;

/**
 * Subscriber slots as parallel primitive arrays. Each slot's {@link #word} holds the live
 * delivery_policy in its low 16 bits, so the suspended state is bit 9 of a word the slot already
 * has and a toggle is one bit flip. Slots of one vertex form a doubly linked list sorted by
 * position (the N of {@code :subscribers[N]}).
 */
public final class SlotTable {
    public static final int NONE = -1;

    public static final int POLICY_MASK = 0xFFFF;

    public static final int IN_USE = 1 << 16;
    /** An in-process callback edge: no record (listed as a hole). */
    public static final int KIND_CALLBACK = 1 << 17;
    /** A remote edge: delivers FWD WRITE over (link, peer) to its stored route. */
    public static final int KIND_ROUTED = 1 << 18;
    /** A local edge from a SUBSCRIBER record: delivers by assigning its local target. */
    public static final int KIND_LOCAL = 1 << 19;
    /** The stored record carries a delivery_policy pair (rendering rule 1). */
    public static final int HAS_POLICY = 1 << 20;
    /** The subscriber asked for the node's topic stamp on each delivery. */
    public static final int STAMP = 1 << 21;

    public final int capacity;
    public final int[] vertex;
    public final int[] word;
    public final int[] gen;
    public final int[] next;
    public final int[] prev;
    public final int[] pos;
    /** Holder: link index (-1 = the local host) and peer. */
    public final int[] holderLink;
    public final int[] holderPeer;
    /** Record block in the record pool: record bytes then route bytes. */
    public final int[] recOff;
    public final int[] recLen;
    public final int[] routeLen;
    /** Offset in the record of the winning delivery_policy word's high byte (bit 9 lives there), or -1. */
    public final int[] policyHi;
    /** Local target vertex of a KIND_LOCAL edge. */
    public final int[] target;
    /** The in-process edge's handle (which holds its listener), for KIND_CALLBACK. */
    public final Object[] handle;

    private final int[] freeIds;
    private int freeTop;
    private int used;
    private int peak;
    private long refusals;

    public SlotTable(int capacity) {
        this.capacity = capacity;
        vertex = new int[capacity];
        word = new int[capacity];
        gen = new int[capacity];
        next = new int[capacity];
        prev = new int[capacity];
        pos = new int[capacity];
        holderLink = new int[capacity];
        holderPeer = new int[capacity];
        recOff = new int[capacity];
        recLen = new int[capacity];
        routeLen = new int[capacity];
        policyHi = new int[capacity];
        target = new int[capacity];
        handle = new Object[capacity];
        freeIds = new int[capacity];
        for (int i = capacity - 1; i >= 0; i--) {
            freeIds[freeTop++] = i;
            vertex[i] = NONE;
        }
    }

    /** Takes a free slot, or NONE (refusal counted). */
    public int take() {
        if (freeTop == 0) {
            refusals++;
            return NONE;
        }
        int s = freeIds[--freeTop];
        if (++used > peak) {
            peak = used;
        }
        return s;
    }

    public void give(int s) {
        vertex[s] = NONE;
        word[s] = 0;
        handle[s] = null;
        recOff[s] = -1;
        freeIds[freeTop++] = s;
        used--;
    }

    public boolean delivering(int s) {
        return (word[s] & DeliveryPolicy.SUSPENDED) == 0;
    }

    public int used() {
        return used;
    }

    public int peak() {
        return peak;
    }

    public long refusals() {
        return refusals;
    }
}
