package io.spectrum.node;

import io.spectrum.testing.MemoryLink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.fwd.LinkTable;
import io.spectrum.stats.BoundedResource;
import io.spectrum.wire.WireError;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fixed pools: running out is a typed refusal, never growth, and every pool reports it. */
class PoolsTest {
    static Map<String, BoundedResource> byName(io.spectrum.node.api.Node n) {
        Map<String, BoundedResource> m = new HashMap<>();
        for (BoundedResource r : n.resources()) {
            m.put(r.resourceName(), r);
        }
        return m;
    }

    @Test
    void slotPoolExhaustion_isBackpressure_locallyAndOverTheWire_andIsReported() {
        NodeHarness h = new NodeHarness(c -> c.maxSubscribers(2));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        assertTrue(h.node.subscribe(h.temp, 0, (s, v, q, st) -> { }).isOpen());
        assertTrue(h.node.subscribe(h.temp, 0, (s, v, q, st) -> { }).isOpen());
        Subscription third = h.node.subscribe(h.temp, 0, (s, v, q, st) -> { });
        assertFalse(third.isOpen());
        assertEquals(WireError.FLOW_BACKPRESSURE, third.error());
        assertEquals(WireError.FLOW_BACKPRESSURE,
                h.request(h.subscribeReq("/client/a", 0, false, false, NodePath.of("/client/a").tlv())).errorCode());
        BoundedResource slots = byName(h.narrow()).get("node.slots");
        assertEquals(2, slots.capacity());
        assertEquals(2, slots.inUse());
        assertEquals(2, slots.peak());
        assertEquals(2, slots.refused());
        assertEquals(2, h.node.listenerCount(h.temp), "nothing half-admitted");
    }

    @Test
    void recordPoolExhaustion_isBackpressure_andTheSlotIsGivenBack() {
        NodeHarness h = new NodeHarness(c -> c.recordBytes(64));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        byte[] ep = NodePath.of("/client/with/a/long/route/name").tlv();
        int refused = 0;
        for (int i = 0; i < 4; i++) {
            Frames.Reply r = h.request(h.subscribeReq("/client/" + i, 0x0001, true, false, ep));
            if (r.kind == 1) {
                assertEquals(WireError.FLOW_BACKPRESSURE, r.errorCode());
                refused++;
            }
        }
        assertTrue(refused > 0);
        BoundedResource slots = byName(h.narrow()).get("node.slots");
        assertEquals(4 - refused, slots.inUse(), "a refused append holds no slot");
        assertTrue(byName(h.narrow()).get("node.records").refused() > 0);
    }

    @Test
    void linkTableExhaustion_isBackpressure() {
        NodeHarness h = new NodeHarness(c -> c.maxLinks(2));
        assertEquals(WireError.OK, h.node.attach(new MemoryLink(5)));
        assertEquals(WireError.FLOW_BACKPRESSURE, h.node.attach(new MemoryLink(6)));
        assertEquals(1, byName(h.narrow()).get("node.links").refused());
    }

    @Test
    void everyPoolReportsInTheBoundedResourceVocabulary() {
        NodeHarness h = new NodeHarness();
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        Map<String, BoundedResource> m = byName(h.narrow());
        assertEquals(List.of("node.announcedPeers", "node.awaits", "node.links", "node.mounts", "node.peers", "node.records", "node.remoteRequests",
                "node.remoteSubscriptions", "node.routedPeers", "node.slots", "node.values", "node.vertices"), m.keySet().stream().sorted().toList());
        assertEquals(256, m.get("node.vertices").capacity());
        assertEquals(8 * LinkTable.ANNOUNCED_PEERS_PER_LINK, m.get("node.announcedPeers").capacity());
        assertEquals(5, m.get("node.vertices").inUse(), "root, $node, $node/caps, sensor, sensor/temp");
        assertTrue(m.get("node.values").inUse() >= 32);
    }

    @Test
    void remoteEdgesDeliverOnTheLinkAndPeerTheSubscribeArrivedOn() {
        NodeHarness h = new NodeHarness();
        MemoryLink second = new MemoryLink(4);
        h.node.attach(second);
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        byte[] ep = NodePath.of("/client/a").tlv();
        second.inject(11, h.subscribeReq("/client/a", 0, false, false, ep));
        h.node.poll();
        h.link.clearSent();
        second.clearSent();
        h.node.write(h.temp, Frames.value(2, 1), 0, 5);
        assertEquals(0, h.link.sentCount());
        assertEquals(1, second.sentCount());
        assertEquals(11, second.sentPeer(0));
        h.node.onPeerDown(h.link, 11);
        h.node.write(h.temp, Frames.value(3, 1), 0, 5);
        assertEquals(2, second.sentCount(), "the same peer number on another link is someone else");
        h.node.onPeerDown(second, 11);
        h.node.write(h.temp, Frames.value(4, 1), 0, 5);
        assertEquals(2, second.sentCount());
    }
}
