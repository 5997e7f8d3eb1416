package io.spectrum.bus.state;

import io.spectrum.wire.BusError;

import static io.spectrum.bus.state.BusFixture.code;
import static io.spectrum.bus.state.BusFixture.onlyTopic;
import static io.spectrum.bus.state.BusFixture.p;
import static io.spectrum.bus.state.BusFixture.seqs;
import static io.spectrum.bus.state.BusFixture.topicMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;

/** Bounded fan-out, atomic admission, credits and the delivery-size limit (F-3, F-4, F-7, F-10, F-12, F-15, F-19). */
class PublishFanOutTest extends BusTest {
    final BusFixture f = fixture();
    final BusSession pub = f.connect("pub");
    final BusSession a = f.connect("a");
    final BusSession b = f.connect("b");

    @Test
    void F05_boundedFanOutKeepsOrderAndReplyCounts() throws Exception {
        pub.declare("t", Retention.NONE);
        a.subscribe("t", SubscriptionMode.BOUNDED, 8, 8, false);
        b.subscribe("t", SubscriptionMode.BOUNDED, 8, 8, false);
        assertEquals(new Replies.Published(1, 2, 0), pub.publish("t", p(1), List.of()));
        assertEquals(new Replies.Published(2, 2, 0), pub.publish("t", p(2), List.of()));
        assertEquals(new Replies.Published(3, 2, 0), pub.publish("t", p(3), List.of()));
        List<String> want = List.of("1:" + p(1), "2:" + p(2), "3:" + p(3));
        assertEquals(want, seqs(topicMessages(a)));
        assertEquals(want, seqs(topicMessages(b)));
    }

    @Test
    void F08_F_4_inFlightAndQueuedAreSeparateCounters() throws Exception {
        pub.declare("t", Retention.NONE);
        a.subscribe("t", SubscriptionMode.BOUNDED, 1, 1, false);
        pub.publish("t", p(1), List.of());
        BusMessage.TopicMessage held = onlyTopic(a);
        assertEquals(1, held.topicSequence());
        assertEquals(2, pub.publish("t", p(2), List.of()).topicSequence());
        BusStats before = f.bus.stats();
        assertEquals(BusError.BACKPRESSURE, code(() -> pub.publish("t", p(3), List.of())));
        assertEquals(before, f.bus.stats());
        assertEquals(List.of(), topicMessages(a));
        a.consumed(List.of(held.deliveryId()));
        assertEquals(List.of("2:" + p(2)), seqs(topicMessages(a)));
        assertEquals(3, pub.publish("t", p(3), List.of()).topicSequence());
    }

    @Test
    void F_4_boundedQueuedTwoInFlightOneHoldsThreeAndRefusesTheFourth() throws Exception {
        pub.declare("t", Retention.NONE);
        a.subscribe("t", SubscriptionMode.BOUNDED, 2, 1, false);
        pub.publish("t", p(1), List.of());
        assertEquals(1, topicMessages(a).size());
        pub.publish("t", p(2), List.of());
        pub.publish("t", p(3), List.of());
        assertEquals(BusError.BACKPRESSURE, code(() -> pub.publish("t", p(4), List.of())));
        assertEquals(2, f.bus.stats().queued());
    }

