package io.spectrum.node.table;

import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.StaleReason;

/**
 * The vertex table of a NARROW node as parallel primitive arrays indexed by vertex id. Keys (the
 * canonical PATH bodies) live in fixed per-vertex slots of {@code maxKey} bytes; lookup is an
 * open-addressed hash (linear probing, backward-shift deletion) over those bytes. Vertex 0 is the
 * root ({@code /}, empty key). The columns are private and read and written through small named
 * methods (the JIT inlines them), for the node's single thread.
 */
public final class VertexTable {
    /** No vertex. */
    public static final int NONE = -1;
    /** Vertex flags. */
    static final int F_IN_USE = 1;
    static final int F_STALE = 2;
    /** The last (remote) publisher asked for active/idle notices (FWD op bit 6). */
    static final int F_PUB_NOTIFY = 4;
    /** A {@code $} name: node-internal, refused to remote writers. */
    static final int F_RESERVED = 8;
    /** Marked stale by the owner ({@code TopicState#markStale}): held until the next publish, never purged. */
    static final int F_STALE_KEPT = 16;

    private final int capacity;
    private final int maxKey;
    private final byte[] keys;
    private final int[] keyLen;
    private final int[] parent;
    private final int[] firstChild;
    private final int[] nextSibling;
    private final int[] flags;
    /** Offset of the value block in the value pool; valLen -1 = no value. */
    private final int[] valOff;
    private final int[] valLen;
    /** Publish sequence; never goes back while the node runs. */
    private final long[] seq;
    /** The sequence of the publish that left the held value (non-retained publishes spend {@link #seq} only). */
    private final long[] valueSeq;
    /** Who published the held value (link index, -1 the local host, -2 none; and peer): a non-retained publish moves only pubLink/pubPeer. */
    private final int[] valPubLink;
    private final int[] valPubPeer;
    /** Last publisher: link index (-1 = the local host, -2 = none) and peer. */
    private final int[] pubLink;
    private final int[] pubPeer;
    /** Last remote publisher's return route in the record pool (-1 none). */
    private final int[] pubRouteOff;
    private final int[] pubRouteLen;
    private final long[] staleSince;
    /** The value's origin time, ms since the Unix epoch, 0: none (docs/extensions.md "Origin time"). */
    private final long[] origin;
    /** Why v is stale: {@link StaleReason#MAX_BYTES} bytes of UTF-8 per vertex, {@link #reasonLen} used. */
    private final byte[] reasons;
    private final int[] reasonLen;
    /** Delivering edges held by this vertex. */
    private final int[] ownSubs;
    /** Delivering edges that see a write here: own plus every ancestor's. */
    private final int[] listeners;
    /** Subscriber list, sorted by slot position. */
    private final int[] firstSlot;
    private final int[] lastSlot;
    private final int[] slotCount;
    /** Pending remote awaits on this vertex. */
    private final int[] awaits;
    /** The owner's declaration of each vertex, or null (see {@link VertexSchema}). */
    private final VertexSchema[] schema;
    /** Another node's declaration a mirror reports for readers, or null (it gates nothing). */
    private final VertexSchema[] reported;

    private final int[] table;
    private final int mask;
    private final int[] freeIds;
    private int freeTop;
    private int used;
    private int peak;
    private long refusals;

    /** A table of {@code capacity} vertices whose keys are at most {@code maxKey} bytes, every column allocated here, once. */
    public VertexTable(int capacity, int maxKey) {
        this.capacity = capacity;
        this.maxKey = maxKey;
        keys = new byte[capacity * maxKey];
        keyLen = new int[capacity];
        parent = new int[capacity];
        firstChild = new int[capacity];
        nextSibling = new int[capacity];
        flags = new int[capacity];
        valOff = new int[capacity];
        valLen = new int[capacity];
        seq = new long[capacity];
        valueSeq = new long[capacity];
        valPubLink = new int[capacity];
        valPubPeer = new int[capacity];
        pubLink = new int[capacity];
        pubPeer = new int[capacity];
        pubRouteOff = new int[capacity];
        pubRouteLen = new int[capacity];
        staleSince = new long[capacity];
        origin = new long[capacity];
        reasons = new byte[capacity * StaleReason.MAX_BYTES];
        reasonLen = new int[capacity];
        ownSubs = new int[capacity];
        listeners = new int[capacity];
        firstSlot = new int[capacity];
        lastSlot = new int[capacity];
        slotCount = new int[capacity];
        awaits = new int[capacity];
        schema = new VertexSchema[capacity];
        reported = new VertexSchema[capacity];
        int size = 1;
        while (size < capacity * 2) {
            size <<= 1;
        }
        table = new int[size];
        mask = size - 1;
        freeIds = new int[capacity];
        for (int i = capacity - 1; i >= 0; i--) {
            freeIds[freeTop++] = i;
        }
        int root = allocate(0, NONE);
        hashInsert(root);
    }

