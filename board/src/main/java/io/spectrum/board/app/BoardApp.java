package io.spectrum.board.app;

/**
 * A user's own board code (docs/board.md, "Board apps"): started once, before the board serves
 * peers, with the {@link BoardContext} through which it declares its vertices, publishes, hears
 * writes and schedules periodic work on the node's loop. A public no-argument constructor is
 * required; the board names the class in its board file ({@code apps:}) and loads it from
 * {@code /opt/spectrum/apps/*.jar} ({@code spectrum flash --app app.jar}) or {@code --app JAR}.
 */
public interface BoardApp {
    /**
     * Declares the app's vertices and registers its handlers. Runs on the node's thread before the
     * loop starts; an exception refuses the board's start (nothing is served).
     */
    void start(BoardContext board) throws Exception;

    /** Releases what {@link #start} opened (pins are released by the board's pi4j context). */
    default void stop() {
    }
}
