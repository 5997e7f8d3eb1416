package io.spectrum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spectrum.client.Follower;
import org.junit.jupiter.api.Test;

/** MQTT-style patterns of sub / record, and how replay maps a recorded path onto the board. */
class FollowerPatternTest {
    @Test
    void trailingHashIsTheVertexItself_otherWildcardsAreRefused() {
        assertEquals("/board1", Follower.vertexOf("/board1/#"));
        assertEquals("/", Follower.vertexOf("/#"));
        assertEquals("/board1/temp", Follower.vertexOf("/board1/temp"));
        assertEquals("'#' only as the last segment (it means the vertex and everything below)",
                assertThrows(IllegalArgumentException.class, () -> Follower.vertexOf("/a/#/b")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Follower.vertexOf("/a/+"));
        assertThrows(IllegalArgumentException.class, () -> Follower.vertexOf("/+/temp"));
    }

    @Test
    void replayPublishesUnderTheBoardsOwnPath_theHostsMountNameStripped() {
        assertEquals("/temp", ReplayProgram.boardPath("/board1/temp", "board1"), "recorded through a host");
        assertEquals("/temp", ReplayProgram.boardPath("/temp", "board1"), "recorded from the board itself");
        assertEquals("/kitchen/a/b", ReplayProgram.boardPath("/kitchen/a/b", "board1"), "another mount's: kept whole");
        assertEquals("/a/b", ReplayProgram.boardPath("/kitchen/a/b", "kitchen"));
        assertThrows(IllegalArgumentException.class, () -> ReplayProgram.boardPath("/board1", "board1"));
        assertThrows(IllegalArgumentException.class, () -> ReplayProgram.boardPath("/", "board1"));
    }
}
