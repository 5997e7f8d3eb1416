package io.spectrum.bridge;

import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mirror's rules, fed messages as the broker sends them (no broker): the latest value per path
 * with the payload's fields, {@code $online} as presence, an emptied retained message removing the
 * path, its own host skipped, and its bound refusing new paths (counted) while known ones update.
 */
class FabricMirrorTest {
    private final AtomicInteger changes = new AtomicInteger();
    private final FabricMirror mirror = mirror(3);

    private FabricMirror mirror(int capacity) {
        FabricMirror m = new FabricMirror(BrokerAddress.parse("mqtt://127.0.0.1:1", null, Map.of()), "plant1", capacity, n -> { });
        m.onChange(changes::incrementAndGet);
        return m;
    }

    private static BrokerView.Value msg(String topic, String payload) {
        MqttMessage m = new MqttMessage(payload.getBytes(StandardCharsets.UTF_8));
        m.setRetained(true);
        return BrokerView.value(topic, m);
    }

    private static String json(String path, String value, long seq, boolean stale) {
        return "{\"ts\":\"2026-12-01T19:00:00.000Z\",\"path\":\"" + path + "\",\"value\":" + value + ",\"unit\":\"°C\","
                + "\"raw\":2328,\"seq\":" + seq + ",\"stale\":" + stale + ",\"publisher\":\"lab\",\"text\":\"" + value + " °C\"}";
    }

    @Test
    void keepsTheLatestValueAndPresencePerHost() {
        mirror.take(msg("spectrum/lab/$online", "true"));
        mirror.take(msg("spectrum/lab/board1/temp", json("/board1/temp", "23.28", 4, false)));
        mirror.take(msg("spectrum/lab/board1/temp", json("/board1/temp", "19.99", 5, true)));
        List<FabricMirror.Host> hosts = mirror.hosts();
        assertEquals(1, hosts.size());
        FabricMirror.Host lab = hosts.get(0);
        assertEquals("lab", lab.name());
        assertTrue(lab.presenceKnown() && lab.online());
        assertEquals(List.of(new FabricMirror.Vertex("/lab/board1/temp", "board1", "19.99 °C", "°C", 5, true, "lab",
                "2026-12-01T19:00:00.000Z")), lab.vertices());
        assertEquals(3, changes.get());
        mirror.take(msg("spectrum/lab/$online", "false"));
        assertFalse(mirror.hosts().get(0).online());
    }

    @Test
    void aClearedRetainedMessageRemovesThePath() {
        mirror.take(msg("spectrum/lab/board1/temp", json("/board1/temp", "23.28", 4, false)));
        mirror.take(msg("spectrum/lab/board1/temp", ""));
        assertEquals(List.of(), mirror.hosts().get(0).vertices());
    }

    @Test
    void itsOwnHostAndNonStateTopicsAreSkipped() {
        mirror.take(msg("spectrum/plant1/board1/temp", json("/board1/temp", "23.28", 4, false)));
        assertEquals(List.of(), mirror.hosts());
        assertEquals(0, changes.get());
        assertNull(BrokerView.value("spectrum/lab/board1/led/set", new MqttMessage("1".getBytes())),
                "a set topic is no vertex (the mirror never sees it)");
    }

    @Test
    void pastItsBoundNewPathsAreRefusedAndCountedKnownOnesUpdate() {
        for (int i = 0; i < 4; i++) {
            mirror.take(msg("spectrum/lab/b/v" + i, json("/b/v" + i, "1", 1, false)));
        }
        assertEquals(3, mirror.hosts().get(0).vertices().size());
        assertEquals(1, mirror.refused());
        mirror.take(msg("spectrum/lab/b/v0", json("/b/v0", "2", 2, false)));
        assertEquals("2 °C", mirror.hosts().get(0).vertices().get(0).text());
        assertEquals(1, mirror.refused());
        mirror.take(msg("spectrum/lab/b/v1", ""));
        mirror.take(msg("spectrum/lab/b/v3", json("/b/v3", "1", 1, false)));
        assertEquals(3, mirror.hosts().get(0).vertices().size(), "a removed path frees its room");
    }

    @Test
    void aBoundBelowOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> mirror(0));
    }

    @Test
    void aBoardsPresenceIsNoVertex_andAHugePayloadIsShownByItsSizeWithoutDecodingIt() {
        mirror.take(msg("spectrum/lab/board1/$online", "false"));
        assertTrue(mirror.hosts().stream().allMatch(h -> h.vertices().isEmpty()), mirror.hosts().toString());
        String huge = "{\"value\":" + "9".repeat(2_000_000) + "}"; // anyone may publish under spectrum/
        BrokerView.Value v = msg("spectrum/lab/board1/x", huge);
        assertEquals("(2000010 bytes: over " + BrokerView.MAX_PAYLOAD + ", not shown)", v.json().get("value").asText());
        assertEquals("/lab/board1/x", v.path());
    }
}
