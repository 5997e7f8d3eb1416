package io.spectrum.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.spectrum.node.api.VertexSchema;
import org.junit.jupiter.api.Test;

/**
 * A board's paths are relative to the board (docs/board.md, "Paths"), so behind a host a board
 * vertex's topic and Home Assistant ids name the mount once: the demo board's {@code /temp}
 * mounted as {@code board1} is {@code spectrum/plant1/board1/temp}, never
 * {@code spectrum/plant1/board1/board/temp}. No broker: the topic and config are made by the same
 * classes the bridge publishes through.
 */
class BoardPathTopicsTest {
    private final Topics topics = new Topics("plant1");
    private final VertexSchema temp = VertexSchema.value(2, true).unit("Cel").scale(0.01).readOnly()
            .description("board temperature").build();

    @Test
    void aMountedBoardsVertexIsItsMountThenItsOwnPath() {
        assertEquals("spectrum/plant1/board1/temp", topics.state("/board1/temp"));
        assertEquals("spectrum/plant1/board1/$online", topics.boardOnline(BoardPresence.board("/board1/temp")));
    }

    @Test
    void homeAssistantIdsNameTheMountOnce() {
        Discovery d = new Discovery(topics);
        assertEquals("homeassistant/sensor/spectrum_plant1/board1_temp/config", d.topic("sensor", "/board1/temp"));
        JsonNode c = d.config("/board1/temp", temp, "sensor");
        assertEquals("spectrum_plant1_board1_temp", c.get("unique_id").asText());
        assertEquals("sensor.spectrum_plant1_board1_temp", c.get("default_entity_id").asText());
        assertEquals("spectrum/plant1/board1/temp", c.get("state_topic").asText());
        assertEquals("spectrum/plant1/board1/$online", c.get("availability").get(1).get("topic").asText());
        assertEquals("spectrum_plant1_board1", c.get("device").get("identifiers").get(0).asText());
        assertEquals("plant1 board1", c.get("device").get("name").asText());
    }

    @Test
    void aBoardBridgedDirectlyIsOneDevice_itsRootVerticesThePeersOwn() {
        JsonNode c = new Discovery(topics).config("/temp", temp, "sensor");
        assertEquals("spectrum/plant1/temp", c.get("state_topic").asText());
        assertEquals("spectrum/plant1/$peer/$online", c.get("availability").get(1).get("topic").asText());
        assertEquals("spectrum_plant1", c.get("device").get("identifiers").get(0).asText());
        assertEquals("plant1", c.get("device").get("name").asText());
    }
}