    // ------------------------------------------------------------------ columns

    /** Vertices the table holds at most. */
    public int capacity() {
        return capacity;
    }

    /** The longest key (PATH body) a vertex may have, in bytes. */
    public int maxKey() {
        return maxKey;
    }

    /** The key store: vertex v's PATH body is {@code keys()[keyOffset(v), keyOffset(v) + keyLen(v))}. */
    public byte[] keys() {
        return keys;
    }

    /** Where v's key starts in {@link #keys()}. */
    public int keyOffset(int v) {
        return v * maxKey;
    }

    /** Length of v's key in bytes. */
    public int keyLen(int v) {
        return keyLen[v];
    }

    /** v's parent vertex, or NONE for the root. */
    public int parent(int v) {
        return parent[v];
    }

    /** v's first child, or NONE. */
    public int firstChild(int v) {
        return firstChild[v];
    }

    /** The next child of v's parent after v, or NONE. */
    public int nextSibling(int v) {
        return nextSibling[v];
    }

    /** True when row v holds a vertex. */
    public boolean inUse(int v) {
        return (flags[v] & F_IN_USE) != 0;
    }

    /** True when v is marked stale. */
    public boolean isStale(int v) {
        return (flags[v] & F_STALE) != 0;
    }

    /** The owner's declaration of v, or null when undeclared. */
    public VertexSchema schema(int v) {
        return schema[v];
    }

    /** Sets the owner's declaration of v (null: undeclared). */
    public void declare(int v, VertexSchema s) {
        schema[v] = s;
    }

    /** What readers of v's :settings.app see: its own declaration, else a reported one, else null. */
    public VertexSchema described(int v) {
        return schema[v] != null ? schema[v] : reported[v];
    }

    /** Sets the declaration another node reports for v (null: none). */
    public void report(int v, VertexSchema s) {
        reported[v] = s;
    }

    /** A {@code $} vertex or one under it: node-internal. */
    public boolean isReserved(int v) {
        return (flags[v] & F_RESERVED) != 0;
    }

    /** The last (remote) publisher asked for active/idle notices. */
    public boolean publisherNotify(int v) {
        return (flags[v] & F_PUB_NOTIFY) != 0;
    }

    /** Records whether v's last (remote) publisher asked for active/idle notices. */
    public void setPublisherNotify(int v, boolean on) {
        flags[v] = on ? flags[v] | F_PUB_NOTIFY : flags[v] & ~F_PUB_NOTIFY;
    }

    /** Marks v stale from {@code now}; {@code kept}: the owner's mark, which no grace purges. */
    public void markStale(int v, long now, boolean kept) {
        flags[v] |= F_STALE;
        if (kept) {
            flags[v] |= F_STALE_KEPT;
        }
        staleSince[v] = now;
    }

    /** Makes v's stale mark the owner's (no purge), keeping its start. */
    public void keepStale(int v) {
        flags[v] |= F_STALE_KEPT;
    }

    /** The owner marked v stale: it stays (stale) until the next publish, whatever the grace. */
    public boolean staleKept(int v) {
        return (flags[v] & F_STALE_KEPT) != 0;
    }

    /** Clears v's stale mark (the owner's too) and its reason. */
    public void clearStale(int v) {
        flags[v] &= ~(F_STALE | F_STALE_KEPT);
        reasonLen[v] = 0;
    }

    /** The array holding every vertex's stale reason; v's is at {@link #reasonOff}, {@link #reasonLen} bytes. */
    public byte[] reasons() {
        return reasons;
    }

    /** Where v's stale reason starts in {@link #reasons()}. */
    public int reasonOff(int v) {
        return v * StaleReason.MAX_BYTES;
    }

    /** Length of v's stale reason in bytes (0: none). */
    public int reasonLen(int v) {
        return reasonLen[v];
    }

    /** Sets the length of the stale reason written at {@link #reasonOff}. */
    public void setReasonLen(int v, int len) {
        reasonLen[v] = len;
    }

    /** When v was marked stale (the node clock's nanoseconds). */
    public long staleSince(int v) {
        return staleSince[v];
    }

    boolean hasValue(int v) {
        return valLen[v] >= 0;
    }

    /** Offset of v's value block in the value pool (-1 without a value). */
    public int valOff(int v) {
        return valOff[v];
    }

    /** Length of v's stored value TLV, -1 without a value. */
    public int valLen(int v) {
        return valLen[v];
    }

    /** Points v at its value block: offset in the value pool and TLV length. */
    public void setValue(int v, int off, int len) {
        valOff[v] = off;
        valLen[v] = len;
    }

