package io.spectrum.node.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The example of docs/node.md, kept compiling and passing. */
class NodeExampleTest {
    @Test
    void example() {
        // configuration time: size the pools, make path handles and buffers once
        NodeConfig config = NodeConfig.builder().maxVertices(64).maxSubscribers(128).valueBytes(8 * 1024).build();
        Node node = new NarrowNode(config);
        NodePath temp = NodePath.of("/sensor/temp");
        byte[] value = new byte[16];
        TlvWriter w = new TlvWriter();
        List<String> seen = new ArrayList<>();

        // subscribe with a callback; the handle is made here, at subscribe time
        Subscription sub = node.subscribe(temp, 0, (s, v, seq, stale) ->
                seen.add(v.path() + " seq " + seq + (stale ? " (stale)" : "")));
        node.setActivityListener((p, active, n) -> seen.add((active ? "active " : "idle ") + n));

        // hot path: encode into a reused buffer, write, read; nothing is allocated
        int len = w.wrap(value, 0, value.length).value(215, 2).length(); // VALUE u16 215
        assertEquals(WireError.OK, node.write(temp, value, 0, len));
        byte[] out = new byte[16];
        int n = node.read(temp, out, 0, out.length);
        // a vertex with children reads as a tree: POINT{NAME sensor, POINT{NAME temp, VALUE u16 215}}
        byte[] tree = new byte[64];
        int t = node.readTree(NodePath.of("/sensor"), tree, 0, tree.length);

        sub.suspend(); // one bit in the slot: no delivery, not counted
        node.write(temp, value, 0, len);
        sub.resume(); // nothing replayed
        sub.close();

        assertEquals(6, n);
        assertEquals(4 + 10 + 4 + 8 + 6, t);
        // the write made the local host the last publisher; active / idle follow the delivering count
        assertEquals(List.of("/sensor/temp seq 1", "idle 0", "active 1", "idle 0"), seen);
        // links: node.attach(link); then a loop of node.poll(); node.tick();
    }
}