    @Test
    void F_3_boundedOverflowRefusesTheWholePublish() throws Exception {
        pub.declare("t", Retention.LATEST);
        a.subscribe("t", SubscriptionMode.BOUNDED, 1, 1, false);
        b.subscribe("t", SubscriptionMode.BOUNDED, 8, 8, false);
        BusFixture.Held h1 = f.artifact(pub, "one");
        pub.publish("t", p(1), List.of(h1.as("frame")));
        BusMessage.TopicMessage aHeld = onlyTopic(a);
        pub.publish("t", p(2), List.of(h1.as("frame")));
        topicMessages(b);
        BusFixture.Held h3 = f.artifact(pub, "three");
        BusStats before = f.bus.stats();
        assertEquals(BusError.BACKPRESSURE, code(() -> pub.publish("t", p(3), List.of(h3.as("frame")))));
        // nobody got it, the retained value did not change, no sequence spent, no root made
        assertEquals(before, f.bus.stats());
        assertEquals(List.of(), topicMessages(b));
        BusSession late = f.connect("late");
        late.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, true);
        assertEquals(2, onlyTopic(late).topicSequence());
        a.consumed(List.of(aHeld.deliveryId()));
        topicMessages(a);
        assertEquals(3, pub.publish("t", p(3), List.of(h3.as("frame"))).topicSequence());
    }

    @Test
    void F11_F_7_creditsReturnOnlyOnConsume() throws Exception {
        pub.declare("t", Retention.NONE);
        a.subscribe("t", SubscriptionMode.BOUNDED, 8, 2, false);
        for (int i = 0; i < 5; i++) {
            pub.publish("t", p(i), List.of());
        }
        assertTrue(a.hasOutbound());
        List<BusMessage.TopicMessage> first = topicMessages(a);
        assertEquals(List.of("1:" + p(0), "2:" + p(1)), seqs(first));
        assertFalse(a.hasOutbound());
        assertNull(a.poll());
        a.consumed(List.of(first.get(0).deliveryId()));
        assertEquals(List.of("3:" + p(2)), seqs(topicMessages(a)));
        assertNull(a.poll());
        a.consumed(List.of(first.get(1).deliveryId()));
        assertEquals(List.of("4:" + p(3)), seqs(topicMessages(a)));
    }

    @Test
    void F_7_anExplicitHoldDoesNotKeepTheCredit() throws Exception {
        pub.declare("t", Retention.NONE);
        a.subscribe("t", SubscriptionMode.BOUNDED, 8, 1, false);
        BusFixture.Held h = f.artifact(pub, "frame");
        pub.publish("t", p(1), List.of(h.as("f")));
        pub.publish("t", p(2), List.of());
        BusMessage.TopicMessage m = onlyTopic(a);
        String hold = a.retain(m.attachments().get(0).ref(), m.deliveryId());
        assertEquals(1, a.consumed(List.of(m.deliveryId())));
        assertEquals(2, onlyTopic(a).topicSequence());
        assertEquals("frame", f.readBytes(m.attachments().get(0)));
        assertTrue(a.open(m.attachments().get(0).ref(), hold).startsWith("sealed/"));
    }

    @Test
    void F17_F_10_zeroSubscriberPublishRetainsNothing() throws Exception {
        pub.declare("t", Retention.NONE);
        BusFixture.Held h = f.artifact(pub, "lonely");
        Replies.Published r = pub.publish("t", p(1), List.of(h.as("f")));
        assertEquals(0, r.subscribers());
        assertEquals(1, r.topicSequence());
        assertEquals(1, f.bus.stats().roots());
        assertEquals(1, pub.release(List.of(h.ownerId())));
        assertEquals(0, f.bus.stats().storeBytes());
        assertEquals(0, f.bus.stats().sealedArtifacts());
        assertEquals(0, f.bus.stats().roots());
        assertEquals(2, pub.publish("t", p(2), List.of()).topicSequence());
    }

    @Test
    void F27_F_19_aDeliveryOverTheEnvelopeLimitIsRefused_evenWhenTheInboundFits() throws Exception {
        pub.declare("t", Retention.LATEST);
        a.subscribe("t", SubscriptionMode.BOUNDED, 8, 8, false);
        int overhead = Envelopes.topicMessage("t", new byte[0], List.of());
        // the inbound publish is about 150 bytes of wrapper: this payload fits inbound, not as a delivery
        String tooBig = "\"" + "x".repeat(65_536 - 200 - 2) + "\"";
        assertTrue(overhead > 200);
        BusStats before = f.bus.stats();
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> pub.publish("t", tooBig, List.of())));
        assertEquals(before, f.bus.stats());
        assertEquals(List.of(), topicMessages(a));
        // the largest payload whose delivery fits exactly (long lengths past 64 KiB add header bytes)
        int n = 65_536 - overhead;
        while (Envelopes.topicMessage("t", new byte[n], List.of()) > 65_536) {
            n--;
        }
        assertTrue(Envelopes.topicMessage("t", new byte[n + 1], List.of()) > 65_536);
        String fits = "x".repeat(n);
        assertEquals(1, pub.publish("t", fits, List.of()).topicSequence());
        assertEquals(fits, onlyTopic(a).payloadText());
    }

    @Test
    void F_3_theClientsBoundedQueuedBytesPoolRefusesTheWholePublish() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxBoundedQueuedBytesPerClient(3_000).build());
        BusSession p = small.connect("p");
        BusSession s = small.connect("s");
        BusSession other = small.connect("o");
        p.declare("t", Retention.NONE);
        s.subscribe("t", SubscriptionMode.BOUNDED, 64, 1, false);
        other.subscribe("t", SubscriptionMode.BOUNDED, 64, 16, false);
        String body = "\"" + "y".repeat(500) + "\"";
        int accepted = 0;
        try {
            while (true) {
                p.publish("t", body, List.of());
                accepted++;
            }
        } catch (BusException e) {
            assertEquals(BusError.BACKPRESSURE, e.code());
        }
        int per = Envelopes.topicMessage("t", body.getBytes(java.nio.charset.StandardCharsets.UTF_8), List.of());
        assertEquals(3_000 / per, accepted);
        assertEquals(accepted, small.bus.stats().queued() / 2);
        // other drains everything, s one into flight: the pools free as deliveries leave the queues
        assertEquals(accepted, topicMessages(other).size());
        assertEquals(1, topicMessages(s).size());
        assertEquals(accepted + 1, p.publish("t", body, List.of()).topicSequence());
    }

    @Test
    void F18_F_12_unsubscribeDiscardsTheQueueButKeepsDeliveredHandles() throws Exception {
        pub.declare("t", Retention.NONE);
        String sub = a.subscribe("t", SubscriptionMode.BOUNDED, 8, 1, false).subscriptionId();
        BusFixture.Held[] hs = new BusFixture.Held[3];
        for (int i = 0; i < 3; i++) {
            hs[i] = f.artifact(pub, "frame" + i);
            pub.publish("t", p(i), List.of(hs[i].as("f")));
        }
        pub.release(List.of(hs[0].ownerId(), hs[1].ownerId(), hs[2].ownerId()));
        BusMessage.TopicMessage held = onlyTopic(a);
        assertEquals(3, f.bus.stats().sealedArtifacts());
        assertTrue(a.unsubscribe(sub));
        assertEquals(1, f.bus.stats().sealedArtifacts());
        assertEquals("frame0", f.readBytes(held.attachments().get(0)));
        assertTrue(a.open(held.attachments().get(0).ref(), held.deliveryId()).startsWith("sealed/"));
        a.consumed(List.of(held.deliveryId()));
        assertEquals(0, f.bus.stats().sealedArtifacts());
        assertEquals(0, f.bus.stats().roots());
    }

    @Test
    void F19_anotherConnectionCannotUnsubscribeBySubscriptionId() throws Exception {
        pub.declare("t", Retention.NONE);
        String sub = a.subscribe("t", SubscriptionMode.BOUNDED, 8, 8, false).subscriptionId();
        assertEquals("sub-1", sub);
        assertEquals(false, b.unsubscribe(sub));
        pub.publish("t", p(1), List.of());
        assertEquals(1, topicMessages(a).size());
        assertTrue(a.unsubscribe(sub));
        assertEquals(false, a.unsubscribe(sub));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> a.unsubscribe("nonsense")));
    }

    @Test
    void F21_F_15_fanOutSharesOneObject_collectedAfterTheLastConsumer() throws Exception {
        pub.declare("t", Retention.NONE);
        BusSession c = f.connect("c");
        for (BusSession s : List.of(a, b, c)) {
            s.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        }
        BusFixture.Held h = f.artifact(pub, BusFixture.sized(1_228_800, 'p'));
        pub.publish("t", p(1), List.of(h.as("frame")));
        pub.release(List.of(h.ownerId()));
        assertEquals(1, f.bus.stats().sealedArtifacts());
        assertEquals(3, f.bus.stats().roots());
        assertEquals(1_228_800, f.bus.stats().storeBytes());
        BusMessage.TopicMessage ma = onlyTopic(a);
        BusMessage.TopicMessage mb = onlyTopic(b);
        BusMessage.TopicMessage mc = onlyTopic(c);
        assertEquals(ma.attachments().get(0).ref(), mc.attachments().get(0).ref());
        a.consumed(List.of(ma.deliveryId()));
        b.consumed(List.of(mb.deliveryId()));
        assertEquals(1, f.bus.stats().sealedArtifacts());
        assertEquals(1, f.bus.stats().roots());
        c.consumed(List.of(mc.deliveryId()));
        assertEquals(0, f.bus.stats().sealedArtifacts());
        assertEquals(0, f.bus.stats().storeBytes());
    }

    @Test
    void F_15_aDeliveryNamingOneObjectTwiceHoldsOneRoot() throws Exception {
        pub.declare("t", Retention.NONE);
        a.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        b.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        BusFixture.Held h = f.artifact(pub, "same");
        pub.publish("t", p(1), List.of(h.as("left"), h.as("right")));
        // the producer's hold plus one root per delivery, not per name
        assertEquals(3, f.bus.stats().roots());
        BusMessage.TopicMessage m = onlyTopic(a);
        assertEquals(2, m.attachments().size());
        assertEquals(m.deliveryId(), m.attachments().get(1).ownerId());
    }
}