    /** Drops v's value (and its origin time); the block itself is the caller's to free. */
    public void clearValue(int v) {
        valOff[v] = -1;
        valLen[v] = -1;
        origin[v] = 0;
    }

    /** v's value's origin time, ms since the Unix epoch, 0 when it has none. */
    public long origin(int v) {
        return origin[v];
    }

    /** Sets v's value's origin time, ms since the Unix epoch (0: none). */
    public void setOrigin(int v, long ms) {
        origin[v] = ms;
    }

    /** v's publish sequence; it never goes back while the node runs. */
    public long seq(int v) {
        return seq[v];
    }

    /** Raises v's sequence to at least {@code floor}. */
    public void raiseSeq(int v, long floor) {
        if (seq[v] < floor) {
            seq[v] = floor;
        }
    }

    /** Spends the next sequence number of v. */
    public void bumpSeq(int v) {
        seq[v]++;
    }

    /** The sequence of v's held value: {@link #seq} unless non-retained publishes came after it. */
    public long valueSeq(int v) {
        return valueSeq[v];
    }

    /** The held value is v's current publish (its sequence is {@link #seq} now). */
    public void valueIsCurrent(int v) {
        valueSeq[v] = seq[v];
    }

    /** True when (link, peer) published v's held value (docs/node.md, "Retain: false": who may clear its stale mark). */
    public boolean publishedValue(int v, int link, int peer) {
        return valPubLink[v] == link && valPubPeer[v] == peer && valLen[v] >= 0;
    }

    /** Records who published v's held value: link index (-1 the local host) and peer. */
    public void setValuePublisher(int v, int link, int peer) {
        valPubLink[v] = link;
        valPubPeer[v] = peer;
    }

    /** Link index of v's last publisher: -1 the local host, -2 none. */
    public int pubLink(int v) {
        return pubLink[v];
    }

    /** Peer of v's last publisher on its link. */
    public int pubPeer(int v) {
        return pubPeer[v];
    }

    /** Records v's last publisher: link index (-1 the local host, -2 none) and peer. */
    public void setPublisher(int v, int link, int peer) {
        pubLink[v] = link;
        pubPeer[v] = peer;
    }

    /** Offset of the last remote publisher's return route in the record pool, -1 none. */
    public int pubRouteOff(int v) {
        return pubRouteOff[v];
    }

    /** Length of the last remote publisher's return route (see {@link #pubRouteOff}). */
    public int pubRouteLen(int v) {
        return pubRouteLen[v];
    }

    /** Points v at its last remote publisher's return route in the record pool (-1: none). */
    public void setPubRoute(int v, int off, int len) {
        pubRouteOff[v] = off;
        pubRouteLen[v] = len;
    }

    /** Delivering edges held by v itself. */
    public int ownSubs(int v) {
        return ownSubs[v];
    }

    /** Changes the count of delivering edges v holds itself. */
    public void addOwnSubs(int v, int delta) {
        ownSubs[v] += delta;
    }

    /** Delivering edges that see a write of v: its own plus every ancestor's. */
    public int listeners(int v) {
        return listeners[v];
    }

    /** Sets the count of delivering edges that see a write of v. */
    public void setListeners(int v, int n) {
        listeners[v] = n;
    }

    /** Head of v's subscriber slot list (sorted by position), or NONE. */
    public int firstSlot(int v) {
        return firstSlot[v];
    }

    /** Tail of v's subscriber slot list, or NONE. */
    public int lastSlot(int v) {
        return lastSlot[v];
    }

    /** Sets the head of v's subscriber slot list. */
    public void setFirstSlot(int v, int s) {
        firstSlot[v] = s;
    }

    /** Sets the tail of v's subscriber slot list. */
    public void setLastSlot(int v, int s) {
        lastSlot[v] = s;
    }

    /** Subscriber slots on v's list. */
    public int slotCount(int v) {
        return slotCount[v];
    }

    /** Changes the count of subscriber slots on v's list. */
    public void addSlotCount(int v, int delta) {
        slotCount[v] += delta;
    }

    /** Pending remote awaits on v. */
    public int awaits(int v) {
        return awaits[v];
    }

    /** Changes the count of pending remote awaits on v. */
    public void addAwaits(int v, int delta) {
        awaits[v] += delta;
    }

    // ------------------------------------------------------------------ allocation and lookup


    /** Vertices in use now. */
    public int used() {
        return used;
    }

    /** The most vertices ever in use at once. */
    public int peak() {
        return peak;
    }

    /** Vertex creations refused because the table was full. */
    public long refusals() {
        return refusals;
    }

    /** Rows free now. */
    public int free() {
        return freeTop;
    }

