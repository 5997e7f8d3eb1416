package io.spectrum.bridge;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Topic mapping, path globs, broker URLs and credentials, without a broker. */
class NamesAndGlobsTest {
    @Test
    void pathsMapToTopicsUnderTheHostAndBack() {
        Topics t = new Topics("plant1");
        assertEquals("spectrum/plant1/board1/sensor/temp", t.state("/board1/sensor/temp"));
        assertEquals("/board1/led", t.setPath("spectrum/plant1/board1/led/set"));
        assertNull(t.setPath("spectrum/other/board1/led/set"));
        assertNull(t.setPath("spectrum/plant1/board1/led"));
        assertNull(t.state("/a/+/b"));
        assertEquals("spectrum/plant1/$online", t.online());
        assertEquals("/plant1/board1/led", Topics.fabricPath("spectrum/plant1/board1/led"));
        assertNull(Topics.fabricPath("spectrum/plant1/board1/led/set/error"));
        assertEquals("spectrum/+/board1/#", Topics.filter("/+/board1/#"));
        assertThrows(IllegalArgumentException.class, () -> new Topics("a/b"));
        assertThrows(IllegalArgumentException.class, () -> new Topics("$sys"));
    }

    @Test
    void globsMatchOneSegmentOrAnyBelow() {
        assertTrue(PathGlob.of("/board*/led").matches("/board1/led"));
        assertFalse(PathGlob.of("/board*/led").matches("/board1/x/led"));
        assertTrue(PathGlob.of("/board1/**").matches("/board1"));
        assertTrue(PathGlob.of("/board1/**").matches("/board1/a/b"));
        assertFalse(PathGlob.of("/board1/**").matches("/board10/a"));
        assertTrue(PathGlob.of("/**/temp").matches("/b/sensor/temp"));
        BridgeOptions o = new BridgeOptions().include("/board1/**").exclude("/board1/secret").writable("/board1/led");
        assertTrue(o.published("/board1/temp"));
        assertFalse(o.published("/board1/secret"));
        assertFalse(o.published("/board2/temp"));
        assertFalse(o.published("/board1/$node/caps"));
        assertTrue(o.writes("/board1/led"));
        assertFalse(o.writes("/board1/temp"));
        assertFalse(new BridgeOptions().writes("/board1/led"), "no --mqtt-writable: nothing is writable");
    }

    @Test
    void brokerUrlsAndCredentialsNeverFromTheCommandLine() throws Exception {
        assertEquals("tcp://127.0.0.1:1883", BrokerAddress.parse("mqtt://127.0.0.1", null, Map.of()).serverUri());
        BrokerAddress tls = BrokerAddress.parse("mqtts://broker.example:9883", null, Map.of());
        assertEquals("ssl://broker.example:9883", tls.serverUri());
        assertTrue(tls.tls());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BrokerAddress.parse("mqtt://user:secret@host", null, Map.of()));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BrokerAddress.parse("http://host", null, Map.of()));
        BrokerAddress env = BrokerAddress.parse("mqtt://h", null,
                Map.of(BrokerAddress.ENV_USERNAME, "u", BrokerAddress.ENV_PASSWORD, "p"));
        assertEquals("u", env.username());
        assertArrayEquals("p".getBytes(StandardCharsets.UTF_8), env.password());
        Path f = Files.createTempFile("creds", ".txt");
        Files.writeString(f, "username=alice\npassword=s3cret\n");
        BrokerAddress file = BrokerAddress.parse("mqtt://h", f, Map.of(BrokerAddress.ENV_USERNAME, "u"));
        assertEquals("alice", file.username());
        assertArrayEquals("s3cret".getBytes(StandardCharsets.UTF_8), file.password());
        assertFalse(file.toString().contains("s3cret"));
    }

    @Test
    void aSetPayloadIsTextOrAJsonValue() {
        assertEquals("1", PeerSide.text("1".getBytes(StandardCharsets.UTF_8)));
        assertEquals("23.5", PeerSide.text("{\"value\": 23.5}".getBytes(StandardCharsets.UTF_8)));
        assertEquals("on", PeerSide.text(" on\n".getBytes(StandardCharsets.UTF_8)));
    }
}
