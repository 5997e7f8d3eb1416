package io.spectrum.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodePath;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The client side of delivery modes (docs/extensions.md "Delivery modes") against a WideNode: a
 * bounded subscription made with {@link Requests#subscriber(String, int, int, int, int, int)}, the
 * numbered deliveries read from {@link Delivery#dlv()}, credits given back with
 * {@link PeerClient#consumed}.
 */
class DeliveryModeClientTest {
    @Test
    void boundedSubscription_numberedDeliveries_andConsumedReleasesTheNext() {
        WideNode node = new WideNode(WideNode.hostConfig().clock(new ManualClock(0)).peerDeliveriesPerSecond(0).build());
        MemoryLink[] p = MemoryLink.pair();
        assertEquals(WireError.OK, node.attach(p[0]));
        PeerClient client = new PeerClient(new LinkTransport(p[1], 0), Duration.ofSeconds(5), "/t/r/");
        client.onPump(node::poll);
        client.announceExtensions(true); // the append answers the slot's identity
        List<Delivery> got = new ArrayList<>();
        client.onDelivery(d -> got.add(d.detach()));
        NodePath t = NodePath.of("/board/temp");
        try {
            byte[] v0 = NodeFixture.value(0, 2);
            assertEquals(WireError.OK, node.write(t, v0, 0, v0.length));
            Subscribed s = client.subscribe("/board/temp", "/t/sub",
                    Requests.subscriber("/t/sub", -1, 0, DeliveryMode.BOUNDED, 1, 1));
            assertTrue(s.ok(), s.toString());
            assertEquals(0, s.index());
            for (int n = 1; n <= 2; n++) {
                byte[] v = NodeFixture.value(n, 2);
                assertEquals(WireError.OK, node.write(t, v, 0, v.length));
            }
            byte[] v3 = NodeFixture.value(3, 2);
            assertEquals(WireError.FLOW_BACKPRESSURE, node.write(t, v3, 0, v3.length), "1 in flight, 1 queued: full");
            client.pumpUntil(() -> got.size() == 1, Duration.ofSeconds(5));
            assertEquals(1, got.size());
            assertEquals(1, got.get(0).dlv(), "the first numbered delivery");
            assertEquals(0, got.get(0).replaced());
            Reply r = client.consumed("/board/temp", s.index(), s.generation(), got.get(0).dlv());
            assertTrue(r.ok(), r.toString());
            io.spectrum.wire.TlvIndex x = new io.spectrum.wire.TlvIndex();
            assertEquals(WireError.OK, new io.spectrum.wire.FrameDecoder().decode(r.value(), 0, r.value().length, x));
            assertEquals(2, DeliveryMode.delivered(x, 0), "the answer names the delivery the credit released");
            client.pumpUntil(() -> got.size() == 2, Duration.ofSeconds(5));
            assertEquals(2, got.get(1).dlv());
            assertEquals(WireError.PATH_INVALID, client.consumed("/board/temp", s.index(), s.generation(), 9).code(),
                    "never delivered");
        } finally {
            client.close();
            node.close();
        }
    }
    @Test
    void heldModeSubscription_consumedByRoute_followsAReappendedSlot_andClearAllFreesThePublisher() {
        WideNode node = new WideNode(WideNode.hostConfig().clock(new ManualClock(0)).peerDeliveriesPerSecond(0).build());
        MemoryLink[] p = MemoryLink.pair();
        assertEquals(WireError.OK, node.attach(p[0]));
        PeerClient client = new PeerClient(new LinkTransport(p[1], 0), Duration.ofSeconds(5), "/t/r/");
        client.onPump(node::poll);
        client.announceExtensions(true);
        List<Delivery> got = new ArrayList<>();
        client.onDelivery(d -> got.add(d.detach()));
        NodePath t = NodePath.of("/board/temp");
        HeldSubscriptions held = new HeldSubscriptions(client);
        try {
            byte[] v0 = NodeFixture.value(0, 2);
            assertEquals(WireError.OK, node.write(t, v0, 0, v0.length));
            assertTrue(held.subscribe("/board/temp", "/t/sub",
                    Requests.subscriber("/t/sub", io.spectrum.wire.DeliveryPolicy.DURABILITY_REQUEST, 0, DeliveryMode.BOUNDED, 1, 1))
                    .ok());
            assertTrue(held.knowsSlot("/t/sub"));
            client.pumpUntil(() -> got.size() == 1, Duration.ofSeconds(5));
            assertEquals(1, got.get(0).dlv(), "the replay is delivery 1");
            byte[] v1 = NodeFixture.value(1, 2);
            assertEquals(WireError.OK, node.write(t, v1, 0, v1.length), "queued behind the one in flight");
            assertEquals(WireError.FLOW_BACKPRESSURE, node.write(t, v1, 0, v1.length), "queue 1 full");
            assertTrue(held.consumed("/t/sub", 1).ok());
            client.pumpUntil(() -> got.size() == 2, Duration.ofSeconds(5));
            assertEquals(2, got.get(1).dlv());

            node.onPeerDown(p[0], 0); // the node reaps the client's slot
            assertEquals(1, held.verify(), "found gone and appended again");
            client.pumpUntil(() -> got.size() == 3, Duration.ofSeconds(5));
            assertEquals(1, got.get(2).dlv(), "the new slot numbers from 1");
            assertTrue(held.consumed("/t/sub", 1).ok(), "addressed to the new slot's identity");
            assertEquals(WireError.OK, node.write(t, v1, 0, v1.length), "sent: the credit came back");
            assertEquals(WireError.OK, node.write(t, v1, 0, v1.length), "queued");
            assertEquals(WireError.FLOW_BACKPRESSURE, node.write(t, v1, 0, v1.length), "the mode came back with the record");

            assertEquals(1, held.clearAll());
            assertEquals(0, held.size());
            for (int i = 0; i < 3; i++) {
                assertEquals(WireError.OK, node.write(t, v1, 0, v1.length), "no slot left to hold values");
            }
            assertEquals(WireError.PATH_NOT_FOUND, held.consumed("/t/sub", 1).code(), "no longer held");
            assertTrue(!held.knowsSlot("/t/other"));
        } finally {
            client.close();
            node.close();
        }
    }
}
