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
 * Public references (libtracer's RFC numbers, e.g. {@code RFC-0035 §5.1}, its upstream
 * {@code libtracer #2045}, its {@code tr::} error names) are fine.
 *
 * <p>The pattern is the build's: Checkstyle's {@code noCitations} rule in
 * {@code build/javadoc-rules.xml}, which fails {@code mvn verify} (and {@code mvn checkstyle:check})
 * on a main source, and, from the root pom, on docs/ and README.md. This test reads it from there
 * and proves it on fixtures (the negative control), so the rule has one owner.
 */
class NoCitationsTest {

    /** One line that cites something private: the {@code format} of the build's {@code noCitations} rule. */
    static final Pattern CITATION = Pattern.compile(buildRule(root().resolve("build").resolve("javadoc-rules.xml")));

    /** The {@code format} property of the RegexpSingleline module whose id is {@code noCitations}. */
    static String buildRule(Path config) {
        try {
            javax.xml.parsers.DocumentBuilderFactory f = javax.xml.parsers.DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            org.w3c.dom.NodeList modules = f.newDocumentBuilder().parse(config.toFile()).getElementsByTagName("module");
            for (int i = 0; i < modules.getLength(); i++) {
                org.w3c.dom.Element m = (org.w3c.dom.Element) modules.item(i);
                String id = null;
                String format = null;
                org.w3c.dom.NodeList props = m.getElementsByTagName("property");
                for (int j = 0; j < props.getLength(); j++) {
                    org.w3c.dom.Element p = (org.w3c.dom.Element) props.item(j);
                    if (p.getParentNode() != m) {
                        continue;
                    }
                    if (p.getAttribute("name").equals("id")) {
                        id = p.getAttribute("value");
                    } else if (p.getAttribute("name").equals("format")) {
                        format = p.getAttribute("value");
                    }
                }
                if (m.getAttribute("name").equals("RegexpSingleline") && "noCitations".equals(id) && format != null) {
                    return format;
                }
            }
        } catch (IOException | javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
            throw new AssertionError("cannot read " + config + ": " + e.getMessage(), e);
        }
        throw new AssertionError(config + " has no RegexpSingleline with id noCitations");
    }

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
    void theBuildRuleReportsACitationAndLeavesLibtracersOwnReferencesAlone() {
        List<String> hits = citations("Sample.java", List.of(
                " * Each peer's share (issue 11 item 4): slots and awaits.",
                " * The subscriber list (RFC-0035 §5.1), rule 2.",
                " * Strict reading (DESIGN §4 decision 4).",
                " * Lanes as the local link schedules them (seed 001 §9).",
                " * Replies match by route (digest §5.2).",
                " * Stale purge keeps the sequence (the reference's A-22).",
                "See issue #26 for the renderer.",
                "Measured against libtracer #2045 (a public libtracer issue); libtracer issue #2045 too.",
                "Refused with tr::path::not_found (see docs/extensions.md).",
                "Design: DESIGN.md, the seeds (seed `001`)."));
        assertEquals(List.of(
                "Sample.java:1: * Each peer's share (issue 11 item 4): slots and awaits.",
                "Sample.java:3: * Strict reading (DESIGN §4 decision 4).",
                "Sample.java:4: * Lanes as the local link schedules them (seed 001 §9).",
                "Sample.java:5: * Replies match by route (digest §5.2).",
                "Sample.java:6: * Stale purge keeps the sequence (the reference's A-22).",
                "Sample.java:7: See issue #26 for the renderer.",
                "Sample.java:10: Design: DESIGN.md, the seeds (seed `001`)."), hits);
    }
}
