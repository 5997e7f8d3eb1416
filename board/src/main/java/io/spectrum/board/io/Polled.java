package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;

/**
 * A source read every period on the node's loop (and once at start). A failed read publishes
 * nothing and is reported once, until a read succeeds again, so a loose sensor does not flood the log.
 */
abstract class Polled implements Binding {
    private final long periodMillis;
    private final FailureReport report = new FailureReport();

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
            report.worked(vertex.path(), describe());
        } catch (Exception e) {
            report.failed(vertex.path(), describe(), e.getMessage());
        }
    }

    long periodMillis() {
        return periodMillis;
    }
}
