package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bytes of heap per subscription edge and per vertex of a WideNode (issue 10 item 6), estimated from
 * the used-heap delta around building them (after repeated System.gc()), and printed. No timing and
 * no tight bound is asserted: the figure is a measurement, the assertion only that it is sane.
 */
class HeapFootprintTest {
    static final int EDGES = 100_000;
    static final int VERTICES = 100_000;

    static long used() {
        Runtime rt = Runtime.getRuntime();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            best = Math.min(best, rt.totalMemory() - rt.freeMemory());
        }
        return best;
    }

    @Test
    void bytesPerEdgeAndPerVertex() {
        WideNode node = new WideNode(WideNode.hostConfig().build());
        NodePath t = NodePath.of("/bench/fanout");
        ValueListener shared = (s, v, seq, stale) -> { };
        node.subscribe(t, 0, shared).close();
        List<Subscription> keep = new ArrayList<>(EDGES); // the caller's handles: the edge objects themselves
        long before = used();
        for (int i = 0; i < EDGES; i++) {
            keep.add(node.subscribe(t, 0, shared));
        }
        long perEdge = (used() - before) / EDGES;
        assertEquals(EDGES, node.listenerCount(t));

        NodePath[] paths = new NodePath[VERTICES];
        for (int i = 0; i < VERTICES; i++) {
            paths[i] = NodePath.of("/board" + (i / 1000) + "/v" + (i % 1000));
        }
        byte[] value = Tlv.value(1234, 4);
        before = used();
        for (NodePath p : paths) {
            node.write(p, value, 0, value.length);
        }
        long perVertex = (used() - before) / VERTICES;
        System.out.println("WideNode heap: " + perEdge + " bytes per subscription edge (" + EDGES + " edges on one vertex), "
                + perVertex + " bytes per vertex with an 8-byte value (" + VERTICES + " vertices, keys ~16 bytes)");
        assertTrue(perEdge > 0 && perEdge < 1024, "bytes per edge " + perEdge);
        assertTrue(perVertex > 0 && perVertex < 4096, "bytes per vertex " + perVertex);
        assertEquals(EDGES, keep.size());
    }
}
