package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.time.ManualClock;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.Test;

/** The configuration builder: defaults, carried values, and a refusal that names the bad field. */
class NodeConfigTest {
    @Test
    void defaultsAreTheDocumentedSizes() {
        NodeConfig c = NodeConfig.defaults();
        assertEquals(256, c.maxVertices());
        assertEquals(1024, c.maxSubscribers());
        assertEquals(64 * 1024, c.valueBytes());
        assertEquals(64, c.maxKeyBytes());
        assertEquals(4096, c.frameBytes());
        assertSame(SystemClock.INSTANCE, c.clock());
        assertNull(c.accessPolicy());
    }

    @Test
    void builderCarriesEveryValueAndToBuilderCopiesThem() {
        ManualClock clock = new ManualClock(0);
        NodeConfig c = NodeConfig.builder().maxVertices(64).maxSubscribers(128).valueBytes(8192).recordBytes(2048)
                .maxKeyBytes(32).frameBytes(512).maxTlvsPerFrame(40).maxAwaits(3).awaitRouteBytes(64).maxLinks(2)
                .maxRemoteSubscriptions(5).remoteResultBytes(100).payloadCap(1000).staleGraceNanos(7)
                .defaultAwaitTimeoutNanos(9).framesPerPoll(4).clock(clock).build();
        NodeConfig d = c.toBuilder().maxLinks(3).build();
        for (NodeConfig x : new NodeConfig[] {c, d}) {
            assertEquals(64, x.maxVertices());
            assertEquals(128, x.maxSubscribers());
            assertEquals(8192, x.valueBytes());
            assertEquals(2048, x.recordBytes());
            assertEquals(32, x.maxKeyBytes());
            assertEquals(512, x.frameBytes());
            assertEquals(40, x.maxTlvsPerFrame());
            assertEquals(3, x.maxAwaits());
            assertEquals(64, x.awaitRouteBytes());
            assertEquals(5, x.maxRemoteSubscriptions());
            assertEquals(100, x.remoteResultBytes());
            assertEquals(1000, x.payloadCap());
            assertEquals(7, x.staleGraceNanos());
            assertEquals(9, x.defaultAwaitTimeoutNanos());
            assertEquals(4, x.framesPerPoll());
            assertSame(clock, x.clock());
        }
        assertEquals(2, c.maxLinks());
        assertEquals(3, d.maxLinks());
    }

    @Test
    void aBadFieldIsNamedWithItsRangeAndValue() {
        assertEquals("maxVertices must be 2..16777216, was 0",
                assertThrows(IllegalArgumentException.class, () -> NodeConfig.builder().maxVertices(0).build()).getMessage());
        assertEquals("maxSubscribers must be 1..16777216, was -1",
                assertThrows(IllegalArgumentException.class, () -> NodeConfig.builder().maxSubscribers(-1).build()).getMessage());
        assertEquals("frameBytes must be 64..16777216, was 63",
                assertThrows(IllegalArgumentException.class, () -> NodeConfig.builder().frameBytes(63).build()).getMessage());
        assertEquals("maxKeyBytes must be 1..65535, was 65536",
                assertThrows(IllegalArgumentException.class, () -> NodeConfig.builder().maxKeyBytes(65536).build()).getMessage());
        assertEquals("staleGraceNanos must be at least 0, was -5",
                assertThrows(IllegalArgumentException.class, () -> NodeConfig.builder().staleGraceNanos(-5).build()).getMessage());
        assertEquals("clock must not be null",
                assertThrows(IllegalArgumentException.class, () -> NodeConfig.builder().clock(null).build()).getMessage());
        assertEquals("maxVertices * maxKeyBytes (the key store) must be at most 1073741824, was 1099494850560",
                assertThrows(IllegalArgumentException.class,
                        () -> NodeConfig.builder().maxVertices(1 << 24).maxKeyBytes(65535).build()).getMessage());
    }

    @Test
    void theSmallestValidNodeRuns() {
        NarrowNode n = new NarrowNode(NodeConfig.builder().maxVertices(2).maxSubscribers(1).maxKeyBytes(1).frameBytes(64)
                .build());
        assertEquals(0, n.listenerCount(io.spectrum.node.api.NodePath.of("/")));
    }
}
