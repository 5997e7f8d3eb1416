package io.spectrum.board;

import io.spectrum.board.app.AppHost;
import io.spectrum.board.app.BoardProgram;
import io.spectrum.board.decl.BoardFile;
import io.spectrum.board.decl.BoardFileError;
import io.spectrum.board.decl.BoardSetup;
import io.spectrum.runtime.NodeLoop;
import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.WireError;

import java.util.List;

/**
 * A board: a NARROW node on one or more links running a {@link BoardProgram}, by default its board
 * file's vertices and apps ({@link AppHost}). Without a file it is the demo board, from the shipped
 * demo-board.yaml ({@link BoardSetup#demo}):
 *
 * <ul>
 *   <li>{@code /temp}: VALUE i16 in centi-degrees Celsius (unit {@code Cel}, scale 0.01),
 *       read-only, updated every period</li>
 *   <li>{@code /humidity}: VALUE u16 per mille (unit {@code %}, scale 0.1), read-only,
 *       updated every period</li>
 *   <li>{@code /counter}: VALUE u32, read-only, +1 every period</li>
 *   <li>{@code /led}: VALUE u8 0..1, writable by peers (starts at 0)</li>
 *   <li>{@code /name}: NAME (at most 64 bytes), read-only, the board's name</li>
 * </ul>
 * The paths are the board's own: a host that mounts the board as {@code board1} shows
 * {@code /board1/temp}. Each is declared, so the node refuses what does not fit and peers can read the declaration as
 * the vertex's {@code settings.app} keys. The same vertices as the demo stand-in, so
 * {@code spectrum demo} can start real boards.
 */
public final class Board implements AutoCloseable {
    /** The demo's temperature: VALUE i16 in centi-degrees Celsius, read-only. */
    public static final NodePath TEMP = NodePath.of("/temp");
    /** The demo's humidity: VALUE u16 in per mille, read-only. */
    public static final NodePath HUMIDITY = NodePath.of("/humidity");
    /** The demo's counter: VALUE u32, +1 every period, read-only. */
    public static final NodePath COUNTER = NodePath.of("/counter");
    /** The demo's LED: VALUE u8 0..1, writable by peers. */
    public static final NodePath LED = NodePath.of("/led");
    /** The demo's name: the board's name as a NAME (at most 64 bytes), read-only. */
    public static final NodePath NAME = NodePath.of("/name");

    private final String name;
    private final NodeLoop loop;
    private final BoardProgram program;

    /** The demo board, its sim sources publishing every {@code periodMillis} (0: once, at start). */
    public Board(String name, long periodMillis) {
        this(name, periodMillis, NodeConfig.defaults());
    }

    /** The demo board on a node sized by {@code config}, publishing every {@code periodMillis} (0: once, at start). */
    public Board(String name, long periodMillis, NodeConfig config) {
        this(name, config, demoProgram(name, periodMillis));
    }

    /**
     * A board that runs {@code program} (a board file's {@link AppHost}, a recording): nothing
     * declared or published but what the program does. A program that refuses to install (a pin
     * that is not there) is thrown as {@link IllegalStateException}; nothing is served then.
     */
    public Board(String name, NodeConfig config, BoardProgram program) {
        this.name = name;
        this.program = program;
        NarrowNode node = new NarrowNode(config);
        try {
            program.install(node);
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
        this.loop = new NodeLoop(name, node, now -> program.step(node, now));
        program.bind(loop);
    }

    private static BoardProgram demoProgram(String name, long periodMillis) {
        try {
            return BoardSetup.host(BoardSetup.demo(periodMillis), name, List.of());
        } catch (BoardFileError e) {
            throw new IllegalStateException("the shipped demo board file is broken: " + e.getMessage(), e);
        }
    }

    /** Declares the demo vertices on {@code node} (what they hold, their units, who may write), as the demo file does. */
    public static void declare(Node node) {
        for (BoardFile.Vertex v : BoardSetup.demo(-1).vertices()) {
            int r = node.declare(NodePath.of(v.path()), v.schema());
            if (r != WireError.OK) {
                throw new IllegalStateException("cannot declare " + v.path() + ": " + WireError.identity(r));
            }
        }
    }

    /** Serves the node on {@code link} too; call before {@link #start()} (or from a task on the node's loop). */
    public void attach(Link link) {
        loop.attach(link);
    }

    /** Starts the node's loop on its own thread (the program's periodic work with it). */
    public void start() {
        loop.start();
    }

    /** The board's name (its node's, the demo's {@code /board/name}). */
    public String name() {
        return name;
    }

    /** The loop that runs the board's node; other threads reach the node only through it. */
    public NodeLoop loop() {
        return loop;
    }

    /** What the board runs. */
    public BoardProgram program() {
        return program;
    }

    @Override
    public void close() {
        loop.close();
        program.close();
    }
}
