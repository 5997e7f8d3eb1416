package io.spectrum.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

/** The follower's periodic check (issue 11 item 1): a slot lost at the node is re-appended. */
class HeldSubscriptionsTest {
    private static void settle(NodeFixture f) {
        while (f.client.pumpOnce() > 0) {
            // drain
        }
    }

    @Test
    void anEvictedSlotIsFoundByTheGenerationGuardAndReappended() {
        try (NodeFixture f = new NodeFixture()) {
            f.client.announceExtensions(true);
            f.set("/x", 1, 1);
            DeliveryLog log = new DeliveryLog();
            f.client.onDelivery(log);
            HeldSubscriptions held = new HeldSubscriptions(f.client);
            Subscribed s = held.subscribe("/x", "/t/s/a", DeliveryPolicy.DURABILITY_REQUEST, false);
            assertTrue(s.ok() && s.index() >= 0, "identity answered to an announcing client");
            settle(f);
            assertEquals(1, log.to("/t/s/a").size());
            assertEquals(0, held.verify(), "the slot is there: nothing to restore");

            f.node.onPeerDown(f.nodeEnd, 0); // the node evicts the client's slots
            f.set("/x", 2, 1);
            settle(f);
            assertEquals(1, log.to("/t/s/a").size(), "lost while the slot is gone");
            assertEquals(1, held.verify());
            java.util.List<HeldSubscriptions.Lost> lost = held.takeLost();
            assertEquals(1, lost.size(), "found gone: reported, never restored in silence");
            assertTrue(lost.get(0).certain() && lost.get(0).resubscribed() && lost.get(0).gapNanos() == 0, lost.toString());
            assertTrue(held.takeLost().isEmpty(), "told once");
            settle(f);
            assertEquals(2, log.to("/t/s/a").size(), "the durability latch brings the current value");
            f.set("/x", 3, 1);
            settle(f);
            assertEquals(3, log.to("/t/s/a").size(), "live again");
            assertEquals(1, f.client.subscribers("/x").subscribers(), "one slot, not two");
        }
    }

    @Test
    void aPlainClientReappendsAsADuplicateWhileTheSlotIsThere_andAnewWhenItIsGone() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/x", 1, 1);
            DeliveryLog log = new DeliveryLog();
            f.client.onDelivery(log);
            HeldSubscriptions held = new HeldSubscriptions(f.client);
            assertTrue(held.subscribe("/x", "/t/s/a", DeliveryPolicy.DURABILITY_REQUEST, false).ok());
            settle(f);
            held.verify();
            settle(f);
            assertEquals(1, log.to("/t/s/a").size(), "a duplicate replays nothing");
            assertEquals(1, f.client.subscribers("/x").subscribers());

            int n = f.client.subscribers("/x").indexOf("/t/s/a");
            assertTrue(f.client.clear("/x", n, -1).ok()); // cleared (as anyone with this address can)
            f.set("/x", 2, 1);
            settle(f);
            assertEquals(1, log.to("/t/s/a").size());
            held.verify();
            settle(f);
            assertEquals(2, log.to("/t/s/a").size(), "re-admitted: the current value again");
            assertEquals(1, f.client.subscribers("/x").subscribers());
        }
    }

    @Test
    void aConsumedToAGoneSlotMakesTheHolderCheckEverySlot() {
        io.spectrum.wide.WideNode node = new io.spectrum.wide.WideNode(io.spectrum.wide.WideNode.hostConfig()
                .clock(new io.spectrum.time.ManualClock(0)).peerDeliveriesPerSecond(0).build());
        io.spectrum.testing.MemoryLink[] p = io.spectrum.testing.MemoryLink.pair();
        assertEquals(WireError.OK, node.attach(p[0]));
        PeerClient client = new PeerClient(new LinkTransport(p[1], 0), java.time.Duration.ofSeconds(5), "/t/r/");
        client.onPump(node::poll);
        client.announceExtensions(true);
        DeliveryLog log = new DeliveryLog();
        client.onDelivery(log);
        try {
            byte[] v = NodeFixture.value(1, 2);
            assertEquals(WireError.OK, node.write(io.spectrum.node.api.NodePath.of("/x"), v, 0, v.length));
            HeldSubscriptions held = new HeldSubscriptions(client);
            assertTrue(held.subscribe("/x", "/t/s/a", Requests.subscriber("/t/s/a", DeliveryPolicy.DURABILITY_REQUEST, 0,
                    io.spectrum.wire.DeliveryMode.LATEST, 0, 0)).ok());
            assertTrue(client.pumpUntil(() -> log.to("/t/s/a").size() == 1, java.time.Duration.ofSeconds(1)));
            assertEquals(0, held.restoreIfLost(), "nothing suspected: no check sent");

            node.onPeerDown(p[0], 0); // the node drops the slot
            assertEquals(WireError.PATH_INVALID, held.consumed("/t/s/a", 1).code(), "the only slot is gone: its index is past the end");
            assertTrue(held.peerStateLost(), "the generation guard said the slot is gone");
            assertEquals(1, held.restoreIfLost());
            assertEquals(1, held.takeLost().size());
            assertTrue(!held.peerStateLost());
            assertEquals(1, client.subscribers("/x").subscribers());
        } finally {
            client.close();
            node.close();
        }
    }
}
