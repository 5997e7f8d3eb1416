package io.spectrum.board.decl;

import io.spectrum.board.io.Binding;
import io.spectrum.board.io.MockPins;
import io.spectrum.node.api.VertexSchema;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A board as its file declares it (docs/board.md): its name, pi4j platform, kernel roots, vertices
 * with their declarations and sources or sinks, and the board apps to start. Made only by
 * {@link BoardFileParser}, which has checked every field, so running it applies all or nothing.
 * Its paths are the board's own, relative to the board (a host mounts them under its mount name).
 * {@code warning} is one line the board prints at start and at a check (a file whose paths repeat
 * the board's name, read with that prefix dropped), or null. {@code backfill} is how many of its last
 * values the board keeps per declared vertex for a host that missed them (docs/board.md "Store and
 * forward"; 0: none).
 */
public record BoardFile(String file, String name, String platform, int pwmChip, MockPins mockPins, Path sys,
                        Path proc, List<Vertex> vertices, List<App> apps, String warning, int backfill) {
    /** The name of a board that neither {@code --name} nor the file's {@code name:} names. */
    public static final String DEFAULT_NAME = "board";

    /** Copies the lists. */
    public BoardFile {
        vertices = List.copyOf(vertices);
        apps = List.copyOf(apps);
    }

    /** The same board without its apps (a check that has no app jars to look in). */
    public BoardFile withoutApps() {
        return new BoardFile(file, name, platform, pwmChip, mockPins, sys, proc, vertices, List.of(), warning, backfill);
    }

    /** One declared vertex: its path and declaration, its first value, what publishes or drives it. */
    public record Vertex(String path, VertexSchema schema, Long initial, Binding source, Binding sink, int line) {
    }

    /** A board app class and its settings. */
    public record App(String className, Map<String, String> settings, int line) {
        /** Copies the settings. */
        public App {
            settings = Map.copyOf(settings);
        }
    }
}
