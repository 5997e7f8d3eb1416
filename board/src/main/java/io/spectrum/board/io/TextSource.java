package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;

/** A NAME vertex's fixed text, published once at start ({@code {name}} is the board's name). */
public final class TextSource implements Binding {
    private final String text;

    /** Publishes {@code text}, {@code {name}} replaced by the board's name. */
    public TextSource(String text) {
        this.text = text;
    }

    @Override
    public void open(BoardContext board, AppVertex vertex) throws Exception {
        int r = vertex.publishText(text.replace("{name}", board.name()));
        if (r != io.spectrum.wire.WireError.OK) {
            throw new IllegalArgumentException("'" + text + "' does not fit " + vertex.schema());
        }
    }

    @Override
    public String describe() {
        return "text";
    }
}
