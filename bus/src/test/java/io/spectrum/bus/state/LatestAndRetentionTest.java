package io.spectrum.bus.state;

import io.spectrum.wire.BusError;

import static io.spectrum.bus.state.BusFixture.code;
import static io.spectrum.bus.state.BusFixture.onlyTopic;
import static io.spectrum.bus.state.BusFixture.p;
import static io.spectrum.bus.state.BusFixture.topicMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;

/** Latest coalescing and retained values: replay, clear, quotas (F-5, F-6, F-8, F-9, F-17). */
class LatestAndRetentionTest extends BusTest {
    final BusFixture f = fixture();
    final BusSession pub = f.connect("pub");
    final BusSession sub = f.connect("sub");

    @Test
    void F09_F_5_latestReplacesOnlyTheUndeliveredValue() throws Exception {
        pub.declare("frames", Retention.NONE);
        sub.subscribe("frames", SubscriptionMode.LATEST, 1, 1, false);
        long[] replaced = new long[4];
        BusMessage.TopicMessage first = null;
        for (int i = 1; i <= 4; i++) {
            BusFixture.Held h = f.artifact(pub, "frame" + i);
            replaced[i - 1] = pub.publish("frames", p(i), List.of(h.as("frame"))).replaced();
            pub.release(List.of(h.ownerId()));
            if (i == 1) {
                first = onlyTopic(sub);
            }
        }
        assertEquals(0, replaced[1]);
        assertEquals(1, replaced[2]);
        assertEquals(1, replaced[3]);
        assertEquals("frame1", f.readBytes(first.attachments().get(0)));
        assertEquals(2, f.bus.stats().sealedArtifacts());
        assertEquals(2, f.bus.stats().roots());
        assertEquals(List.of(), topicMessages(sub));
        sub.consumed(List.of(first.deliveryId()));
        BusMessage.TopicMessage next = onlyTopic(sub);
        assertEquals(4, next.topicSequence());
        assertEquals(2, next.replaced());
        assertEquals("frame4", f.readBytes(next.attachments().get(0)));
        assertEquals(1, f.bus.stats().sealedArtifacts());
    }

    @Test
    void retainFalse_spendsASequenceReachesTheSubscribersAndLeavesTheRetainedValue() throws Exception {
        pub.declare("panel", Retention.LATEST);
        Replies.Published none = pub.publish("panel", p(1).getBytes(), List.of(), false);
        assertEquals(1, none.topicSequence(), "a sequence number is spent");
        assertEquals(0, none.subscribers(), "delivered 0");
        BusSession early = f.connect("early");
        early.subscribe("panel", SubscriptionMode.BOUNDED, 8, 8, true);
        assertEquals(List.of(), topicMessages(early), "nothing was retained: no replay");
        pub.publish("panel", p(2), List.of());
        Replies.Published live = pub.publish("panel", p(3).getBytes(), List.of(), false);
        assertEquals(3, live.topicSequence());
        assertEquals(1, live.subscribers(), "delivered to the current subscriber");
        assertEquals(List.of("2:" + p(2), "3:" + p(3)), BusFixture.seqs(topicMessages(early)));
        sub.subscribe("panel", SubscriptionMode.BOUNDED, 8, 8, true);
        BusMessage.TopicMessage replay = onlyTopic(sub);
        assertEquals(2, replay.topicSequence(), "a late joiner gets the last retained value with its own sequence");
        assertEquals(p(2), replay.payloadText());
        assertEquals(4, pub.publish("panel", p(4), List.of()).topicSequence());
    }

    @Test
    void retainFalse_anArtifactOfANonRetainedPublishIsNotHeldByTheTopic() throws Exception {
        pub.declare("frames", Retention.LATEST);
        BusFixture.Held h = f.artifact(pub, "frame");
        pub.publish("frames", p(1).getBytes(), List.of(h.as("frame")), false);
        pub.release(List.of(h.ownerId()));
        assertEquals(0, f.bus.stats().sealedArtifacts(), "no subscriber, not retained: collected");
        assertEquals(0, f.bus.stats().retainedBytes());
    }

    @Test
    void F_5_aLatestSubscriberWithOneCreditHoldsAtMostTwoRoots() throws Exception {
        pub.declare("frames", Retention.NONE);
        sub.subscribe("frames", SubscriptionMode.LATEST, 1, 1, false);
        for (int i = 1; i <= 10; i++) {
            BusFixture.Held h = f.artifact(pub, "f" + i);
            pub.publish("frames", p(i), List.of(h.as("frame")));
            pub.release(List.of(h.ownerId()));
            topicMessages(sub);
            assertTrue(f.bus.stats().roots() <= 2);
        }
        assertEquals(2, f.bus.stats().roots());
        assertEquals(1, f.bus.stats().queued());
    }

