package io.spectrum.node.table;

import io.spectrum.node.fwd.FwdStore;
import io.spectrum.wire.DeliveryPolicy;

/**
 * Subscriber slots as parallel primitive arrays. Each slot's {@link #word} holds the live
 * delivery_policy in its low 16 bits, so the suspended state is bit 9 of a word the slot already
 * has and a toggle is one bit flip. Slots of one vertex form a doubly linked list sorted by
 * position (the N of {@code :subscribers[N]}). The columns are private and read
 * and written through small named methods (the JIT inlines them), for the node's single thread.
 */
public final class SlotTable {
    /** No slot. */
    public static final int NONE = -1;

    /** The live delivery_policy part of a slot word. */
    public static final int POLICY_MASK = FwdStore.POLICY_MASK;

    /** Set in the word of every slot that holds a subscriber. */
    public static final int IN_USE = FwdStore.IN_USE;
    /** An in-process callback edge: no record (listed as a hole). */
    public static final int KIND_CALLBACK = FwdStore.KIND_CALLBACK;
    /** A remote edge: delivers FWD WRITE over (link, peer) to its stored route. */
    public static final int KIND_ROUTED = FwdStore.KIND_ROUTED;
    /** A local edge from a SUBSCRIBER record: delivers by assigning its local target. */
    public static final int KIND_LOCAL = FwdStore.KIND_LOCAL;
    /** The stored record carries a delivery_policy pair (rendering rule 1). */
    static final int HAS_POLICY = FwdStore.HAS_POLICY;
    /** The subscriber asked for the node's topic stamp on each delivery. */
    static final int STAMP = FwdStore.STAMP;
    /** The subscriber asked for the written vertex's path in the stamp ({@code spectrum.topic} bit 1). */
    public static final int STAMP_PATH = FwdStore.STAMP_PATH;

    private final int capacity;
    private final int[] vertex;
    private final int[] word;
    private final int[] gen;
    private final int[] next;
    private final int[] prev;
    private final int[] pos;
    /** Holder: link index (-1 = the local host) and peer. */
    private final int[] holderLink;
    private final int[] holderPeer;
    /** Record block in the record pool: record bytes then route bytes. */
    private final int[] recOff;
    private final int[] recLen;
    private final int[] routeLen;
    /** Offset in the record of the winning delivery_policy word's high byte (bit 9 lives there), or -1. */
    private final int[] policyHi;
    /** Local target vertex of a KIND_LOCAL edge. */
    private final int[] target;
    /** The in-process edge's handle (which holds its listener), for KIND_CALLBACK. */
    private final Object[] handle;

    /**
     * One bit per slot: a delivery to it was dropped (its holder's delivery share, or the link could not
     * take the frame), so the holder may hold an old value; {@code Fanout#resendDirty} sends it the
     * current one when the share refills (docs/node.md, "Dirty edges").
     */
    private final long[] dirty;
    private int dirtyCount;

    private final int[] freeIds;
    private int freeTop;
    private int used;
    private int peak;
    private long refusals;

