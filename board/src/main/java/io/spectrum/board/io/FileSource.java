package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file's content every period, the fallback for what has no source kind: its first number, in the
 * vertex's unit, for a VALUE vertex; its text for a NAME vertex.
 */
public final class FileSource extends Polled {
    private final Path file;

    public FileSource(Path file, long periodMillis) {
        super(periodMillis);
        this.file = file;
    }

    @Override
    void sample(AppVertex vertex) throws IOException {
        publish(vertex, Sysfs.text(file), file.toString());
    }

    /** Publishes text as the vertex holds it; throws when it does not fit. */
    static void publish(AppVertex vertex, String text, String what) throws IOException {
        int r = vertex.schema().type() == TlvType.VALUE
                ? vertex.publishUnit(Sysfs.number(text, what))
                : vertex.publishText(text);
        if (r != WireError.OK) {
            throw new IOException(what + " gave '" + text + "', which does not fit " + vertex.schema());
        }
    }

    @Override
    public String describe() {
        return "file " + file;
    }
}
