package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.NodeResult;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

/** The one return convention: a status is a WireError code, a quantity is >= 0 or a negated code. */
class NodeResultTest {
    @Test
    void conversionsBetweenTheTwoShapes() {
        assertEquals(-WireError.PATH_NOT_FOUND, NodeResult.refusal(WireError.PATH_NOT_FOUND));
        assertTrue(NodeResult.refused(NodeResult.refusal(WireError.FLOW_BACKPRESSURE)));
        assertFalse(NodeResult.refused(0));
        assertEquals(WireError.FLOW_BACKPRESSURE, NodeResult.code(NodeResult.refusal(WireError.FLOW_BACKPRESSURE)));
        assertEquals(WireError.OK, NodeResult.code(17));
    }

    @Test
    void theSameRefusalIsAStatusFromWriteAndANegatedCodeFromRead() {
        NarrowNode node = new NarrowNode(NodeConfig.builder().maxKeyBytes(8).build());
        NodePath tooLong = NodePath.of("/abcdefgh/ijk");
        assertEquals(WireError.PATH_INVALID, node.write(tooLong, Frames.value(1, 1), 0, 5));
        assertEquals(NodeResult.refusal(WireError.PATH_NOT_FOUND), node.read(tooLong, new byte[8], 0, 8));
        NodePath ok = NodePath.of("/a");
        assertEquals(WireError.OK, node.write(ok, Frames.value(1, 1), 0, 5));
        assertEquals(NodeResult.refusal(WireError.FLOW_BACKPRESSURE), node.read(ok, new byte[4], 0, 4));
        assertEquals(5, node.read(ok, new byte[8], 0, 8));
    }
}
