package io.spectrum.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** subscribe / list / suspend / resume / clear / replace over the wire (RFC-0035) and the owner door. */
class SubscriptionSurfaceTest {
    /** Polls the in-process node until nothing moves: whatever the node sends has arrived. */
    private static void settle(NodeFixture f) {
        while (f.client.pumpOnce() > 0) {
            // drain
        }
    }

    @Test
    void appendListSuspendResumeClear() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/x", 1, 1);
            DeliveryLog log = new DeliveryLog();
            f.client.onDelivery(log);
            Subscribed a = f.client.subscribe("/x", "/t/s/a", DeliveryPolicy.DURABILITY_REQUEST, false);
            Subscribed b = f.client.subscribe("/x", "/t/s/b", -1, false);
            assertTrue(a.ok() && b.ok());
            SubscriberList list = f.client.subscribers("/x");
            assertTrue(list.ok());
            assertEquals(2, list.subscribers());
            int na = list.indexOf("/t/s/a");
            int nb = list.indexOf("/t/s/b");
            assertTrue(na >= 0 && nb > na, "A appended before B: " + na + ", " + nb);
            assertEquals(DeliveryPolicy.DURABILITY_REQUEST, list.slots().get(na).policy());
            settle(f);
            assertEquals(1, log.to("/t/s/a").size(), "durability replays the current value once");
            assertEquals(0, log.to("/t/s/b").size());

            byte[] recA = f.client.slot("/x", na, -1).value();
            byte[] recB = f.client.slot("/x", nb, -1).value();
            assertTrue(f.client.suspend("/x", na, -1).ok());
            assertTrue(f.client.suspend("/x", nb, -1).ok());
            assertTrue(f.client.suspend("/x", nb, -1).ok(), "a retried suspend is a no-op success");
            list = f.client.subscribers("/x");
            assertEquals(2, list.suspended());
            assertTrue(list.slots().get(na).suspended() && list.slots().get(nb).suspended());

            long t1 = System.nanoTime();
            assertTrue(f.client.write("/x", NodeFixture.value(2, 1)).ok());
            settle(f);
            assertEquals(0, log.since("/t/s/a", t1).size(), "a suspended edge receives nothing");
            assertEquals(0, log.since("/t/s/b", t1).size());

            assertTrue(f.client.resume("/x", na, -1).ok());
            assertTrue(f.client.resume("/x", nb, -1).ok());
            assertArrayEquals(recA, f.client.slot("/x", na, -1).value(), "rule 1: bit 9 of the word flipped back");
            assertArrayEquals(recB, f.client.slot("/x", nb, -1).value(),
                    "rule 3: the word-less record renders as before (a toggle, not a replace)");
            settle(f);
            assertEquals(0, log.since("/t/s/a", t1).size(), "no replay on resume");
            long t2 = System.nanoTime();
            assertTrue(f.client.write("/x", NodeFixture.value(3, 1)).ok());
            assertEquals(1, log.await(f.client, "/t/s/a", t2, 1, f.client.timeout()).size());
            assertEquals(1, log.await(f.client, "/t/s/b", t2, 1, f.client.timeout()).size());

            assertTrue(f.client.clear("/x", na, -1).ok());
            list = f.client.subscribers("/x");
            assertTrue(list.slots().get(na).isHole(), "a cleared slot lists as a hole");
            assertEquals(nb, list.indexOf("/t/s/b"), "B keeps its position");
            assertEquals(1, list.subscribers());
            assertEquals(WireError.PATH_INVALID, f.client.clear("/x", 60000, -1).code(), "never grown from a wire index");
        }
    }

    @Test
    void theGenerationGuardRefusesAStaleIdentity() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/x", 1, 1);
            Subscribed plain = f.client.subscribe("/x", "/t/s/plain", -1, false);
            assertTrue(plain.ok());
            assertEquals(-1, plain.generation(), "a plain v1 client gets the plain v1 answer");
            f.client.announceExtensions(true);
            Subscribed a = f.client.subscribe("/x", "/t/s/a", -1, false);
            assertTrue(a.ok());
            assertTrue(a.generation() >= 0, "an announcing client gets the slot identity");
            assertEquals(f.client.subscribers("/x").indexOf("/t/s/a"), a.index());
            int n = a.index();
            long stale = (a.generation() + 1) & 0xFFFFFFFFL;
            assertEquals(WireError.PATH_NOT_FOUND, f.client.suspend("/x", n, stale).code());
            assertEquals(WireError.PATH_NOT_FOUND, f.client.clear("/x", n, stale).code());
            assertFalse(f.client.subscribers("/x").slots().get(n).suspended(), "a refused guard changes nothing");
            for (long wide : new long[] {0x1_0000L, 0xFFFF_FFFFL}) { // the generation is a u32: no 16-bit limit
                assertEquals(WireError.PATH_NOT_FOUND, f.client.suspend("/x", n, wide).code(), "generation " + wide);
                assertEquals(WireError.PATH_NOT_FOUND, f.client.clear("/x", n, wide).code(), "generation " + wide);
            }
            assertTrue(f.client.suspend("/x", n, a.generation()).ok());
            assertTrue(f.client.subscribers("/x").slots().get(n).suspended());
            assertTrue(f.client.clear("/x", n, a.generation()).ok());
            assertEquals(List.of("/t/s/plain"), f.client.subscribers("/x").slots().stream()
                    .filter(x -> !x.isHole()).map(Slot::target).toList(), "only the plain client's slot is left");
        }
    }

    @Test
    void replaceReadmitsThroughTheAppendDoor() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/x", 1, 1);
            assertTrue(f.client.subscribe("/x", "/t/s/a", -1, false).ok());
            int n = f.client.subscribers("/x").indexOf("/t/s/a");
            Subscribed r = f.client.replace("/x", n, -1, Requests.subscriber("/t/s/a", DeliveryPolicy.DURABILITY_REQUEST, false));
            assertTrue(r.ok(), r.reply().toString());
            Slot s = f.client.subscribers("/x").slots().get(n);
            assertEquals("/t/s/a", s.target());
            assertEquals(DeliveryPolicy.DURABILITY_REQUEST, s.policy());
            assertEquals(WireError.SCHEMA_TYPE_MISMATCH,
                    f.client.write("/x", Requests.subscribersAt(n, -1), NodeFixture.value(1, 1)).code());
        }
    }

    @Test
    void theOwnerDoorListsAndTogglesRemoteSlots() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/x", 1, 1);
            assertTrue(f.client.subscribe("/x", "/t/s/a", -1, false).ok());
            PeerClient owner = new PeerClient(new OwnerTransport(f.node), Duration.ofSeconds(1), "/$t/r/");
            SubscriberList list = owner.subscribers("/x");
            int n = list.indexOf("/t/s/a");
            assertTrue(n >= 0, "the owner lists the remote slot");
            byte[] before = owner.slot("/x", n, -1).value();
            assertTrue(owner.suspend("/x", n, -1).ok());
            assertTrue(f.client.subscribers("/x").slots().get(n).suspended(), "the remote reader sees the bit");
            assertTrue(owner.resume("/x", n, -1).ok());
            assertArrayEquals(before, f.client.slot("/x", n, -1).value());
            assertEquals(WireError.PATH_NOT_FOUND, owner.read("/absent").code());
        }
    }
}
