package io.spectrum.board;

import io.spectrum.runtime.NodeLoop;
import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.nio.charset.StandardCharsets;

/**
 * A demo board: a NARROW node on one or more links with a few vertices a host (or a test) can read,
 * write and subscribe to.
 *
 * <ul>
 *   <li>{@code /board/temp}: VALUE i16 in centi-degrees Celsius (unit {@code Cel}, scale 0.01),
 *       read-only, updated every period</li>
 *   <li>{@code /board/humidity}: VALUE u16 per mille (unit {@code %}, scale 0.1), read-only,
 *       updated every period</li>
 *   <li>{@code /board/counter}: VALUE u32, read-only, +1 every period</li>
 *   <li>{@code /board/led}: VALUE u8 0..1, writable by peers (starts at 0)</li>
 *   <li>{@code /board/name}: NAME (at most 64 bytes), read-only, the board's name</li>
 * </ul>
 * Each is declared ({@link #declare}), so the node refuses what does not fit and peers can read the
 * declaration as the vertex's {@code settings.app} keys.
 * The same vertices as the demo stand-in, so {@code spectrum demo} can start real boards.
 */
public final class Board implements AutoCloseable {
    public static final NodePath TEMP = NodePath.of("/board/temp");
    public static final NodePath HUMIDITY = NodePath.of("/board/humidity");
    public static final NodePath COUNTER = NodePath.of("/board/counter");
    public static final NodePath LED = NodePath.of("/board/led");
    public static final NodePath NAME = NodePath.of("/board/name");

    private final String name;
    private final NodeLoop loop;
    private final long periodNanos;
    private final double phase;
    private final byte[] buf = new byte[64];
    private final TlvWriter w = new TlvWriter(4);
    private long next;
    private volatile long count;

    public Board(String name, long periodMillis) {
        this(name, periodMillis, NodeConfig.defaults());
    }

    /**
     * A board that runs {@code program} instead of the demo vertices (nothing declared or published
     * but what the program does).
     */
    public Board(String name, NodeConfig config, BoardProgram program) {
        this.name = name;
        this.periodNanos = 0;
        this.phase = 0;
        NarrowNode node = new NarrowNode(config);
        program.install(node);
        this.loop = new NodeLoop(name, node, now -> program.step(node, now));
    }

    public Board(String name, long periodMillis, NodeConfig config) {
        this.name = name;
        this.periodNanos = periodMillis * 1_000_000L;
        this.phase = (name.hashCode() & 0xFF) * 1.3;
        NarrowNode node = new NarrowNode(config);
        declare(node);
        this.loop = new NodeLoop(name, node, this::step);
        publish(LED, 0, 1);
        w.wrap(buf, 0, buf.length).leaf(TlvType.NAME, name.getBytes(StandardCharsets.UTF_8));
        node.write(NAME, buf, 0, w.length());
        publishAll();
    }

    /** Declares the demo vertices on {@code node} (what they hold, their units, who may write). */
    public static void declare(Node node) {
        declare(node, TEMP, VertexSchema.value(2, true).unit("Cel").scale(0.01).readOnly()
                .description("board temperature").build());
        declare(node, HUMIDITY, VertexSchema.value(2, false).unit("%").scale(0.1).range(0, 1000).readOnly()
                .description("relative humidity").build());
        declare(node, COUNTER, VertexSchema.value(4, false).readOnly().description("periods since start").build());
        declare(node, LED, VertexSchema.value(1, false).range(0, 1).writable().description("LED, 1 = on").build());
        declare(node, NAME, VertexSchema.name(64).readOnly().description("the board's name").build());
    }

    private static void declare(Node node, NodePath path, VertexSchema schema) {
        int r = node.declare(path, schema);
        if (r != WireError.OK) {
            throw new IllegalStateException("cannot declare " + path + ": " + WireError.identity(r));
        }
    }

    public void attach(Link link) {
        loop.attach(link);
    }

    public void start() {
        next = System.nanoTime() + periodNanos;
        loop.start();
    }

    public String name() {
        return name;
    }

    public NodeLoop loop() {
        return loop;
    }

    /** Publishes done so far (count of periods). */
    public long count() {
        return count;
    }

    /** The loop's periodic step: publishes when the period has passed; returns when it is next due. */
    private long step(long now) {
        if (periodNanos <= 0) {
            return now + 3_600_000_000_000L;
        }
        if (now - next >= 0) {
            next = now + periodNanos;
            count++;
            publishAll();
        }
        return next;
    }

    private void publishAll() {
        long n = count;
        publish(TEMP, Math.round(2150 + 180 * Math.sin(phase + n / 12.0) + 15 * Math.sin(n * 1.7)), 2);
        publish(HUMIDITY, Math.round(480 + 60 * Math.cos(phase + n / 20.0)), 2);
        publish(COUNTER, n, 4);
    }

    private void publish(NodePath p, long v, int width) {
        w.wrap(buf, 0, buf.length).value(v, width);
        loop.node().write(p, buf, 0, w.length());
    }

    @Override
    public void close() {
        loop.close();
    }
}
