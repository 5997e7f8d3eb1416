package io.spectrum.board;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo board publishes every declared vertex within its declaration and refuses what breaks it. */
class BoardTest {
    @Test
    void everyDemoVertexIsDeclaredAndHoldsAValueThatFitsIt() {
        try (Board board = new Board("bench-board", 0)) {
            Node node = board.loop().node();
            byte[] b = new byte[128];
            for (NodePath p : List.of(Board.TEMP, Board.HUMIDITY, Board.COUNTER, Board.LED, Board.NAME)) {
                assertNotNull(node.declaration(p), p + " is declared");
                assertTrue(node.read(p, b, 0, b.length) > 0, p + " holds a value (its publish fitted the declaration)");
            }
            assertEquals("Cel", node.declaration(Board.TEMP).unit());
            assertEquals(0.01, node.declaration(Board.TEMP).scale());
            byte[] v = new byte[8];
            int n = new TlvWriter().wrap(v, 0, v.length).value(2, 1).length();
            assertEquals(WireError.SCHEMA_TYPE_MISMATCH, node.write(Board.LED, v, 0, n), "led holds 0..1");
        }
    }
}
