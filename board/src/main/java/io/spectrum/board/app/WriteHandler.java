package io.spectrum.board.app;

/** Hears a peer's accepted write of an {@link AppVertex}, on the node's loop. */
@FunctionalInterface
public interface WriteHandler {
    /**
     * A peer wrote {@code raw} to {@code vertex} (already accepted and stored); runs on the node's loop and must not
     * block.
     */
    void onWrite(AppVertex vertex, long raw);
}
