package io.spectrum.link.serial;

import io.spectrum.link.serial.pty.PtyPair;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A {@link PtyPair} ({@code ttyA <-> ttyB}) in a scratch folder that a test can unplug and plug in
 * again: {@link #unplug()} closes the pair (both devices hang up and their links vanish), and
 * {@link #replug()} makes a new pair under the same link names, as a re-plugged adapter would look.
 */
final class ReplugPty implements AutoCloseable {
    final Path dir;
    final Path a;
    final Path b;
    private PtyPair pair;

    ReplugPty(Path dir) throws IOException {
        this.dir = dir;
        this.a = dir.resolve("ttyA");
        this.b = dir.resolve("ttyB");
        plug();
    }

    private void plug() throws IOException {
        pair = new PtyPair(a, b, dir.resolve("pty.log"));
    }

    /** Closes the pair: both pty ends vanish. */
    void unplug() {
        if (pair != null) {
            pair.close();
            pair = null;
        }
    }

    /** A new pair under the same names (new /dev/pts numbers). */
    void replug() throws IOException {
        unplug();
        plug();
    }

    @Override
    public void close() {
        unplug();
    }
}
