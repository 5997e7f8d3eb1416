package io.spectrum.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Test helper: the accept frames of the vector copies in the reactor (vectors/src/main/resources),
 * located through the {@code spectrum.root} property Surefire sets to the reactor root.
 */
final class VectorFrames {
    private VectorFrames() {
    }

    static Path root() {
        String r = System.getProperty("spectrum.root");
        Path base = r != null ? Path.of(r) : Path.of("..");
        Path p = base.resolve("vectors/src/main/resources");
        if (!Files.isDirectory(p)) {
            p = Path.of("..").resolve("vectors/src/main/resources");
        }
        return p;
    }

    /** Every input.bin (accept case) of both sets, sorted by path. */
    static List<byte[]> acceptFrames() {
        return load("input.bin");
    }

    static List<byte[]> rejectFrames() {
        return load("reject.bin");
    }

    private static List<byte[]> load(String fileName) {
        List<byte[]> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root())) {
            for (Path p : s.filter(x -> x.getFileName().toString().equals(fileName)).sorted().toList()) {
                out.add(Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (out.isEmpty() && fileName.equals("input.bin")) {
            throw new IllegalStateException("no vectors under " + root());
        }
        return out;
    }
}
