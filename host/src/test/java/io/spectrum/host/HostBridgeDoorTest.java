package io.spectrum.host;

import io.spectrum.bridge.BridgeOptions;
import io.spectrum.bridge.BrokerAddress;
import io.spectrum.link.Link;
import io.spectrum.link.dtls.DtlsLink;
import io.spectrum.link.local.LocalLink;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The in-process MQTT bridge reaches its host over an in-memory link: no socket, no port, frames both ways. */
class HostBridgeDoorTest {
    @Test
    void theBridgesDoorIsAnInProcessLinkNoSocket() throws Exception {
        List<Link> clients = new ArrayList<>();
        HostBridge bridge = HostBridge.open(BrokerAddress.parse("mqtt://127.0.0.1:1883", null, Map.of()),
                new BridgeOptions().host("h"), new LinkSettings(), new ManualClock(0), 9, clients);
        assertEquals(1, clients.size());
        Link door = clients.get(0);
        Link end = bridge.clientEnd();
        try {
            for (Link l : List.of(door, end)) {
                assertFalse(l instanceof UdpLink || l instanceof DtlsLink || l instanceof LocalLink,
                        l.name() + " is a socket link");
            }
            assertEquals(9, door.id());
            Collector atHost = new Collector();
            door.setPeerListener(atHost);
            byte[] request = Frames.value(1, 8);
            assertEquals(WireError.OK, end.send(0, request, 0, request.length));
            assertEquals(1, door.poll(atHost, 16));
            assertArrayEquals(request, atHost.frames.get(0));
            assertEquals("up 0", atHost.events.get(0));
            byte[] answer = Frames.value(2, 8);
            assertEquals(WireError.OK, door.send(0, answer, 0, answer.length));
            Collector atBridge = new Collector();
            assertEquals(1, end.poll(atBridge, 16));
            assertArrayEquals(answer, atBridge.frames.get(0));
            end.close(); // the bridge stops: the host's side reports its client gone
            door.poll(atHost, 16);
            assertTrue(atHost.events.contains("down 0"), atHost.events.toString());
        } finally {
            door.close();
            end.close();
        }
    }
}
