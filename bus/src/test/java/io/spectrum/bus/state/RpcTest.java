package io.spectrum.bus.state;

import io.spectrum.link.Lane;

import io.spectrum.wire.BusError;
import io.spectrum.wire.Dispatch;

import static io.spectrum.bus.state.BusFixture.code;
import static io.spectrum.bus.state.BusFixture.drain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.bus.protocol.ClientIdentity;

/** Services and calls (seed 001 §3, §6): registration, admission, dispatch, replies, the four cancel states. */
class RpcTest extends BusTest {
    static final String SVC = "example.counter";
    static final String M = "Counter.Increment";
    final BusFixture f = fixture();
    final BusSession svc = f.connect("counter");
    final BusSession cal = f.connect("caller");

    BusMessage.RpcRequest request(BusSession c) {
        BusMessage m = c.poll();
        assertTrue(m instanceof BusMessage.RpcRequest, "expected a request, got " + m);
        return (BusMessage.RpcRequest) m;
    }

    BusMessage.RpcResult result(BusSession c) {
        BusMessage m = c.poll();
        assertTrue(m instanceof BusMessage.RpcResult, "expected a result, got " + m);
        return (BusMessage.RpcResult) m;
    }

    @Test
    void callRequestReplyResult_roundTripWithRouterStampedIdentities() throws Exception {
        String inc = svc.register(SVC, 16, 16).serviceIncarnation();
        assertEquals(new Replies.CallAccepted(true, inc), cal.call("call-1", SVC, inc, M, "{\"amount\":1}", List.of()));
        BusMessage.RpcRequest req = request(svc);
        assertEquals(Lane.RPC, req.lane());
        assertEquals("call-1", req.callId());
        assertEquals(new ClientIdentity("caller", 1, false), req.caller());
        assertEquals(SVC, req.target());
        assertEquals(inc, req.serviceIncarnation());
        assertEquals(M, req.method());
        assertEquals("{\"amount\":1}", req.payloadText());
        assertTrue(svc.reply("call-1", req.deliveryId(), "{\"value\":1}", List.of()));
        BusMessage.RpcResult res = result(cal);
        assertEquals("call-1", res.callId());
        assertEquals(new ClientIdentity("counter", 1, false), res.responder());
        assertEquals("{\"value\":1}", res.outcomeText());
        assertEquals(1, f.bus.stats().activeCalls());
        cal.consumed(List.of(res.deliveryId()));
        svc.consumed(List.of(req.deliveryId()));
        assertEquals(0, f.bus.stats().activeCalls());
        assertEquals(0, f.bus.stats().owners());
    }

    @Test
    void registrationIsExclusive_evenForTheOwnerItself() throws Exception {
        svc.register(SVC, 16, 16);
        assertEquals(BusError.CONFLICT, code(() -> svc.register(SVC, 16, 16)));
        assertEquals(BusError.CONFLICT, code(() -> cal.register(SVC, 16, 16)));
        assertEquals(1, f.bus.stats().services());
    }

