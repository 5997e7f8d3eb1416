package io.spectrum.client;

import io.spectrum.testing.MemoryLink;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A NarrowNode in this thread behind an in-memory link, and the one client on the other end. The
 * client's poll rounds also poll the node, so a request is answered within the client's own wait,
 * deterministically.
 */
final class NodeFixture implements AutoCloseable {
    // the client writes undeclared test vertices; the declaration gate has its own tests in core-narrow
    final NarrowNode node = new NarrowNode(NodeConfig.builder().remoteWritesToUndeclared(true).build());
    final MemoryLink nodeEnd;
    final MemoryLink clientEnd;
    final PeerClient client;

    NodeFixture() {
        MemoryLink[] p = MemoryLink.pair();
        nodeEnd = p[0];
        clientEnd = p[1];
        node.attach(nodeEnd);
        client = new PeerClient(new LinkTransport(clientEnd, 0), Duration.ofSeconds(5), "/t/r/");
        client.onPump(node::poll);
    }

    /** The owner writes {@code v} (a VALUE of {@code width} bytes) to {@code path}, creating it. */
    void set(String path, long v, int width) {
        assertEquals(WireError.OK, node.write(NodePath.of(path), value(v, width), 0, value(v, width).length));
    }

    static byte[] value(long v, int width) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, width);
        return Arrays.copyOf(b, w.length());
    }

    @Override
    public void close() {
        client.close();
        node.close();
    }
}
