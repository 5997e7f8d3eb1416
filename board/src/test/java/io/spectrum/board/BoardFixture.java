package io.spectrum.board;

import io.spectrum.board.app.AppHost;
import io.spectrum.board.decl.BoardFile;
import io.spectrum.board.decl.BoardFileParser;
import io.spectrum.board.decl.BoardSetup;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.nio.file.Path;
import java.util.List;

/**
 * A board from a board file's text, driven by hand on the test's thread: {@link #step} is the node
 * loop's turn (signals from pi4j's threads and write handlers run there).
 */
public final class BoardFixture implements AutoCloseable {
    public final NarrowNode node = new NarrowNode(NodeConfig.defaults());
    public final AppHost host;
    private final byte[] buf = new byte[256];

    public BoardFixture(String yaml, Path base) throws Exception {
        this(yaml, base, List.of());
    }

    public BoardFixture(String yaml, Path base, List<Path> appJars) throws Exception {
        this(new BoardFileParser(-1).parse("test.yaml", yaml, base), appJars);
    }

    /** A parsed board file, perhaps with a source a test made itself (one that talks to a stand-in kernel). */
    public BoardFixture(BoardFile file, List<Path> appJars) throws Exception {
        host = BoardSetup.host(file, "fixture", appJars);
        host.install(node);
    }

    /** One loop turn at {@code now + aheadMillis} (timers that are due then run). */
    public void step(long aheadMillis) {
        host.step(node, System.nanoTime() + aheadMillis * 1_000_000L);
    }

    /** The vertex's raw value as its declaration reads it. */
    public long raw(String path) {
        NodePath p = NodePath.of(path);
        int n = node.read(p, buf, 0, buf.length);
        if (n < 0) {
            throw new AssertionError(path + " holds no value: " + WireError.identity(-n));
        }
        VertexSchema s = node.declaration(p);
        return s.rawValue(buf, n - s.width());
    }

    public boolean has(String path) {
        return node.read(NodePath.of(path), buf, 0, buf.length) > 0;
    }

    /** A write as a peer's would arrive (through the node, admitted against the declaration). */
    public int write(String path, long raw) {
        VertexSchema s = node.declaration(NodePath.of(path));
        int n = new TlvWriter().wrap(buf, 0, buf.length).value(raw, s.width()).length();
        int r = node.write(NodePath.of(path), buf, 0, n);
        step(0);
        return r;
    }

    @Override
    public void close() {
        host.close();
        node.close();
    }
}