    @Test
    void registrationCapsAndNames() throws Exception {
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> svc.register(SVC, 17, 16)));
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> svc.register(SVC, 16, 17)));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> svc.register(SVC, 0, 16)));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> svc.register("Bad..name", 1, 1)));
        BusFixture small = fixture(BusLimits.builder().maxServices(1).build());
        BusSession x = small.connect("x");
        x.register("a", 1, 1);
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> x.register("b", 1, 1)));
    }

    @Test
    void reRegistrationAfterTheOwnerLeavesGetsANewIncarnation_andPinnedCallsSeeTargetChanged() throws Exception {
        String first = svc.register(SVC, 16, 16).serviceIncarnation();
        svc.close();
        BusSession again = f.connect("counter");
        assertEquals(2, again.identity().incarnation());
        String second = again.register(SVC, 16, 16).serviceIncarnation();
        assertNotEquals(first, second);
        assertEquals(BusError.TARGET_CHANGED, code(() -> cal.call("call-1", SVC, first, M, "{}", List.of())));
        assertEquals(second, cal.call("call-2", SVC, null, M, "{}", List.of()).serviceIncarnation());
        assertEquals("call-2", request(again).callId());
    }

    @Test
    void noServiceAndBadCallShapesAreRefusedBeforeAdmission() throws Exception {
        assertEquals(BusError.NO_SERVICE, code(() -> cal.call("call-1", SVC, null, M, "{}", List.of())));
        svc.register(SVC, 16, 16);
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> cal.call("msg-1", SVC, null, M, "{}", List.of())));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> cal.call("call-01", SVC, null, M, "{}", List.of())));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> cal.call("call-1", SVC, null, "", "{}", List.of())));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> cal.call("call-1", SVC, null, "M\n", "{}", List.of())));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> cal.call("call-1", SVC, null, "x".repeat(129), "{}", List.of())));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> cal.call("call-1", SVC, null, M, (byte[]) null, List.of())));
        assertEquals(0, f.bus.stats().activeCalls());
        // refusals spend no call id
        assertTrue(cal.call("call-1", SVC, null, M, "{}", List.of()).accepted());
    }

    @Test
    void reusedOrRetiredCallIdsAreRejected_neverExecutedAgain() throws Exception {
        svc.register(SVC, 16, 16);
        cal.call("call-5", SVC, null, M, "{}", List.of());
        assertEquals(BusError.CALL_GONE, code(() -> cal.call("call-5", SVC, null, M, "{}", List.of())));
        assertEquals(BusError.CALL_GONE, code(() -> cal.call("call-3", SVC, null, M, "{}", List.of())));
        BusMessage.RpcRequest req = request(svc);
        svc.reply("call-5", req.deliveryId(), "{}", List.of());
        cal.consumed(List.of(result(cal).deliveryId()));
        assertEquals(BusError.CALL_GONE, code(() -> cal.call("call-5", SVC, null, M, "{}", List.of())));
        assertNull(svc.poll());
        // another connection's serials are its own
        BusSession other = f.connect("other");
        assertTrue(other.call("call-1", SVC, null, M, "{}", List.of()).accepted());
    }

    @Test
    void aDuplicateReplyIsRefused_andOnlyTheRecipientMayReply() throws Exception {
        svc.register(SVC, 16, 16);
        cal.call("call-1", SVC, null, M, "{}", List.of());
        BusMessage.RpcRequest req = request(svc);
        BusSession intruder = f.connect("intruder");
        assertEquals(BusError.OWNER_INVALID, code(() -> intruder.reply("call-1", req.deliveryId(), "{}", List.of())));
        assertEquals(BusError.OWNER_INVALID, code(() -> svc.reply("call-2", req.deliveryId(), "{}", List.of())));
        assertTrue(svc.reply("call-1", req.deliveryId(), "{\"n\":1}", List.of()));
        assertEquals(BusError.CALL_GONE, code(() -> svc.reply("call-1", req.deliveryId(), "{\"n\":2}", List.of())));
        List<BusMessage> got = drain(cal);
        assertEquals(1, got.size());
        assertEquals("{\"n\":1}", ((BusMessage.RpcResult) got.get(0)).outcomeText());
    }

    @Test
    void cancelledBeforeDispatch_releasesTheQueuedRequestRoots() throws Exception {
        svc.register(SVC, 16, 16);
        BusFixture.Held h = f.artifact(cal, "arg");
        cal.call("call-1", SVC, null, M, "{}", List.of(h.as("arg")));
        assertEquals(2, f.bus.stats().roots());
        assertEquals(Replies.CancelState.CANCELLED_BEFORE_DISPATCH, cal.cancel("call-1"));
        assertEquals(1, f.bus.stats().roots());
        assertNull(svc.poll());
        assertEquals(Replies.CancelState.CALL_GONE, cal.cancel("call-1"));
        assertEquals(0, f.bus.stats().activeCalls());
    }

    @Test
    void executionUnknownAfterDispatch_aLateReplyIsNotRouted_andMakesNoCallerRoots() throws Exception {
        svc.register(SVC, 16, 16);
        cal.call("call-1", SVC, null, M, "{}", List.of());
        BusMessage.RpcRequest req = request(svc);
        assertEquals(Replies.CancelState.EXECUTION_UNKNOWN, cal.cancel("call-1"));
        assertEquals(0, f.bus.stats().activeCalls());
        BusFixture.Held h = f.artifact(svc, "late result");
        long rootsBefore = f.bus.stats().roots();
        assertFalse(svc.reply("call-1", req.deliveryId(), "{}", List.of(h.as("r"))));
        assertEquals(rootsBefore, f.bus.stats().roots());
        assertNull(cal.poll());
        assertEquals(Replies.CancelState.CALL_GONE, cal.cancel("call-1"));
        // the recipient's request delivery stays alive until it consumes it
        assertEquals(1, svc.consumed(List.of(req.deliveryId())));
        assertEquals(BusError.CALL_GONE, code(() -> svc.reply("call-1", req.deliveryId(), "{}", List.of())));
    }

    @Test
    void completedWhenTheResultWasAlreadyAdmitted() throws Exception {
        svc.register(SVC, 16, 16);
        cal.call("call-1", SVC, null, M, "{}", List.of());
        BusMessage.RpcRequest req = request(svc);
        svc.reply("call-1", req.deliveryId(), "{\"done\":true}", List.of());
        assertEquals(Replies.CancelState.COMPLETED, cal.cancel("call-1"));
        BusMessage.RpcResult res = result(cal);
        assertEquals("{\"done\":true}", res.outcomeText());
        assertEquals(Replies.CancelState.COMPLETED, cal.cancel("call-1"));
        cal.consumed(List.of(res.deliveryId()));
        assertEquals(Replies.CancelState.CALL_GONE, cal.cancel("call-1"));
    }

    @Test
    void callGoneForAnIdNeverUsed() throws Exception {
        assertEquals(Replies.CancelState.CALL_GONE, cal.cancel("call-77"));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> cal.cancel("dlv-1")));
    }

    @Test
    void theServicesConnectionDyingMidCall_tellsCallersRouteRemovedThenCallFailed() throws Exception {
        String inc = svc.register(SVC, 16, 1).serviceIncarnation();
        BusFixture.Held h = f.artifact(cal, "arg");
        cal.call("call-1", SVC, null, M, "{}", List.of(h.as("a")));
        cal.call("call-2", SVC, null, M, "{}", List.of(h.as("a")));
        request(svc);
        assertNull(svc.poll());
        svc.close();
        List<BusMessage> got = drain(cal);
        assertEquals(List.of(
                new BusMessage.RouteRemoved(SVC, inc, "connection-lost"),
                new BusMessage.CallFailed("call-2", inc, BusError.NO_SERVICE, Dispatch.NOT_DISPATCHED,
                        SVC + " connection-lost before the call was dispatched"),
                new BusMessage.CallFailed("call-1", inc, BusError.NO_SERVICE, Dispatch.UNKNOWN,
                        SVC + " (" + inc + ") lost its connection after dispatch")), got);
        assertEquals(Lane.CONTROL, got.get(0).lane());
        assertEquals(0, f.bus.stats().activeCalls());
        assertEquals(1, f.bus.stats().roots());
        assertEquals(Replies.CancelState.CALL_GONE, cal.cancel("call-1"));
        assertEquals(BusError.NO_SERVICE, code(() -> cal.call("call-3", SVC, null, M, "{}", List.of())));
    }

    @Test
    void unregisterFailsQueuedCalls_butTheRecipientMayStillAnswerDispatchedOnes() throws Exception {
        String inc = svc.register(SVC, 16, 1).serviceIncarnation();
        cal.call("call-1", SVC, null, M, "{}", List.of());
        cal.call("call-2", SVC, null, M, "{}", List.of());
        BusMessage.RpcRequest req = request(svc);
        assertFalse(cal.unregister(SVC, inc));
        assertFalse(svc.unregister(SVC, "svc-99"));
        assertTrue(svc.unregister(SVC, inc));
        List<BusMessage> notices = drain(cal);
        assertEquals(2, notices.size());
        assertEquals(new BusMessage.RouteRemoved(SVC, inc, "unregistered"), notices.get(0));
        assertEquals("call-2", ((BusMessage.CallFailed) notices.get(1)).callId());
        assertTrue(svc.reply("call-1", req.deliveryId(), "{\"late\":true}", List.of()));
        assertEquals("{\"late\":true}", result(cal).outcomeText());
        assertEquals(BusError.NO_SERVICE, code(() -> cal.call("call-3", SVC, null, M, "{}", List.of())));
    }

    @Test
    void callerDisconnectDetachesTheDispatchedCall_andTheServiceKeepsServing() throws Exception {
        svc.register(SVC, 16, 16);
        BusFixture.Held h = f.artifact(cal, "arg");
        cal.call("call-1", SVC, null, M, "{}", List.of(h.as("a")));
        BusMessage.RpcRequest req = request(svc);
        cal.call("call-2", SVC, null, M, "{}", List.of());
        cal.close();
        assertNull(svc.poll());
        assertFalse(svc.reply("call-1", req.deliveryId(), "{}", List.of()));
        // the request delivery still roots the argument until the service consumes it
        assertEquals("arg", f.readBytes(req.attachments().get(0)));
        svc.consumed(List.of(req.deliveryId()));
        assertEquals(0, f.bus.stats().sealedArtifacts());
        BusSession next = f.connect("caller");
        next.call("call-1", SVC, null, M, "{}", List.of());
        assertEquals(2, request(svc).caller().incarnation());
    }

    @Test
    void firstDispatchIsFifoPerService_andRepliesCorrelateOutOfOrder() throws Exception {
        svc.register(SVC, 16, 16);
        BusSession other = f.connect("other");
        cal.call("call-1", SVC, null, M, "{\"i\":1}", List.of());
        other.call("call-1", SVC, null, M, "{\"i\":2}", List.of());
        cal.call("call-2", SVC, null, M, "{\"i\":3}", List.of());
        BusMessage.RpcRequest r1 = request(svc);
        BusMessage.RpcRequest r2 = request(svc);
        BusMessage.RpcRequest r3 = request(svc);
        assertEquals(List.of("{\"i\":1}", "{\"i\":2}", "{\"i\":3}"), List.of(r1.payloadText(), r2.payloadText(), r3.payloadText()));
        svc.reply("call-2", r3.deliveryId(), "\"three\"", List.of());
        svc.reply("call-1", r2.deliveryId(), "\"two\"", List.of());
        svc.reply("call-1", r1.deliveryId(), "\"one\"", List.of());
        BusMessage.RpcResult a = result(cal);
        BusMessage.RpcResult b = result(cal);
        assertEquals(List.of("call-2:\"three\"", "call-1:\"one\""),
                List.of(a.callId() + ":" + a.outcomeText(), b.callId() + ":" + b.outcomeText()));
        assertEquals("\"two\"", result(other).outcomeText());
    }

    @Test
    void serviceInFlightLimitHoldsTheNextRequestUntilAReply() throws Exception {
        svc.register(SVC, 16, 1);
        cal.call("call-1", SVC, null, M, "{}", List.of());
        cal.call("call-2", SVC, null, M, "{}", List.of());
        BusMessage.RpcRequest r1 = request(svc);
        assertNull(svc.poll());
        svc.reply("call-1", r1.deliveryId(), "{}", List.of());
        assertEquals("call-2", request(svc).callId());
    }

    @Test
    void limits_activeCallsPerClientAndServiceQueue() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxActiveCallsPerClient(2).build());
        BusSession s = small.connect("s");
        BusSession c = small.connect("c");
        BusSession d = small.connect("d");
        s.register(SVC, 3, 1);
        c.call("call-1", SVC, null, M, "{}", List.of());
        c.call("call-2", SVC, null, M, "{}", List.of());
        BusStats before = small.bus.stats();
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> c.call("call-3", SVC, null, M, "{}", List.of())));
        assertEquals(before, small.bus.stats());
        d.call("call-1", SVC, null, M, "{}", List.of());
        assertEquals(BusError.BACKPRESSURE, code(() -> d.call("call-2", SVC, null, M, "{}", List.of())));
        assertTrue(s.poll() instanceof BusMessage.RpcRequest);
        assertTrue(d.call("call-2", SVC, null, M, "{}", List.of()).accepted());
    }

    @Test
    void aRefusedCallCreatesNoRoots_andTheResultsArtifactIsOwnedByTheCaller() throws Exception {
        svc.register(SVC, 16, 16);
        BusFixture.Held arg = f.artifact(cal, "arg");
        BusStats before = f.bus.stats();
        assertEquals(BusError.OWNER_INVALID,
                code(() -> cal.call("call-1", SVC, null, M, "{}", List.of(arg.as("a"), new Attachment("b", arg.ref(), "own-5")))));
        assertEquals(before, f.bus.stats());
        cal.call("call-1", SVC, null, M, "{}", List.of(arg.as("a")));
        BusMessage.RpcRequest req = request(svc);
        BusFixture.Held out = f.artifact(svc, "result bytes");
        assertTrue(svc.reply("call-1", req.deliveryId(), "{}", List.of(out.as("out"))));
        svc.release(List.of(out.ownerId()));
        svc.consumed(List.of(req.deliveryId()));
        BusMessage.RpcResult res = result(cal);
        Attachment got = res.attachments().get(0);
        assertEquals(res.deliveryId(), got.ownerId());
        assertEquals("result bytes", f.readBytes(got));
        assertTrue(cal.open(got.ref(), res.deliveryId()).startsWith("sealed/"));
        cal.consumed(List.of(res.deliveryId()));
        cal.release(List.of(arg.ownerId()));
        assertEquals(0, f.bus.stats().sealedArtifacts());
        assertEquals(0, f.bus.stats().roots());
    }

    @Test
    void rpcResultsUseTheReservedOwnersWhenTopicDeliveriesCannot() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxOwnersPerClient(3).reservedRpcOwners(1).build());
        BusSession s = small.connect("s");
        BusSession c = small.connect("c");
        s.register(SVC, 4, 4);
        c.allocate(1, "x/y");
        c.allocate(1, "x/y");
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> c.allocate(1, "x/y")));
        c.call("call-1", SVC, null, M, "{}", List.of());
        BusMessage.RpcRequest req = (BusMessage.RpcRequest) s.poll();
        s.reply("call-1", req.deliveryId(), "{}", List.of());
        assertTrue(c.poll() instanceof BusMessage.RpcResult);
    }

    @Test
    void responderReleaseRetiresTheCall_callGoneWhileTheRouteLives_noServiceAfter() throws Exception {
        String inc = svc.register(SVC, 16, 1).serviceIncarnation();
        cal.call("call-1", SVC, null, M, "{}", List.of());
        cal.call("call-2", SVC, null, M, "{}", List.of());
        BusMessage.RpcRequest r1 = request(svc);
        assertFalse(svc.releaseResponder("call-2", r1.deliveryId()));
        assertTrue(svc.releaseResponder("call-1", r1.deliveryId()));
        assertFalse(svc.releaseResponder("call-1", r1.deliveryId()));
        assertEquals(new BusMessage.CallFailed("call-1", inc, BusError.CALL_GONE, Dispatch.DISPATCHED,
                "the responder released the call without a reply"), cal.poll());
        assertEquals(BusError.CALL_GONE, code(() -> svc.reply("call-1", r1.deliveryId(), "{}", List.of())));
        // the freed in-flight slot lets the next request through
        BusMessage.RpcRequest r2 = request(svc);
        svc.unregister(SVC, inc);
        assertEquals(new BusMessage.RouteRemoved(SVC, inc, "unregistered"), cal.poll());
        assertTrue(svc.releaseResponder("call-2", r2.deliveryId()));
        assertEquals(BusError.NO_SERVICE, ((BusMessage.CallFailed) cal.poll()).code());
        assertEquals(0, f.bus.stats().activeCalls());
        assertEquals(2, svc.consumed(List.of(r1.deliveryId(), r2.deliveryId())));
    }

    @Test
    void unregisterTellsCallersWithOnlyDispatchedCallsRouteRemoved_withoutFailingTheirCalls() throws Exception {
        String inc = svc.register(SVC, 16, 16).serviceIncarnation();
        cal.call("call-1", SVC, null, M, "{}", List.of());
        BusMessage.RpcRequest req = request(svc);
        BusSession bystander = f.connect("bystander");
        svc.unregister(SVC, inc);
        assertEquals(List.of(new BusMessage.RouteRemoved(SVC, inc, "unregistered")), drain(cal));
        assertEquals(List.of(), drain(bystander));
        assertEquals(1, f.bus.stats().activeCalls());
        // the recipient's connection dying now fails the dispatched call, execution unknown
        svc.close();
        BusMessage.CallFailed failed = (BusMessage.CallFailed) cal.poll();
        assertEquals(Dispatch.UNKNOWN, failed.dispatch());
        assertEquals(inc, failed.serviceIncarnation());
        assertEquals(req.callId(), failed.callId());
        assertEquals(0, f.bus.stats().activeCalls());
    }
}
