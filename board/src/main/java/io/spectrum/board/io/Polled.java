package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;
import io.spectrum.wire.WireError;

import java.io.IOException;

/**
 * A source read every period on the node's loop (and once at start). A failed read publishes
 * nothing; its vertex is marked stale with the reason until a read works again ({@link SourceHealth}).
 */
abstract class Polled implements Binding {
    private final long periodMillis;
    private SourceHealth health;

    Polled(long periodMillis) {
        this.periodMillis = periodMillis;
    }

    @Override
    public void open(BoardContext board, AppVertex vertex) throws Exception {
        health = new SourceHealth(describe());
        prepare(board, vertex);
        read(vertex);
        if (periodMillis > 0) {
            board.every(periodMillis, () -> read(vertex));
        }
    }

    /** Opens what the reads need (a bus, a file path). */
    void prepare(BoardContext board, AppVertex vertex) throws Exception {
    }

    /** Reads and publishes once; throws (with the reason) when it cannot read or what it read does not fit. */
    abstract void sample(AppVertex vertex) throws Exception;

    final void read(AppVertex vertex) {
        try {
            sample(vertex);
            health.worked(vertex);
        } catch (Exception e) {
            health.failed(vertex, e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName());
        }
    }

    /**
     * Throws when a publish of {@code what} was refused: a value outside the vertex's declaration is
     * a failed read, not one to keep quiet about.
     */
    static void published(int status, AppVertex vertex, Object what) throws IOException {
        if (status != WireError.OK) {
            throw new IOException(what + " does not fit the vertex (" + vertex.schema() + "): " + WireError.identity(status));
        }
    }

    long periodMillis() {
        return periodMillis;
    }
}
