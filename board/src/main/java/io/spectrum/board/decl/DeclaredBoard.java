package io.spectrum.board.decl;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardApp;
import io.spectrum.board.app.BoardContext;
import io.spectrum.wire.WireError;

/**
 * The board file's vertices as a {@link BoardApp}: declares each, publishes its initial value, opens
 * its source and sink. A declared board and a user's app run through the same API.
 */
public final class DeclaredBoard implements BoardApp {
    private final BoardFile file;

    /** The app of {@code file}'s vertices (a file the parser has checked). */
    public DeclaredBoard(BoardFile file) {
        this.file = file;
    }

    @Override
    public void start(BoardContext board) throws Exception {
        for (BoardFile.Vertex v : file.vertices()) {
            String where = file.file() + ":" + v.line() + ": " + v.path();
            AppVertex vertex;
            try {
                vertex = board.declare(v.path(), v.schema());
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(where + ": " + e.getMessage());
            }
            if (v.initial() != null && vertex.publish(v.initial()) != WireError.OK) {
                throw new IllegalStateException(where + ": initial " + v.initial() + " does not fit " + v.schema());
            }
            for (var b : new io.spectrum.board.io.Binding[] {v.source(), v.sink()}) {
                if (b == null) {
                    continue;
                }
                try {
                    b.open(board, vertex);
                } catch (Exception e) {
                    throw new IllegalStateException(where + ": cannot open " + b.describe() + ": " + message(e));
                }
            }
        }
    }

    static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m.replace('\n', ' ');
    }

    @Override
    public void stop() {
        for (BoardFile.Vertex v : file.vertices()) {
            for (var b : new io.spectrum.board.io.Binding[] {v.source(), v.sink()}) {
                if (b != null) {
                    b.close();
                }
            }
        }
        if (file.mockPins() != null) {
            file.mockPins().close();
        }
    }
}
