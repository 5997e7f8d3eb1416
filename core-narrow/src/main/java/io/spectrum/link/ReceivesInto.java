package io.spectrum.link;

/**
 * A link that can receive straight into its caller's buffers ({@link FrameSink}), saving the copy
 * out of its own receive buffer. A driver that queues frames for another thread (a per-link I/O
 * thread) uses it where the link offers it and {@link Link#poll} elsewhere; both deliver the same
 * frames, counted and checked the same way.
 */
public interface ReceivesInto {
    /**
     * As {@link Link#poll}, with each frame written into a buffer {@code sink} supplies and handed
     * over with {@link FrameSink#onFrameIn}.
     *
     * @return frames handed to the sink
     */
    int pollInto(FrameSink sink, int maxFrames);
}
