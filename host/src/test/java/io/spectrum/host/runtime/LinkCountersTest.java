package io.spectrum.host.runtime;

import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 11 item 6: the links panel carries every drop, refusal and eviction counter and the peer table. */
class LinkCountersTest {
    @Test
    void theLinksPanelShowsOverloadCountersAndThePeerTable() throws Exception {
        UdpLink l = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig().peerCapacity(6),
                new ManualClock(0));
        try {
            l.stats().peersRefused = 3;
            l.stats().deliveriesDropped = 4;
            l.stats().shareRefusals = 5;
            l.stats().droppedByOs = 6;
            Map<String, Long> c = HostRuntime.counters(l);
            assertTrue(c.keySet().containsAll(List.of("framesIn", "droppedInvalid", "droppedByOs", "peersRefused",
                    "peersEvicted", "shareRefusals", "deliveriesDropped", "peers.capacity", "peers.inUse", "peers.refused")),
                    c.toString());
            assertEquals(3, c.get("peersRefused"));
            assertEquals(4, c.get("deliveriesDropped"));
            assertEquals(5, c.get("shareRefusals"));
            assertEquals(6, c.get("droppedByOs"));
            assertEquals(6, c.get("peers.capacity"));
        } finally {
            l.close();
        }
    }
}
