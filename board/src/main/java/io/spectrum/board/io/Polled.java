package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;

/**
 * A source read every period on the node's loop (and once at start). A failed read publishes
 * nothing and is reported once, until a read succeeds again, so a loose sensor does not flood the log.
 */
abstract class Polled implements Binding {
    private final long periodMillis;
    private boolean failing;

    Polled(long periodMillis) {
        this.periodMillis = periodMillis;
    }

    @Override
    public void open(BoardContext board, AppVertex vertex) throws Exception {
        prepare(board, vertex);
        read(vertex);
        if (periodMillis > 0) {
            board.every(periodMillis, () -> read(vertex));
        }
    }

    /** Opens what the reads need (a bus, a file path). */
    void prepare(BoardContext board, AppVertex vertex) throws Exception {
    }

    /** Reads and publishes once. */
    abstract void sample(AppVertex vertex) throws Exception;

    final void read(AppVertex vertex) {
        try {
            sample(vertex);
            if (failing) {
                failing = false;
                System.err.println("board: " + vertex.path() + ": " + describe() + " reads again");
            }
        } catch (Exception e) {
            if (!failing) {
                failing = true;
                System.err.println("board: " + vertex.path() + ": " + describe() + " failed: " + e.getMessage()
                        + " (reported once until it reads again)");
            }
        }
    }

    long periodMillis() {
        return periodMillis;
    }
}
