package io.spectrum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Comments and docs stand on their own: production sources ({@code <module>/src/main/**.java}),
 * {@code docs/**.md} and README.md state a rule or link to {@code docs/}, and never cite what a
 * reader of the project does not have: an issue number, a seed, the wire digest, the design
 * document's sections, the shared reference files or a row id of the implementation notes.
 * Public references (libtracer's RFC numbers, e.g. {@code RFC-0035 §5.1}) are fine.
 */
class NoCitationsTest {

    /** One line that cites something private. */
    static final Pattern CITATION = Pattern.compile(String.join("|",
            "[Ii]ssue [0-9]+",
            "[Ss]eed 00[0-9]",
            "seed `?00",
            "digest §",
            "wire digest",
            "DESIGN(\\.md)? §",
            "DESIGN\\.md",
            "shared/reference",
            "shared/seeds",
            "(ABP|Flybus|reference'?s?) row [A-Z]-[0-9]+",
            "reference('s)? [A-Z]-[0-9]+"));

    /** The repository root: Maven runs a module's tests with the module directory as cwd. */
    static Path root() {
        Path cwd = Paths.get("").toAbsolutePath();
        for (Path p = cwd; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isDirectory(p.resolve("docs"))) {
                return p;
            }
        }
        throw new AssertionError("no repository root (pom.xml beside docs/) above " + cwd);
    }

    /** The citations in one file's lines, as {@code name:line: text}. */
    static List<String> citations(String name, List<String> lines) {
        List<String> hits = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (CITATION.matcher(lines.get(i)).find()) {
                hits.add(name + ":" + (i + 1) + ": " + lines.get(i).strip());
            }
        }
        return hits;
    }

    static List<Path> checkedFiles(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : (Iterable<Path>) modules.sorted()::iterator) {
                Path main = module.resolve("src").resolve("main");
                if (Files.isDirectory(main)) {
                    try (Stream<Path> s = Files.walk(main)) {
                        s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
                    }
                }
            }
        }
        try (Stream<Path> s = Files.walk(root.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        files.add(root.resolve("README.md"));
        return files;
    }

    @Test
    void productionSourcesAndDocsCiteNoIssueSeedDigestOrDesignSection() throws IOException {
        Path root = root();
        assertTrue(Files.isRegularFile(root.resolve("pom.xml")), "no pom.xml at " + root);
        List<Path> files = checkedFiles(root);
        assertTrue(files.size() > 50, "found only " + files.size() + " files under " + root);
        List<String> hits = new ArrayList<>();
        for (Path f : files) {
            List<String> lines;
            try {
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(f.toString(), e);
            }
            hits.addAll(citations(root.relativize(f).toString(), lines));
        }
        assertTrue(hits.isEmpty(), hits.size() + " citation(s) of something a reader does not have; state the"
                + " rule itself or link to docs/ instead:\n" + String.join("\n", hits));
    }

    @Test
    void theMatcherReportsACitationAndLeavesAPublicRfcAlone() {
        List<String> hits = citations("Sample.java", List.of(
                " * Each peer's share (issue 11 item 4): slots and awaits.",
                " * The subscriber list (RFC-0035 §5.1), rule 2.",
                " * Strict reading (DESIGN §4 decision 4).",
                " * Lanes as the local link schedules them (seed 001 §9).",
                " * Replies match by route (digest §5.2).",
                " * Stale purge keeps the sequence (the reference's A-22)."));
        assertEquals(List.of(
                "Sample.java:1: * Each peer's share (issue 11 item 4): slots and awaits.",
                "Sample.java:3: * Strict reading (DESIGN §4 decision 4).",
                "Sample.java:4: * Lanes as the local link schedules them (seed 001 §9).",
                "Sample.java:5: * Replies match by route (digest §5.2).",
                "Sample.java:6: * Stale purge keeps the sequence (the reference's A-22)."), hits);
    }
}
