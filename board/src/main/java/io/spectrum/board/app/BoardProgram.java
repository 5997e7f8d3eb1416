package io.spectrum.board.app;

import io.spectrum.node.NarrowNode;
import io.spectrum.runtime.NodeLoop;

/**
 * What a {@link io.spectrum.board.Board} node publishes: declares its vertices, then publishes on its own schedule on
 * the node's thread. The board file's vertices and board apps run this way
 * ({@link AppHost}), and so does {@code spectrum replay} (a recording), on the
 * same links and options as {@code spectrum board}.
 */
public interface BoardProgram {
    /** Declares the vertices and writes any first values, before the node's loop starts. */
    void install(NarrowNode node);

    /**
     * Publishes what is due at {@code now} ({@link System#nanoTime()} scale), on the node's thread.
     *
     * @return when it is next due
     */
    long step(NarrowNode node, long now);

    /** The loop that will run the node (made after {@link #install}): for work handed over from other threads. */
    default void bind(NodeLoop loop) {
    }

    /** The board is closing (after its loop stopped): release pins and threads. */
    default void close() {
    }
}
