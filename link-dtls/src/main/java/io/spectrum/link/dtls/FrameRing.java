package io.spectrum.link.dtls;

import java.nio.ByteBuffer;

/**
 * A single-producer single-consumer ring of frame slots, each a byte array of the link's frame size
 * (with a heap buffer over it for the SSLEngine), allocated once. It carries frames (and peer
 * events) between the node's thread and the link's thread without allocating: the producer
 * {@link #claim}s a slot, fills it and {@link #publish}es it; the consumer reads the slot at
 * {@link #peek} and {@link #release}s it.
 */
final class FrameRing {
    static final byte FRAME = 0;
    /** The peer's handshake completed (its certificate was accepted): it is up. */
    static final byte UP = 1;
    /** The peer's association ended (it restarted with a new session, or its table entry was given away). */
    static final byte GONE = 2;

    final byte[][] data;
    final ByteBuffer[] buffer;
    final int[] length;
    final int[] peer;
    final byte[] kind;
    private final int mask;
    private volatile long head;
    private volatile long tail;

    FrameRing(int slots, int frameBytes) {
        int n = Integer.highestOneBit(Math.max(2, slots - 1)) << 1;
        data = new byte[n][];
        buffer = new ByteBuffer[n];
        for (int i = 0; i < n; i++) {
            data[i] = new byte[frameBytes];
            buffer[i] = ByteBuffer.wrap(data[i]);
        }
        length = new int[n];
        peer = new int[n];
        kind = new byte[n];
        mask = n - 1;
    }

    /** The slot to fill next, or -1 when the ring is full (producer side). */
    int claim() {
        long t = tail;
        return t - head > mask ? -1 : (int) (t & mask);
    }

    /** Publishes the claimed slot (producer side). */
    void publish(int slot, byte what, int toPeer, int len) {
        kind[slot] = what;
        peer[slot] = toPeer;
        length[slot] = len;
        tail = tail + 1;
    }

    /** The oldest published slot, or -1 when empty (consumer side). */
    int peek() {
        long h = head;
        return h == tail ? -1 : (int) (h & mask);
    }

    /** Frees the slot {@link #peek} gave (consumer side). */
    void release() {
        head = head + 1;
    }

    boolean isEmpty() {
        return head == tail;
    }
}
