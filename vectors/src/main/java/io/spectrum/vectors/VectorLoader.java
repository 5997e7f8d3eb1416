package io.spectrum.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Loads vector directories laid out as {@code <root>/<category>/<case>/}. The default sets are the
 * classpath resources {@code libtracer-v1/} (the upstream conformance copy) and {@code spectrum-v1/}
 * (this project's own vectors); the system property {@value #DIR_PROPERTY} replaces them with any
 * directory on disk.
 */
public final class VectorLoader {
    /** System property naming a vector directory to use instead of the classpath sets. */
    public static final String DIR_PROPERTY = "spectrum.vectors.dir";
    /** Classpath directory (and suite name) of the upstream libtracer conformance vectors. */
    public static final String LIBTRACER_V1 = "libtracer-v1";
    /**
     * Classpath directory (and suite name) of Spectrum's own vectors for its extensions ({@code
     * docs/extensions.md}).
     */
    public static final String SPECTRUM_V1 = "spectrum-v1";

    private static final ObjectMapper JSON = new ObjectMapper();

    private VectorLoader() {
    }

    /** The vectors of {@value #DIR_PROPERTY} when set, else both classpath sets. */
    public static List<Vector> loadDefault() {
        String dir = System.getProperty(DIR_PROPERTY);
        if (dir != null && !dir.isBlank()) {
            return loadDirectory(Path.of(dir));
        }
        List<Vector> all = new ArrayList<>(loadClasspath(LIBTRACER_V1));
        all.addAll(loadClasspath(SPECTRUM_V1));
        return all;
    }

    /** One classpath set (works from target/classes and from inside a jar). */
    public static List<Vector> loadClasspath(String set) {
        URL url = VectorLoader.class.getClassLoader().getResource(set);
        if (url == null) {
            throw new IllegalStateException("vector set not on the classpath: " + set);
        }
        try {
            URI uri = url.toURI();
            if ("jar".equals(uri.getScheme())) {
                FileSystem fs;
                try {
                    fs = FileSystems.newFileSystem(uri, Map.of());
                } catch (FileSystemAlreadyExistsException e) {
                    fs = FileSystems.getFileSystem(uri);
                }
                return load(fs.provider().getPath(uri), set);
            }
            return load(Path.of(uri), set);
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException("cannot open vector set " + set + ": " + e.getMessage(), e);
        }
    }

    /** Every {@code <category>/<case>} under {@code root}, sorted by id; the suite is the root's name. */
    public static List<Vector> loadDirectory(Path root) {
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("not a vector directory: " + root);
        }
        Path name = root.toAbsolutePath().normalize().getFileName();
        return load(root, name == null ? root.toString() : name.toString());
    }

    private static List<Vector> load(Path root, String suite) {
        List<Vector> out = new ArrayList<>();
        try (Stream<Path> categories = Files.list(root)) {
            for (Path cat : categories.filter(Files::isDirectory).toList()) {
                try (Stream<Path> cases = Files.list(cat)) {
                    for (Path c : cases.filter(Files::isDirectory).toList()) {
                        Vector v = loadCase(suite, fileName(cat), c);
                        if (v != null) {
                            out.add(v);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.sort(Comparator.comparing(Vector::id));
        return out;
    }

    private static String fileName(Path p) {
        String s = p.getFileName().toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static Vector loadCase(String suite, String category, Path dir) throws IOException {
        Path input = dir.resolve("input.bin");
        Path reject = dir.resolve("reject.bin");
        boolean isReject = Files.exists(reject);
        Path bin = isReject ? reject : input;
        if (!Files.exists(bin)) {
            return null;
        }
        Path exp = dir.resolve("expected.json");
        JsonNode expected = Files.exists(exp) ? JSON.readTree(Files.readAllBytes(exp)) : JSON.createObjectNode();
        return new Vector(suite, category, fileName(dir), Files.readAllBytes(bin), isReject, expected);
    }
}
