package io.spectrum.bus.state;

import io.spectrum.link.Lane;

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
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;

/** Declaring, clearing and deleting topics; names; subscription requests (reference §1.3, F-1, F-2, F-11). */
class TopicRegistryTest extends BusTest {
    final BusFixture f = fixture();
    final BusSession c = f.connect("app");

    @Test
    void F01_compatibleRedeclareKeepsIncarnation_conflictingSettingIsConflict() throws Exception {
        Replies.Declared first = c.declare("t", Retention.LATEST);
        assertTrue(first.declared());
        Replies.Declared again = c.declare("t", Retention.LATEST);
        assertFalse(again.declared());
        assertEquals(first.topicIncarnation(), again.topicIncarnation());
        assertEquals(BusError.CONFLICT, code(() -> c.declare("t", Retention.NONE)));
        assertEquals(1, f.bus.stats().topics());
    }

    @Test
    void F02_F_2_undeclaredTopicIsNoTopicForPublishSubscribeClear_butDeleteIsFalse() throws Exception {
        assertEquals(BusError.NO_TOPIC, code(() -> c.publish("t.missing", p(1), List.of())));
        assertEquals(BusError.NO_TOPIC, code(() -> c.subscribe("t.missing", SubscriptionMode.BOUNDED, 4, 1, false)));
        assertEquals(BusError.NO_TOPIC, code(() -> c.clear("t.missing")));
        assertFalse(c.delete("t.missing"));
        assertTrue(c.isOpen());
        assertTrue(c.declare("t.ok", Retention.NONE).declared());
    }

