package io.spectrum.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wire.DeliveryPolicy;
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
}
