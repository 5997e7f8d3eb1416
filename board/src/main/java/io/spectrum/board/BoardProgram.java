package io.spectrum.board;

import io.spectrum.node.NarrowNode;

/**
 * What a {@link Board} node publishes, when it is not the demo: declares its vertices, then
 * publishes on its own schedule on the node's thread ({@code spectrum replay} runs a recording this
 * way, on the same links and options as {@code spectrum board}).
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
}