    /** Counts one refused vertex creation. */
    public void refused() {
        refusals++;
    }

    private static int hash(byte[] b, int off, int len) {
        int h = 0x811C9DC5;
        for (int i = 0; i < len; i++) {
            h = (h ^ (b[off + i] & 0xFF)) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }

    /** The vertex whose key is {@code b[off, off+len)}, or NONE. */
    public int find(byte[] b, int off, int len) {
        if (len > maxKey) {
            return NONE;
        }
        int i = hash(b, off, len) & mask;
        while (true) {
            int t = table[i];
            if (t == 0) {
                return NONE;
            }
            int v = t - 1;
            if (keyLen[v] == len && equalsKey(v, b, off, len)) {
                return v;
            }
            i = (i + 1) & mask;
        }
    }

    private boolean equalsKey(int v, byte[] b, int off, int len) {
        final int ko = v * maxKey;
        for (int i = 0; i < len; i++) {
            if (keys[ko + i] != b[off + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Creates a vertex with the given key under {@code parentId}. The caller has checked that the
     * key fits and that the table has room.
     */
    public int create(byte[] b, int off, int len, int parentId) {
        int v = allocate(len, parentId);
        System.arraycopy(b, off, keys, v * maxKey, len);
        hashInsert(v);
        nextSibling[v] = firstChild[parentId];
        firstChild[parentId] = v;
        listeners[v] = listeners[parentId];
        // a $ segment marks this vertex and everything under it as node-internal
        if ((flags[parentId] & F_RESERVED) != 0 || (len > 0 && b[off + lastSegmentStart(b, off, len) + 1] == '$')) {
            flags[v] |= F_RESERVED;
        }
        return v;
    }

    private static int lastSegmentStart(byte[] b, int off, int len) {
        int p = 0;
        int last = 0;
        while (p < len) {
            last = p;
            p += 1 + (b[off + p] & 0xFF);
        }
        return last;
    }

    private int allocate(int len, int parentId) {
        int v = freeIds[--freeTop];
        used++;
        if (used > peak) {
            peak = used;
        }
        keyLen[v] = len;
        parent[v] = parentId;
        firstChild[v] = NONE;
        nextSibling[v] = NONE;
        flags[v] = F_IN_USE;
        valOff[v] = -1;
        valLen[v] = -1;
        valueSeq[v] = 0;
        valPubLink[v] = -2;
        valPubPeer[v] = 0;
        pubLink[v] = -2;
        pubPeer[v] = 0;
        pubRouteOff[v] = -1;
        pubRouteLen[v] = 0;
        staleSince[v] = 0;
        origin[v] = 0;
        reasonLen[v] = 0;
        ownSubs[v] = 0;
        listeners[v] = 0;
        firstSlot[v] = NONE;
        lastSlot[v] = NONE;
        slotCount[v] = 0;
        awaits[v] = 0;
        schema[v] = null;
        reported[v] = null;
        // seq is deliberately kept: a vertex id's sequence never goes back while the node runs
        return v;
    }

    private void hashInsert(int v) {
        int i = hash(keys, v * maxKey, keyLen[v]) & mask;
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = v + 1;
    }

    /** Removes a childless vertex (retirement). The caller has dropped its value and slots. */
    public void remove(int v) {
        int i = hash(keys, v * maxKey, keyLen[v]) & mask;
        while (table[i] != v + 1) {
            i = (i + 1) & mask;
        }
        // backward-shift deletion keeps probe chains intact without tombstones
        int j = i;
        while (true) {
            table[i] = 0;
            while (true) {
                j = (j + 1) & mask;
                if (table[j] == 0) {
                    break;
                }
                int k = hash(keys, (table[j] - 1) * maxKey, keyLen[table[j] - 1]) & mask;
                boolean movable = i <= j ? (i < k && k <= j) : (i < k || k <= j);
                if (!movable) {
                    break;
                }
            }
            if (table[j] == 0) {
                break;
            }
            table[i] = table[j];
            i = j;
        }
        int p = parent[v];
        if (firstChild[p] == v) {
            firstChild[p] = nextSibling[v];
        } else {
            int c = firstChild[p];
            while (nextSibling[c] != v) {
                c = nextSibling[c];
            }
            nextSibling[c] = nextSibling[v];
        }
        flags[v] = 0;
        freeIds[freeTop++] = v;
        used--;
    }

    /** Next vertex of a pre-order walk of the subtree rooted at {@code top}, or NONE. */
    public int nextInSubtree(int v, int top) {
        if (firstChild[v] != NONE) {
            return firstChild[v];
        }
        while (v != top) {
            if (nextSibling[v] != NONE) {
                return nextSibling[v];
            }
            v = parent[v];
        }
        return NONE;
    }
}
