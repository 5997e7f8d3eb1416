package io.spectrum.wide.link;

/**
 * One peer's bounded outbound queue on a {@link QueuedLink}, a ring of pooled frames owned by the link's
 * I/O thread, with the slow-consumer bookkeeping: drops in the current window, the disconnected state and
 * the session generation. The counters are volatile so an operator reads them from any thread
 * ({@link PeerQueueStats}).
 */
final class PeerQueue {
    /** Known to the I/O thread, not heard from (or reported down by the inner link). */
    static final int DOWN = 0;
    static final int UP = 1;
    /** Disconnected as a slow consumer: gets no frames until it rejoins. */
    static final int DISCONNECTED = 2;

    final int peer;
    private final Frame[] ring;
    private int head;
    private int size;

    volatile int state = DOWN;
    /** Bumped at every disconnect: frames the node queued for an earlier session are dropped. */
    int gen;
    long disconnectedAt;
    long windowStart;
    int windowDrops;
    /** The inner link answered FLOW_BACKPRESSURE on the last try. */
    boolean blocked;
    /** In the I/O thread's list of peers with queued frames. */
    boolean active;

    volatile int depth;
    volatile int peak;
    volatile long sent;
    volatile long dropped;
    volatile long disconnects;

    PeerQueue(int peer, int capacity) {
        this.peer = peer;
        this.ring = new Frame[capacity];
    }

    int capacity() {
        return ring.length;
    }

    boolean isFull() {
        return size == ring.length;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    Frame head() {
        return ring[head];
    }

    /** Appends a frame; the caller made room first. */
    void push(Frame f) {
        int tail = head + size;
        if (tail >= ring.length) {
            tail -= ring.length;
        }
        ring[tail] = f;
        size++;
        depth = size;
        if (size > peak) {
            peak = size;
        }
    }

    /**
     * Removes and returns the oldest data frame (a delivery), or the oldest frame when none is data: a
     * full queue sheds stale deliveries before it sheds a reply or a probe. The others keep their order.
     */
    Frame dropOldestData() {
        int n = ring.length;
        int k = 0;
        while (k < size && !ring[wrap(head + k, n)].data) {
            k++;
        }
        if (k == size || k == 0) {
            return pop();
        }
        Frame victim = ring[wrap(head + k, n)];
        for (int j = k; j < size - 1; j++) {
            ring[wrap(head + j, n)] = ring[wrap(head + j + 1, n)];
        }
        ring[wrap(head + size - 1, n)] = null;
        size--;
        depth = size;
        return victim;
    }

    private static int wrap(int i, int n) {
        return i >= n ? i - n : i;
    }

    /** Removes and returns the oldest frame, or null. */
    Frame pop() {
        if (size == 0) {
            return null;
        }
        Frame f = ring[head];
        ring[head] = null;
        head = head + 1 == ring.length ? 0 : head + 1;
        size--;
        depth = size;
        return f;
    }

}
