package io.spectrum.bridge;

import io.spectrum.board.Board;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A board's availability from its vertices' news (no broker), and a board bridged directly that
 * goes away: its {@code $online} turns false and its values are published stale with the reason,
 * against a real Mosquitto.
 */
class BoardPresenceTest {
    @Test
    void aBoardIsAvailableWhileOneVertexIsFreshOrNoneIsStale_andNeverWhileThePeerIsSilent() {
        BoardPresence p = new BoardPresence();
        p.vertex("/board1/a", false);
        p.vertex("/board1/b", false);
        p.vertex("/board2/a", false);
        assertEquals(Map.of("board1", true, "board2", true), p.changes(), "first news of each board is told");
        assertEquals(Map.of(), p.changes(), "then only changes");
        p.vertex("/board1/a", true);
        assertEquals(Map.of(), p.changes(), "one stale vertex (b still fresh): available");
        p.vertex("/board1/b", true);
        assertEquals(Map.of("board1", false), p.changes(), "every vertex stale: the board went away");
        p.vertex("/board1/b", false);
        assertEquals(Map.of("board1", true), p.changes(), "a fresh value: back");
        p.peer(false);
        assertEquals(Map.of("board1", false, "board2", false), p.changes(), "a silent peer: no board available");
        p.peer(true);
        assertEquals(Map.of("board1", true, "board2", true), p.changes());
        assertEquals("board1", BoardPresence.board("/board1/sensor/temp"));
        assertEquals("$peer", BoardPresence.board("/top"), "a vertex at the root is the peer's own (a board bridged directly)");
    }

    @Test
    void aBoardBridgedDirectlyThatGoesAwayIsUnavailableAndItsValuesStale() throws Exception {
        try (Mosquitto broker = Mosquitto.start()) {
            int[] port = new int[1];
            Board board = Fabric.board("direct", 50, port);
            try (MqttBridge bridge = MqttBridge.start(Fabric.client(port[0]), broker.address(),
                    new BridgeOptions().host("solo"), n -> { });
                 Watch w = new Watch(broker, "test-presence", "spectrum/solo/#")) {
                w.await(s -> s.topic().equals("spectrum/solo/$peer/$online") && s.payload().equals("true"), "board available");
                w.on("spectrum/solo/name"); // the walk is done
                board.close();
                w.await(s -> s.topic().equals("spectrum/solo/$peer/$online") && s.payload().equals("false"), "board unavailable");
                Watch.Seen name = w.await(s -> s.topic().equals("spectrum/solo/name") && s.stale(), "the name stale");
                w.await(s -> s.topic().equals("spectrum/solo/counter") && s.stale(), "the counter stale");
                assertTrue(name.payload().contains("\"reason\":\"" + PeerSide.PEER_SILENT + "\""), name.payload());
                assertEquals("true", name.props().getOrDefault("stale", "true"), name.toString());
                assertTrue(bridge.stats().connected());
            } finally {
                board.close();
            }
        }
    }
}
