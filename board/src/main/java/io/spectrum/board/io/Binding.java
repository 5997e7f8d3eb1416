package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;

/**
 * A declared vertex's source (what publishes it) or sink (what a peer's write drives), checked when
 * the board file is read and opened when the board starts, through the board-app API.
 */
public interface Binding {
    /** Opens the pins, buses or files and registers the work; throws when the hardware is not there. */
    void open(BoardContext board, AppVertex vertex) throws Exception;

    /** What it is, for messages: {@code gpio-in BCM 17}. */
    String describe();

    /** Stops what {@link #open} started besides pins (threads, files); pins go with the pi4j context. */
    default void close() {
    }
}
