package io.spectrum.bus.state;

import io.spectrum.wire.BusError;
import io.spectrum.wide.Grants;

import static io.spectrum.bus.state.BusFixture.code;
import static io.spectrum.bus.state.BusFixture.p;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;

/** Per-client grants (issue 14 item 3), the configured limits and the name grammar. */
class GrantsAndLimitsTest extends BusTest {
    final BusFixture f = fixture();

    @Test
    void eachOperationNeedsItsGrant_otherwiseNotAuthorized() throws Exception {
        BusSession admin = f.connect("admin");
        admin.declare("session.demo.snapshots", Retention.LATEST);
        admin.declare("world.frame", Retention.NONE);
        admin.register("env.advance", 4, 4);
        Grants viewer = Grants.builder()
                .subscribe(Grants.Pattern.prefix("session."))
                .call(Grants.Pattern.exact("env.status"))
                .build();
        BusSession v = f.bus.connect("viewer", viewer);
        assertEquals("sub-1", v.subscribe("session.demo.snapshots", SubscriptionMode.LATEST, 1, 1, false).subscriptionId());
        assertEquals(BusError.NOT_AUTHORIZED, code(() -> v.subscribe("world.frame", SubscriptionMode.LATEST, 1, 1, false)));
        assertEquals(BusError.NOT_AUTHORIZED, code(() -> v.publish("session.demo.snapshots", p(1), List.of())));
        assertEquals(BusError.NOT_AUTHORIZED, code(() -> v.call("call-1", "env.advance", null, "Env.Advance", "{}", List.of())));
        assertEquals(BusError.NOT_AUTHORIZED, code(() -> v.register("env.status", 1, 1)));
        assertEquals(BusError.NOT_AUTHORIZED, code(() -> v.declare("session.x", Retention.NONE)));
        assertEquals(BusError.NOT_AUTHORIZED, code(() -> v.clear("session.demo.snapshots")));
        assertEquals(BusError.NOT_AUTHORIZED, code(() -> v.delete("world.frame")));
        // the grant is checked before NO_SERVICE: naming a target is not authority
        assertEquals(BusError.NO_SERVICE, code(() -> v.call("call-1", "env.status", null, "Env.Status", "{}", List.of())));
        assertTrue(v.isOpen());
        assertEquals(1, f.bus.stats().subscriptions());
    }

    @Test
    void grantPatterns_anyExactPrefix() {
        assertTrue(Grants.Pattern.any().matches("anything"));
        assertTrue(Grants.Pattern.exact("a.b").matches("a.b"));
        assertFalse(Grants.Pattern.exact("a.b").matches("a.b.c"));
        assertTrue(Grants.Pattern.prefix("a.").matches("a.b.c"));
        assertFalse(Grants.Pattern.prefix("a.").matches("ab"));
        assertThrows(IllegalArgumentException.class, () -> Grants.Pattern.exact(""));
    }

    @Test
    void closedGrantsAllowNothing() throws Exception {
        BusSession c = f.bus.connect("c", Grants.closed());
        assertEquals(BusError.NOT_AUTHORIZED, code(() -> c.declare("t", Retention.NONE)));
        // artifacts need no name grant
        assertEquals("own-1", c.allocate(1, "x/y").ownerId());
    }

    @Test
    void defaultsAreTheFlybusPrototypeBounds() {
        BusLimits d = BusLimits.defaults();
        assertEquals(List.of(64, 256, 512, 128, 1024, 65_536, 64, 16, 16, 1, 2, 64, 16, 256, 64, 192, 128),
                List.of(d.maxClients(), d.maxServices(), d.maxTopics(), d.maxSubscriptionsPerClient(),
                        d.maxSubscriptions(), d.maxEnvelopeBytes(), d.maxActiveCallsPerClient(), d.maxServiceQueued(),
                        d.maxServiceInFlight(), d.latestMaxQueued(), d.latestMaxInFlight(), d.boundedMaxQueued(),
                        d.boundedMaxInFlight(), d.maxOwnersPerClient(), d.reservedRpcOwners(), d.ordinaryOwners(),
                        d.controlLaneFrames()));
        assertEquals(128L << 20, d.maxRetainedBytes());
        assertEquals(1L << 20, d.maxBoundedQueuedBytesPerClient());
    }

    @Test
    void limitsThatCannotBeHonouredAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> BusLimits.builder().maxClients(0).build());
        assertThrows(IllegalArgumentException.class, () -> BusLimits.builder().boundedMaxQueued(65_536).build());
        assertThrows(IllegalArgumentException.class, () -> BusLimits.builder().reservedRpcOwners(256).build());
        assertThrows(IllegalArgumentException.class, () -> BusLimits.builder().maxEnvelopeBytes(100).build());
        assertThrows(IllegalArgumentException.class, () -> BusLimits.builder().maxRetainedBytes(-1).build());
        assertEquals(3, BusLimits.builder().maxOwnersPerClient(4).reservedRpcOwners(1).build().ordinaryOwners());
    }

    @Test
    void nameGrammar() throws Exception {
        assertEquals("a.b-c_d", Names.name("n", "a.b-c_d"));
        for (String bad : List.of("", ".a", "a.", "a..b", "A", "a b", "a/b", "a".repeat(193))) {
            assertEquals(BusError.INVALID_ENVELOPE, code(() -> Names.name("n", bad)), bad);
        }
        assertEquals(7, Names.serialNumber("dlv-7"));
        assertTrue(Names.hasPrefix("dlv", "dlv-7"));
        assertFalse(Names.hasPrefix("dlv", "own-7"));
        for (String bad : List.of("dlv-x-7", "own--1", "Dlv-1", "dlv-", "dlv-0", "dlv-007", "dlv-1a", "7", "dlv-99999999999999999999999")) {
            assertEquals(BusError.INVALID_ENVELOPE, code(() -> Names.serialNumber(bad)), bad);
        }
    }
}
