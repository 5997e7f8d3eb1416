package io.spectrum.board.app;

/** Hears a peer's accepted write of an {@link AppVertex}, on the node's loop. */
@FunctionalInterface
public interface WriteHandler {
    void onWrite(AppVertex vertex, long raw);
}
