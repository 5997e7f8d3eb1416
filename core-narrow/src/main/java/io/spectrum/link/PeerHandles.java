package io.spectrum.link;

/**
 * The peer handles of a link with a bounded peer table: handles {@code 0..capacity-1}, each taken
 * with a new generation, so a link can accept connections for its whole life. A freed handle goes
 * to the back of a FIFO and is taken again only after every other free handle, and then with a
 * generation one higher: whoever kept an old (handle, generation) pair never matches its new holder
 * ({@link #matches}). Generations are 64-bit and count takes of that one handle, so they do not run
 * out. Fixed arrays sized once; nothing is allocated after construction. Not thread-safe: the link's
 * thread (or a lock the link holds) calls it.
 */
public final class PeerHandles {
    private final long[] generation;
    private final boolean[] held;
    private final int[] freed;
    private int freedHead;
    private int freedCount;
    private int fresh;
    private int inUse;

    /** @param capacity handles the link may hold at once (1 ..) */
    public PeerHandles(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        generation = new long[capacity];
        held = new boolean[capacity];
        freed = new int[capacity];
    }

    /** A free handle, now held with its next generation; -1 when every handle is held. */
    public int take() {
        int h;
        if (fresh < held.length) {
            h = fresh++;
        } else if (freedCount > 0) {
            h = freed[freedHead];
            freedHead = (freedHead + 1) % freed.length;
            freedCount--;
        } else {
            return -1;
        }
        held[h] = true;
        generation[h]++;
        inUse++;
        return h;
    }

    /** Gives {@code handle} back; one that is not held is ignored (so a second free changes nothing). */
    public void free(int handle) {
        if (handle < 0 || handle >= held.length || !held[handle]) {
            return;
        }
        held[handle] = false;
        freed[(freedHead + freedCount) % freed.length] = handle;
        freedCount++;
        inUse--;
    }

    /** The generation of {@code handle}'s current (or last) holder; 0 for one never taken or out of range. */
    public long generation(int handle) {
        return handle >= 0 && handle < held.length ? generation[handle] : 0;
    }

    /** True when {@code handle} is held now, by the holder that got {@code gen}. */
    public boolean matches(int handle, long gen) {
        return handle >= 0 && handle < held.length && held[handle] && generation[handle] == gen;
    }

    /** True when {@code handle} is held now. */
    public boolean isHeld(int handle) {
        return handle >= 0 && handle < held.length && held[handle];
    }

    /** Handles held now, 0..{@link #capacity()}. */
    public int inUse() {
        return inUse;
    }

    /** Handles the link may hold at once (fixed at construction). */
    public int capacity() {
        return held.length;
    }
}
