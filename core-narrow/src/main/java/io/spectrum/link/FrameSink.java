package io.spectrum.link;

/**
 * Takes received frames into buffers it supplies ({@link ReceivesInto#pollInto}): the link copies
 * each frame once, from its socket's or native buffer straight into {@link #frameBuffer}, instead of
 * into a buffer of its own that the receiver then copies again. Called on the thread that polls.
 */
public interface FrameSink {
    /**
     * A buffer of at least {@code len} bytes for the next frame. It stays the sink's: the link may
     * write a frame into it and then discard that frame (malformed, from a sender it refuses), and
     * the sink hands the same buffer out again until {@link #onFrameIn} takes it. Never null: a sink
     * with no room left answers a scratch buffer and drops the frame in {@link #onFrameIn}.
     */
    byte[] frameBuffer(int len);

    /**
     * The frame the link wrote at {@code [0, len)} of the buffer {@link #frameBuffer} last answered,
     * from {@code peer} of {@code link}; from now on that buffer belongs to the sink's receiver.
     */
    void onFrameIn(Link link, int peer, int len);
}