    /** A table of {@code capacity} slots, every column allocated here, once. */
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
        dirty = new long[(capacity + 63) >>> 6];
        freeIds = new int[capacity];
        for (int i = capacity - 1; i >= 0; i--) {
            freeIds[freeTop++] = i;
            vertex[i] = NONE;
        }
    }

    /** Slots the table holds at most. */
    public int capacity() {
        return capacity;
    }

    /** Fills a taken (or replaced) slot; its generation moves on. No record policy word, no target. */
    public void fill(int s, int v, int w, int link, int peer, int recordOff, int recordLen, int routeLength) {
        clean(s); // a re-filled slot starts over: its latch, if any, sends the current value
        vertex[s] = v;
        word[s] = w;
        gen[s]++;
        holderLink[s] = link;
        holderPeer[s] = peer;
        recOff[s] = recordOff;
        recLen[s] = recordLen;
        routeLen[s] = routeLength;
        policyHi[s] = -1;
        target[s] = NONE;
    }

    /** The vertex holding slot s, NONE for a free slot. */
    public int vertex(int s) {
        return vertex[s];
    }

    /** The slot's word: IN_USE, the kind bits, flags and the live delivery_policy (low 16 bits). */
    public int word(int s) {
        return word[s];
    }

    /** True when s's live delivery_policy has the suspended bit (bit 9). */
    public boolean suspended(int s) {
        return (word[s] & DeliveryPolicy.SUSPENDED) != 0;
    }

    /** Flips the suspended bit of the live policy. */
    public void toggleSuspended(int s) {
        word[s] ^= DeliveryPolicy.SUSPENDED;
        if ((word[s] & DeliveryPolicy.SUSPENDED) != 0) {
            clean(s); // a suspended edge is owed nothing: no replay on resume
        }
    }

    /** s's generation: bumped each time the slot is given back, so a stale handle is told apart. */
    public int gen(int s) {
        return gen[s];
    }

    /** Next slot of the same vertex by position, or NONE. */
    public int next(int s) {
        return next[s];
    }

    /** The previous slot on s's vertex list, or NONE. */
    public int prev(int s) {
        return prev[s];
    }

    /** Links s to the next slot on its vertex list. */
    public void setNext(int s, int n) {
        next[s] = n;
    }

    /** Links s to the previous slot on its vertex list. */
    public void setPrev(int s, int p) {
        prev[s] = p;
    }

    /** The position N of {@code :subscribers[N]}. */
    public int pos(int s) {
        return pos[s];
    }

    /** Sets s's position N of {@code :subscribers[N]}. */
    public void setPos(int s, int p) {
        pos[s] = p;
    }

    /** Holder link index (-1 = the local host). */
    public int holderLink(int s) {
        return holderLink[s];
    }

    /** Holder peer on its link. */
    public int holderPeer(int s) {
        return holderPeer[s];
    }

    /** True when (link, peer) holds s. */
    public boolean heldBy(int s, int link, int peer) {
        return holderLink[s] == link && holderPeer[s] == peer;
    }

    /** Offset of the stored record in the record pool, -1 for a record-less slot. */
    public int recOff(int s) {
        return recOff[s];
    }

    /** Length of the stored record, 0 for a record-less slot. */
    public int recLen(int s) {
        return recLen[s];
    }

    /** Length of the return route stored right after the record. */
    public int routeLen(int s) {
        return routeLen[s];
    }

    /** Record-relative offset of the winning delivery_policy word's high byte, or -1. */
    public int policyHi(int s) {
        return policyHi[s];
    }

    /** Sets the record-relative offset of the winning delivery_policy word's high byte (-1: none). */
    public void setPolicyHi(int s, int off) {
        policyHi[s] = off;
    }

    /** Local target vertex of a KIND_LOCAL edge. */
    public int target(int s) {
        return target[s];
    }

    /** Sets the local target vertex of a KIND_LOCAL edge. */
    public void setTarget(int s, int v) {
        target[s] = v;
    }

    /** The in-process edge's handle, for KIND_CALLBACK. */
    public Object handle(int s) {
        return handle[s];
    }

    /** Sets the in-process edge's handle, for KIND_CALLBACK. */
    public void setHandle(int s, Object h) {
        handle[s] = h;
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

    /** Gives s back to the free list (its record is the caller's to free). */
    public void give(int s) {
        clean(s);
        vertex[s] = NONE;
        word[s] = 0;
        handle[s] = null;
        recOff[s] = -1;
        freeIds[freeTop++] = s;
        used--;
    }

    /** Marks s dirty: a delivery to it was dropped. */
    public void markDirty(int s) {
        final long bit = 1L << s;
        if ((dirty[s >>> 6] & bit) == 0) {
            dirty[s >>> 6] |= bit;
            dirtyCount++;
        }
    }

    /** s no longer owes its holder a value. */
    public void clean(int s) {
        final long bit = 1L << s;
        if ((dirty[s >>> 6] & bit) != 0) {
            dirty[s >>> 6] &= ~bit;
            dirtyCount--;
        }
    }

    boolean isDirty(int s) {
        return (dirty[s >>> 6] & 1L << s) != 0;
    }

    /** Slots marked dirty now. */
    public int dirtyCount() {
        return dirtyCount;
    }

    /** The first dirty slot at or after {@code from}, or NONE. */
    public int nextDirty(int from) {
        if (from >= capacity) {
            return NONE;
        }
        int w = from >>> 6;
        long bits = dirty[w] & -1L << from;
        while (bits == 0) {
            if (++w == dirty.length) {
                return NONE;
            }
            bits = dirty[w];
        }
        return (w << 6) + Long.numberOfTrailingZeros(bits);
    }

    /** True when s is not suspended: a write delivers to it. */
    public boolean delivering(int s) {
        return (word[s] & DeliveryPolicy.SUSPENDED) == 0;
    }

    /** Slots in use now. */
    public int used() {
        return used;
    }

    /** The most slots ever in use at once. */
    public int peak() {
        return peak;
    }

    /** Slot takes refused because the table was full. */
    public long refusals() {
        return refusals;
    }
}