    @Test
    void F03_badNamesAreInvalidEnvelope_andTheNextValidDeclareSucceeds() throws Exception {
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.declare("t..bad", Retention.NONE)));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.declare("T.upper", Retention.NONE)));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.declare("a".repeat(193), Retention.NONE)));
        // a topic is a node vertex: each dot segment is a path segment of at most 64 bytes
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.declare("x." + "a".repeat(65), Retention.NONE)));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.declare("", Retention.NONE)));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.declare(".lead", Retention.NONE)));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.declare("trail.", Retention.NONE)));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.declare("t", null)));
        assertEquals(0, f.bus.stats().topics());
        assertTrue(c.declare("a".repeat(64) + "." + "b".repeat(64) + "." + "c".repeat(62), Retention.NONE).declared()); // 192
        assertTrue(c.declare("ok.name_1-x", Retention.NONE).declared());
    }

    @Test
    void F04_subscriptionRequestsAreCheckedInTheReferenceOrder() throws Exception {
        c.declare("t", Retention.NONE);
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.subscribe("t", SubscriptionMode.LATEST, 2, 1, false)));
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> c.subscribe("t", SubscriptionMode.LATEST, 1, 3, false)));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.subscribe("t", SubscriptionMode.BOUNDED, 4, 0, false)));
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> c.subscribe("t", SubscriptionMode.BOUNDED, 65, 1, false)));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.subscribe("t", SubscriptionMode.BOUNDED, 65536, 1, false)));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> c.subscribe("t", null, 1, 1, false)));
        // range and caps come before NO_TOPIC
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> c.subscribe("nope", SubscriptionMode.LATEST, 1, 3, false)));
        assertEquals(0, f.bus.stats().subscriptions());
        assertEquals("sub-1", c.subscribe("t", SubscriptionMode.LATEST, 1, 2, false).subscriptionId());
        assertEquals("sub-2", c.subscribe("t", SubscriptionMode.BOUNDED, 64, 16, false).subscriptionId());
    }

    /**
     * Flybus restarts a re-declared topic's sequence at 1; here a topic is a node vertex, whose
     * sequence never goes back while the node runs (docs/bus.md, "Topics are the node's vertices"),
     * so the new incarnation numbers on from the deleted one's last publish.
     */
    @Test
    void F16_F_11_deleteRefusedWhileSubscribed_redeclareIsANewIncarnation_itsSequenceGoesOn() throws Exception {
        String old = c.declare("t", Retention.NONE).topicIncarnation();
        String sub = c.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false).subscriptionId();
        assertEquals(1, c.publish("t", p(1), List.of()).topicSequence());
        assertEquals(2, c.publish("t", p(2), List.of()).topicSequence());
        List<BusMessage.TopicMessage> before = topicMessages(c);
        assertEquals(BusError.CONFLICT, code(() -> c.delete("t")));
        assertTrue(c.unsubscribe(sub));
        assertTrue(c.delete("t"));
        assertFalse(c.delete("t"));
        String fresh = c.declare("t", Retention.NONE).topicIncarnation();
        assertNotEquals(old, fresh);
        c.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        assertEquals(3, c.publish("t", p(3), List.of()).topicSequence());
        BusMessage.TopicMessage m = onlyTopic(c);
        assertEquals(fresh, m.topicIncarnation());
        assertEquals(3, m.topicSequence());
        assertEquals(old, before.get(0).topicIncarnation());
        assertEquals(old, before.get(1).topicIncarnation());
    }

    @Test
    void F28_F_1_topicsNamedLikeNoticesAreOrdinaryTopicData() throws Exception {
        for (String name : List.of("call.failed", "route.removed", "subscription.closed", "connection.closing")) {
            c.declare(name, Retention.NONE);
            c.subscribe(name, SubscriptionMode.BOUNDED, 4, 4, false);
            String payload = "{\"reason\":\"router-stopping\",\"code\":\"ROUTER_LOST\"}";
            c.publish(name, payload, List.of());
            List<BusMessage> got = BusFixture.drain(c);
            assertEquals(1, got.size());
            BusMessage.TopicMessage m = (BusMessage.TopicMessage) got.get(0);
            assertEquals(Lane.TOPIC, m.lane());
            assertEquals(name, m.topic());
            assertEquals(payload, m.payloadText());
        }
    }

    @Test
    void F_1_namesAreExact_aPrefixNameIsAnotherTopic() throws Exception {
        c.declare("a.b", Retention.NONE);
        c.declare("a.b.c", Retention.NONE);
        c.subscribe("a.b", SubscriptionMode.BOUNDED, 4, 4, false);
        assertEquals(0, c.publish("a.b.c", p(1), List.of()).subscribers());
        assertEquals(List.of(), topicMessages(c));
        assertEquals(1, c.publish("a.b", p(2), List.of()).subscribers());
        assertEquals(p(2), onlyTopic(c).payloadText());
    }

    @Test
    void topicQuotaIsQuotaExceeded_andNothingIsDeclared() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxTopics(2).build());
        BusSession x = small.connect("x");
        x.declare("t.a", Retention.NONE);
        x.declare("t.b", Retention.NONE);
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> x.declare("t.c", Retention.NONE)));
        assertFalse(x.declare("t.a", Retention.NONE).declared());
        assertEquals(2, small.bus.stats().topics());
    }

    @Test
    void subscriptionCountsArePerClientAndTotal() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxSubscriptionsPerClient(2).maxSubscriptions(3).build());
        BusSession x = small.connect("x");
        BusSession y = small.connect("y");
        x.declare("t", Retention.NONE);
        x.subscribe("t", SubscriptionMode.BOUNDED, 1, 1, false);
        x.subscribe("t", SubscriptionMode.BOUNDED, 1, 1, false);
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> x.subscribe("t", SubscriptionMode.BOUNDED, 1, 1, false)));
        y.subscribe("t", SubscriptionMode.BOUNDED, 1, 1, false);
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> y.subscribe("t", SubscriptionMode.BOUNDED, 1, 1, false)));
        assertEquals(3, small.bus.stats().subscriptions());
    }

    @Test
    void declareWithoutARetentionRetainsTheLatest_decision6() throws Exception {
        assertTrue(c.declare("t").declared());
        assertEquals(BusError.CONFLICT, code(() -> c.declare("t", Retention.NONE)));
        c.publish("t", p(1), List.of());
        c.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, true);
        assertEquals(1, onlyTopic(c).topicSequence());
    }
}
