package io.spectrum.bus.state;

import io.spectrum.wire.BusError;
import io.spectrum.wide.Grants;

import static io.spectrum.bus.state.BusFixture.code;
import static io.spectrum.bus.state.BusFixture.drain;
import static io.spectrum.bus.state.BusFixture.p;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.bus.protocol.ClientIdentity;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;

/** Identities, disconnect, shutdown, the control lane and lane scheduling (F-16, F-18, F-22). */
class ConnectionLifecycleTest extends BusTest {
    final BusFixture f = fixture();

    @Test
    void F29_F_22_shutdownClosesEachSubscriptionThenTheConnection() throws Exception {
        BusSession a = f.connect("a");
        BusSession b = f.connect("b");
        a.declare("t.one", Retention.LATEST);
        a.declare("t.two", Retention.NONE);
        String s1 = a.subscribe("t.one", SubscriptionMode.BOUNDED, 4, 4, false).subscriptionId();
        String s2 = a.subscribe("t.two", SubscriptionMode.LATEST, 1, 1, false).subscriptionId();
        String s3 = b.subscribe("t.one", SubscriptionMode.BOUNDED, 4, 4, false).subscriptionId();
        BusFixture.Held h = f.artifact(a, "retained");
        a.publish("t.one", p(1), List.of(h.as("r")));
        f.bus.shutdown();
        List<BusMessage> gotA = drain(a);
        // queued topic data is not delivered after the stop; only the notices, then end of stream
        assertEquals(List.of(
                new BusMessage.SubscriptionClosed(s1, "t.one", "router-stopping"),
                new BusMessage.SubscriptionClosed(s2, "t.two", "router-stopping"),
                new BusMessage.ConnectionClosing(BusError.ROUTER_LOST, "the router is stopping")), gotA);
        assertEquals(List.of(
                new BusMessage.SubscriptionClosed(s3, "t.one", "router-stopping"),
                new BusMessage.ConnectionClosing(BusError.ROUTER_LOST, "the router is stopping")), drain(b));
        assertNull(a.poll());
        assertFalse(a.isOpen());
        BusStats s = f.bus.stats();
        assertEquals(new BusStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), s);
        assertEquals(BusError.ROUTER_LOST, code(() -> a.publish("t.one", p(2), List.of())));
        assertEquals(BusError.ROUTER_LOST, code(() -> f.bus.connect("c", Grants.open())));
    }

    @Test
    void F30_afterTheOnlySubscriberDisconnectsDeleteSucceeds() throws Exception {
        BusSession owner = f.connect("owner");
        BusSession s = f.connect("s");
        owner.declare("t", Retention.NONE);
        s.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        assertEquals(BusError.CONFLICT, code(() -> owner.delete("t")));
        s.close();
        assertTrue(owner.delete("t"));
        assertEquals(0, f.bus.stats().subscriptions());
    }

    @Test
    void F_16_disconnectReleasesQueuedAndDeliveredRoots() throws Exception {
        BusSession p = f.connect("p");
        BusSession s = f.connect("s");
        p.declare("t", Retention.NONE);
        s.subscribe("t", SubscriptionMode.BOUNDED, 8, 1, false);
        for (int i = 0; i < 3; i++) {
            BusFixture.Held h = f.artifact(p, "x" + i);
            p.publish("t", p(i), List.of(h.as("x")));
            p.release(List.of(h.ownerId()));
        }
        assertEquals(1, BusFixture.topicMessages(s).size());
        assertEquals(3, f.bus.stats().roots());
        s.close();
        assertEquals(new BusStats(0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0), f.bus.stats());
        assertNull(s.poll());
    }

    @Test
    void namedClientsGetANewIncarnationEachConnect_andOneLiveConnectionPerId() throws Exception {
        BusSession first = f.connect("agent.a");
        assertEquals(new ClientIdentity("agent.a", 1, false), first.identity());
        assertEquals(BusError.CONFLICT, code(() -> f.bus.connect("agent.a", Grants.open())));
        first.close();
        assertEquals(2, f.connect("agent.a").identity().incarnation());
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> f.bus.connect("Agent", Grants.open())));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> f.bus.connect("anon-12345678-1", Grants.open())));
    }

    @Test
    void anonymousConnectionsGetDistinctAnonIds() throws Exception {
        BusSession x = f.bus.connect(null, Grants.open());
        BusSession y = f.bus.connect(null, Grants.open());
        assertTrue(x.identity().anonymous());
        assertTrue(x.identity().clientId().matches("^anon-[0-9a-f]{8}-[0-9]+$"), x.identity().clientId());
        assertNotEquals(x.identity().clientId(), y.identity().clientId());
    }

    @Test
    void clientLimitIsQuotaExceeded() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxClients(2).build());
        small.connect("a");
        BusSession b = small.connect("b");
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> small.bus.connect("c", Grants.open())));
        b.close();
        assertEquals("c", small.connect("c").identity().clientId());
    }

    @Test
    void aFullControlLaneClosesTheConnectionWithConnectionClosing() throws Exception {
        BusFixture small = fixture(BusLimits.builder().controlLaneFrames(2).build());
        BusSession svc = small.connect("svc");
        BusSession cal = small.connect("cal");
        svc.declare("t", Retention.NONE);
        cal.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        for (int i = 1; i <= 2; i++) {
            String inc = svc.register("s" + i, 1, 1).serviceIncarnation();
            cal.call("call-" + i, "s" + i, null, "M", "{}", List.of());
            // dispatching would give the service reply authority; keep the calls queued
            assertTrue(svc.unregister("s" + i, inc));
        }
        // two notices fit; the third would overflow, so the bus closes the connection instead
        assertFalse(cal.isOpen());
        assertEquals(BusError.ROUTER_LOST, code(() -> cal.call("call-3", "s1", null, "M", "{}", List.of())));
        List<BusMessage> got = drain(cal);
        assertEquals(3, got.size());
        assertInstanceOf(BusMessage.RouteRemoved.class, got.get(0));
        assertInstanceOf(BusMessage.CallFailed.class, got.get(1));
        assertEquals(new BusMessage.ConnectionClosing(BusError.BACKPRESSURE, "the control lane is full"), got.get(2));
        assertEquals(0, small.bus.stats().subscriptions());
        assertEquals(1, small.bus.stats().connections());
    }

    @Test
    void F_18_aSaturatedSubscriberStallsOnlyItsTopicLane_rpcAndControlKeepFlowing() throws Exception {
        BusSession pub = f.connect("pub");
        BusSession slow = f.connect("slow");
        BusSession svc = f.connect("svc");
        pub.declare("t", Retention.NONE);
        slow.subscribe("t", SubscriptionMode.BOUNDED, 64, 1, false);
        svc.register("echo", 16, 16);
        String body = "\"" + "d".repeat(60_000) + "\"";
        int accepted = 0;
        try {
            for (int i = 0; i < 64; i++) {
                pub.publish("t", body, List.of());
                accepted++;
            }
        } catch (BusException e) {
            assertEquals(BusError.BACKPRESSURE, e.code());
        }
        assertTrue(accepted >= 16, "accepted " + accepted);
        assertInstanceOf(BusMessage.TopicMessage.class, slow.poll());
        assertNull(slow.poll());
        for (int i = 1; i <= 20; i++) {
            slow.call("call-" + i, "echo", null, "Echo", "{}", List.of());
            BusMessage.RpcRequest req = (BusMessage.RpcRequest) svc.poll();
            svc.reply(req.callId(), req.deliveryId(), "{\"i\":" + i + "}", List.of());
            svc.consumed(List.of(req.deliveryId()));
            BusMessage.RpcResult res = (BusMessage.RpcResult) slow.poll();
            assertEquals("{\"i\":" + i + "}", res.outcomeText());
            slow.consumed(List.of(res.deliveryId()));
        }
    }

    @Test
    void F_18_topicDataGetsAFrameAfterARunOfHigherPriorityFrames() throws Exception {
        BusFixture small = fixture(BusLimits.builder().topicFrameEvery(2).build());
        BusSession pub = small.connect("pub");
        BusSession s = small.connect("s");
        BusSession svc = small.connect("svc");
        pub.declare("t", Retention.NONE);
        s.subscribe("t", SubscriptionMode.BOUNDED, 8, 8, false);
        svc.register("x", 16, 16);
        for (int i = 1; i <= 4; i++) {
            s.call("call-" + i, "x", null, "M", "{}", List.of());
        }
        for (int i = 0; i < 4; i++) {
            BusMessage.RpcRequest r = (BusMessage.RpcRequest) svc.poll();
            svc.reply(r.callId(), r.deliveryId(), "{}", List.of());
        }
        pub.publish("t", p(1), List.of());
        pub.publish("t", p(2), List.of());
        List<String> lanes = new ArrayList<>();
        for (BusMessage m : drain(s)) {
            lanes.add(m.lane().name());
        }
        assertEquals(List.of("RPC", "RPC", "TOPIC", "RPC", "RPC", "TOPIC"), lanes);
    }
}
