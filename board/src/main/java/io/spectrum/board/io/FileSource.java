package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;
import io.spectrum.wire.TlvType;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file's content every period, the fallback for what has no source kind: for a VALUE vertex exactly
 * one number in the vertex's unit ({@link Sysfs#numberIn}); for a NAME vertex its text. A file that
 * cannot be read, or whose text is not that, is a failed read: nothing is published and the vertex is
 * marked stale with the reason ({@code file /run/level: not a number: "garbage"}).
 */
public final class FileSource extends Polled {
    private final Path file;

    /** Reads {@code file} at start and every {@code periodMillis} (0 or less: only at start). */
    public FileSource(Path file, long periodMillis) {
        super(periodMillis);
        this.file = file;
    }

    @Override
    void sample(AppVertex vertex) throws IOException {
        String text;
        try {
            text = Sysfs.text(file);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException("does not exist");
        } catch (IOException e) {
            throw new IOException("cannot read it: " + e.getMessage());
        }
        publish(vertex, text);
    }

    /** Publishes text as the vertex holds it; throws with the reason when it is not that or does not fit. */
    static void publish(AppVertex vertex, String text) throws IOException {
        if (vertex.schema().type() == TlvType.VALUE) {
            double v = Sysfs.numberIn(text, vertex.schema());
            published(vertex.publishUnit(v), vertex, Sysfs.quote(text.trim()));
        } else {
            published(vertex.publishText(text), vertex, Sysfs.quote(text));
        }
    }

    @Override
    public String describe() {
        return "file " + file;
    }
}
