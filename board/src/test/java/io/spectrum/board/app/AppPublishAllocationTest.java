package io.spectrum.board.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.node.api.VertexValue;
import io.spectrum.testing.SteadyStateAllocation;
import io.spectrum.wire.WireError;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A board app's publish allocates nothing in steady state: the vertex's buffer is sized once from
 * its declaration and the node's write path is NARROW's (the thread allocated-bytes counter over
 * windows of 100 000 publishes, with a delivering subscriber and a write handler on the vertex).
 */
class AppPublishAllocationTest {
    static final int OPS = 100_000;

    @Test
    void publishingThroughTheAppApiAllocatesNothing() {
        AppVertex[] v = new AppVertex[2];
        BoardApp app = board -> {
            v[0] = board.declare("/app/level", VertexSchema.value(4, false).unit("mm").scale(0.1).readOnly().build());
            v[1] = board.declare("/app/setpoint", VertexSchema.value(2, true).range(-500, 500).writable().build());
            v[1].onWrite((vertex, raw) -> { });
        };
        AppHost host = new AppHost("alloc", List.of(new AppHost.Entry("alloc", app, Map.of())),
                () -> { throw new IllegalStateException("no pi4j here"); }, Path.of("/sys"), Path.of("/proc"));
        NarrowNode node = new NarrowNode(NodeConfig.defaults());
        host.install(node);
        long[] seen = new long[1];
        ValueListener count = (Subscription s, VertexValue value, long seq, boolean stale) -> seen[0]++;
        assertEquals(WireError.OK, node.subscribe(NodePath.of("/app"), 0, count).error());
        for (int i = 0; i < 3 * OPS; i++) { // warm-up: compile the path
            v[0].publish(i & 0xFFFF);
            v[1].publish((i % 1000) - 500);
        }
        long[] windows = new long[5];
        int failed = 0;
        for (int w = 0; w < windows.length; w++) {
            long before = SteadyStateAllocation.allocatedBytes();
            for (int i = 0; i < OPS; i++) {
                failed += v[0].publish(i);
                failed += v[1].publish((i % 1000) - 500);
            }
            windows[w] = SteadyStateAllocation.allocatedBytes() - before;
        }
        assertEquals(0, failed, "every publish fitted its declaration");
        assertEquals(2L * OPS * (windows.length + 3), seen[0], "every publish reached the subscriber");
        SteadyStateAllocation.assertNone("AppVertex.publish (2 vertices, 1 subscriber)", 2L * OPS, windows);
        host.close();
        node.close();
    }
}
