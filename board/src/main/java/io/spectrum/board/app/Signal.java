package io.spectrum.board.app;

/** Work to run once on the node's loop, raised from any thread ({@link BoardContext#signal}). */
public interface Signal {
    /** Has the work run on the node's loop soon; raising it again before it ran runs it once. */
    void raise();
}
