package io.spectrum.wide.link;

/**
 * One pooled frame (or peer event) on its way between a link's I/O thread and the node thread. Owned by
 * exactly one thread at a time: the queue hand-off publishes it.
 */
final class Frame {
    static final int DATA = 0;
    static final int UP = 1;
    static final int DOWN = 2;
    /** Down because the I/O thread disconnected the peer as a slow consumer. */
    static final int DISCONNECTED = 3;
    static final int PROBE = 4;

    byte[] buf;
    int len;
    int peer;
    int kind;
    /** The peer's session generation the node knew when it queued an outbound frame. */
    int gen;
    /** An outbound FWD WRITE (a delivery, a publish): what a full peer queue drops first. */
    boolean data;

    Frame(int bytes) {
        buf = new byte[bytes];
    }

    /** Copies a frame in, growing the buffer once when the frame is larger than any before. */
    void copyIn(byte[] src, int off, int length) {
        if (length > buf.length) {
            buf = new byte[length];
        }
        System.arraycopy(src, off, buf, 0, length);
        len = length;
    }
}