    @Test
    void F_6_aLatestSubscriberNeverRefusesAPublication() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxBoundedQueuedBytesPerClient(70_000).build());
        BusSession p = small.connect("p");
        BusSession s = small.connect("s");
        p.declare("big", Retention.NONE);
        s.subscribe("big", SubscriptionMode.LATEST, 1, 2, false);
        String body = "\"" + "z".repeat(60_000) + "\"";
        long replaced = 0;
        for (int i = 0; i < 100; i++) {
            replaced += p.publish("big", body, List.of()).replaced();
        }
        // 100 × 60 KB is far past the 70 KB bounded pool: a latest subscriber is outside it
        assertEquals(99, replaced);
        assertEquals(1, small.bus.stats().queued());
        BusMessage.TopicMessage m = onlyTopic(s);
        assertEquals(100, m.topicSequence());
        assertEquals(99, m.replaced());
    }

    @Test
    void F_6_aLatestSubscriberWithCreditsInUseStillCoalesces() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxBoundedQueuedBytesPerClient(70_000).build());
        BusSession p = small.connect("p");
        BusSession s = small.connect("s");
        p.declare("big", Retention.NONE);
        s.subscribe("big", SubscriptionMode.LATEST, 1, 2, false);
        String body = "\"" + "z".repeat(60_000) + "\"";
        p.publish("big", body, List.of());
        p.publish("big", body, List.of());
        List<BusMessage.TopicMessage> inFlight = topicMessages(s);
        assertEquals(1, inFlight.size());
        p.publish("big", body, List.of());
        assertEquals(1, topicMessages(s).size());
        long replaced = 0;
        for (int i = 0; i < 100; i++) {
            replaced += p.publish("big", body, List.of()).replaced();
        }
        assertEquals(99, replaced);
        assertEquals(1, small.bus.stats().queued());
    }

    @Test
    void F13_F_8_replayKeepsTheOriginalSequenceWithAFreshDeliveryId() throws Exception {
        pub.declare("snap", Retention.LATEST);
        assertEquals(0, pub.publish("snap", p(1), List.of()).subscribers());
        BusSession other = f.connect("other");
        sub.subscribe("snap", SubscriptionMode.BOUNDED, 4, 4, true);
        other.subscribe("snap", SubscriptionMode.BOUNDED, 4, 4, false);
        BusMessage.TopicMessage m = onlyTopic(sub);
        assertEquals(1, m.topicSequence());
        assertEquals(p(1), m.payloadText());
        assertEquals("dlv-1", m.deliveryId());
        assertEquals(List.of(), topicMessages(other));
        BusSession third = f.connect("third");
        third.subscribe("snap", SubscriptionMode.LATEST, 1, 1, true);
        BusMessage.TopicMessage again = onlyTopic(third);
        assertEquals(1, again.topicSequence());
        assertEquals("dlv-1", again.deliveryId());
        assertEquals(0, again.replaced());
    }

    @Test
    void F_8_theReplayIsQueuedAheadOfALaterPublish_andLatestMayCoalesceIt() throws Exception {
        pub.declare("snap", Retention.LATEST);
        pub.publish("snap", p(1), List.of());
        sub.subscribe("snap", SubscriptionMode.BOUNDED, 4, 4, true);
        pub.publish("snap", p(2), List.of());
        assertEquals(List.of("1:" + p(1), "2:" + p(2)), BusFixture.seqs(topicMessages(sub)));
        BusSession lat = f.connect("lat");
        lat.subscribe("snap", SubscriptionMode.LATEST, 1, 1, true);
        assertEquals(1, pub.publish("snap", p(3), List.of()).replaced());
        BusMessage.TopicMessage m = onlyTopic(lat);
        assertEquals(3, m.topicSequence());
        assertEquals(1, m.replaced());
    }

    @Test
    void F15_F_9_clearReleasesOnlyTheRetainedRoot_andNoReplayUntilAFreshPublish() throws Exception {
        pub.declare("snap", Retention.LATEST);
        BusFixture.Held h = f.artifact(pub, "snapshot");
        pub.publish("snap", p(1), List.of(h.as("s")));
        pub.release(List.of(h.ownerId()));
        assertEquals(1, f.bus.stats().roots());
        sub.subscribe("snap", SubscriptionMode.BOUNDED, 4, 4, true);
        BusMessage.TopicMessage held = onlyTopic(sub);
        assertTrue(pub.clear("snap"));
        assertFalse(pub.clear("snap"));
        assertEquals(0, f.bus.stats().retainedBytes());
        assertEquals("snapshot", f.readBytes(held.attachments().get(0)));
        assertEquals(1, f.bus.stats().roots());
        BusSession late = f.connect("late");
        late.subscribe("snap", SubscriptionMode.BOUNDED, 4, 4, true);
        assertEquals(List.of(), topicMessages(late));
        pub.publish("snap", p(2), List.of());
        assertEquals(2, onlyTopic(late).topicSequence());
        sub.consumed(List.of(held.deliveryId()));
        assertEquals(0, f.bus.stats().sealedArtifacts());
    }

    @Test
    void F_9_noReplayWithoutReplayLatest() throws Exception {
        pub.declare("snap", Retention.LATEST);
        pub.publish("snap", p(1), List.of());
        sub.subscribe("snap", SubscriptionMode.BOUNDED, 4, 4, false);
        assertEquals(List.of(), topicMessages(sub));
    }

    @Test
    void F_11_deleteReleasesRetainedState_andRedeclareStartsFresh() throws Exception {
        String inc = pub.declare("snap", Retention.LATEST).topicIncarnation();
        BusFixture.Held h = f.artifact(pub, "old");
        pub.publish("snap", p(1), List.of(h.as("s")));
        pub.release(List.of(h.ownerId()));
        assertEquals(1, f.bus.stats().sealedArtifacts());
        assertTrue(pub.delete("snap"));
        assertEquals(0, f.bus.stats().sealedArtifacts());
        assertEquals(0, f.bus.stats().retainedBytes());
        assertNotEquals(inc, pub.declare("snap", Retention.LATEST).topicIncarnation());
        sub.subscribe("snap", SubscriptionMode.BOUNDED, 4, 4, true);
        assertEquals(List.of(), topicMessages(sub));
    }

    @Test
    void F23_F_17_retainedBytesAreCapped_oneObjectCountsOnce_replacementIsNet() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxTopics(2).maxRetainedBytes(100).build());
        BusSession p = small.connect("p");
        p.declare("t.a", Retention.LATEST);
        p.declare("t.b", Retention.LATEST);
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> p.declare("t.c", Retention.LATEST)));
        BusFixture.Held sixty = small.artifact(p, BusFixture.sized(60, 's'));
        p.publish("t.a", p(1), List.of(sixty.as("one"), sixty.as("two")));
        assertEquals(60, small.bus.stats().retainedBytes());
        BusFixture.Held fifty = small.artifact(p, BusFixture.sized(50, 'f'));
        BusStats before = small.bus.stats();
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> p.publish("t.b", p(2), List.of(fifty.as("x")))));
        assertEquals(before, small.bus.stats());
        assertEquals(60, small.bus.stats().retainedBytes());
        assertEquals(2, p.publish("t.a", p(3), List.of(fifty.as("x"))).topicSequence());
        assertEquals(50, small.bus.stats().retainedBytes());
    }

    @Test
    void F25_aBoundedReplayThatDoesNotFitThePoolIsBackpressure_latestSucceeds() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxBoundedQueuedBytesPerClient(10_000).build());
        BusSession p = small.connect("p");
        BusSession s = small.connect("s");
        p.declare("fill", Retention.NONE);
        p.declare("snap", Retention.LATEST);
        String big = "\"" + "r".repeat(6_000) + "\"";
        p.publish("snap", big, List.of());
        s.subscribe("fill", SubscriptionMode.BOUNDED, 8, 1, false);
        p.publish("fill", "\"" + "q".repeat(5_000) + "\"", List.of());
        BusStats before = small.bus.stats();
        assertEquals(BusError.BACKPRESSURE, code(() -> s.subscribe("snap", SubscriptionMode.BOUNDED, 4, 4, true)));
        assertEquals(before, small.bus.stats());
        Replies.Subscribed ok = s.subscribe("snap", SubscriptionMode.LATEST, 1, 1, true);
        assertEquals("sub-2", ok.subscriptionId());
        List<BusMessage.TopicMessage> got = topicMessages(s);
        assertEquals(2, got.size());
        assertTrue(got.stream().anyMatch(m -> m.payloadText().equals(big) && m.topicSequence() == 1));
    }

    @Test
    void F22_F_16_subscriberDisconnectReleasesQueuedAndDeliveredRootsButNotRetention() throws Exception {
        pub.declare("snap", Retention.LATEST);
        sub.subscribe("snap", SubscriptionMode.BOUNDED, 8, 1, false);
        for (int i = 0; i < 3; i++) {
            BusFixture.Held h = f.artifact(pub, "v" + i);
            pub.publish("snap", p(i), List.of(h.as("v")));
            pub.release(List.of(h.ownerId()));
        }
        assertEquals(1, topicMessages(sub).size());
        assertEquals(3, f.bus.stats().sealedArtifacts());
        sub.close();
        assertEquals(1, f.bus.stats().sealedArtifacts());
        assertEquals(1, f.bus.stats().roots());
        BusFixture.Held h = f.artifact(pub, "v3");
        pub.publish("snap", p(3), List.of(h.as("v")));
        pub.release(List.of(h.ownerId()));
        assertEquals(1, f.bus.stats().sealedArtifacts());
        assertEquals(1, f.bus.stats().roots());
        assertEquals(2, f.bus.stats().retainedBytes());
    }
}
