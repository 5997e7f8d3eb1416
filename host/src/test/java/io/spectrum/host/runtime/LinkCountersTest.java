package io.spectrum.host.runtime;

import io.spectrum.link.NodeLinkStats;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The links panel carries every drop, refusal and eviction counter of the link, what the node
 * counted about it, and the peer table, under the names {@code /$node/stats} and {@code /metrics}
 * use.
 */
class LinkCountersTest {
    @Test
    void theLinksPanelShowsOverloadCountersAndThePeerTable() throws Exception {
        UdpLink l = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig().peerCapacity(6),
                new ManualClock(0));
        NodeLinkStats node = new NodeLinkStats() {
            @Override
            public long framesRejected() {
                return 3;
            }

            @Override
            public long shareRefused() {
                return 5;
            }

            @Override
            public long deliveriesDropped() {
                return 4;
            }
        };
        try {
            Map<String, Long> c = HostRuntime.counters(l, node);
            assertEquals(List.of("frames_in", "frames_out", "bytes_in", "bytes_out", "dropped_corrupt", "dropped_oversize",
                    "dropped_invalid", "dropped_queued", "dropped_by_os", "send_refused", "reconnects", "peers_refused",
                    "peers_evicted", "frames_rejected", "share_refused", "deliveries_dropped", "peers.capacity",
                    "peers.in_use", "peers.peak", "peers.refused", "peers.dropped"), List.copyOf(c.keySet()));
            assertEquals(3, c.get("frames_rejected"));
            assertEquals(4, c.get("deliveries_dropped"));
            assertEquals(5, c.get("share_refused"));
            assertEquals(0, c.get("peers_refused"));
            assertEquals(6, c.get("peers.capacity"));
            assertEquals(List.of("frames_in", "frames_out"), List.copyOf(HostRuntime.counters(l, null).keySet()).subList(0, 2),
                    "a link attached to no node: its own counters only");
        } finally {
            l.close();
        }
    }
}
