package io.spectrum.bus.state;

import io.spectrum.wire.BusError;
import io.spectrum.wide.Grants;
import io.spectrum.wire.Dispatch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;

/**
 * The RPC half of the bus: exclusive registrations with a new incarnation
 * each time, call admission (pinned incarnations, call-id watermarks, active-call and service
 * queue limits, request roots), dispatch, replies only by the connection the request was
 * delivered to, the four cancel outcomes, and what callers are told when a service goes away.
 */
final class Services {
    static final String CALL = "call";
    private final BusLimits limits;
    private final Roots roots;
    private final HostBus bus;
    private final Map<String, Service> byName = new HashMap<>();
    private long incarnations;

    Services(BusLimits limits, Roots roots, HostBus bus) {
        this.limits = limits;
        this.roots = roots;
        this.bus = bus;
    }

    /** Check order: name → grant → 1..65535 → caps (QUOTA_EXCEEDED) → taken (CONFLICT) → service count. */
    Replies.Registered register(BusConnection c, String name, int maxQueued, int maxInFlight) throws BusException {
        Names.name("service", name);
        c.check(Grants.Permission.SERVE, name);
        Names.range("maxQueued", maxQueued);
        Names.range("maxInFlight", maxInFlight);
        if (maxQueued > limits.maxServiceQueued() || maxInFlight > limits.maxServiceInFlight()) {
            throw new BusException(BusError.QUOTA_EXCEEDED,
                    "service caps are " + limits.maxServiceQueued() + "/" + limits.maxServiceInFlight());
        }
        Service held = byName.get(name);
        if (held != null) {
            throw new BusException(BusError.CONFLICT, name + " is registered (" + held.incarnation + ")");
        }
        if (byName.size() >= limits.maxServices()) {
            throw new BusException(BusError.QUOTA_EXCEEDED, "at most " + limits.maxServices() + " services");
        }
        Service s = new Service(name, Names.serial("svc", ++incarnations), c, maxQueued, maxInFlight);
        byName.put(name, s);
        c.services.add(s);
        return new Replies.Registered(s.incarnation);
    }

    /** Removes this connection's registration of {@code name} at {@code incarnation}; queued calls fail. */
    boolean unregister(BusConnection c, String name, String incarnation) throws BusException {
        Names.name("service", name);
        Names.id("serviceIncarnation", incarnation);
        Service s = byName.get(name);
        if (s == null || s.owner != c || !s.incarnation.equals(incarnation)) {
            return false;
        }
        remove(s, "unregistered", false);
        return true;
    }

    /**
     * Admission order: ids and shapes → grant → call-id watermark (CALL_GONE for a reused or
     * retired id) → NO_SERVICE → TARGET_CHANGED → attachments → request size → the caller's
     * active calls (QUOTA_EXCEEDED) → the service's queue (BACKPRESSURE); then the request's
     * roots, the queue entry and the watermark, all at once.
     */
    Replies.CallAccepted call(BusConnection c, String callId, String target, String expectedIncarnation, String method,
            byte[] payload, List<Attachment> attachments, Seals seals) throws BusException {
        long serial = callSerial(callId);
        Names.name("target", target);
        if (expectedIncarnation != null) {
            Names.id("expectedIncarnation", expectedIncarnation);
        }
        Names.method(method);
        if (payload == null) {
            throw Names.invalid("rpc.call needs a payload");
        }
        c.check(Grants.Permission.CALL, target);
        if (Long.compareUnsigned(serial, c.callWatermark) <= 0) {
            throw new BusException(BusError.CALL_GONE, callId + " was already used on this connection");
        }
        Service s = byName.get(target);
        if (s == null) {
            throw new BusException(BusError.NO_SERVICE, target + " is not registered");
        }
        if (expectedIncarnation != null && !expectedIncarnation.equals(s.incarnation)) {
            throw new BusException(BusError.TARGET_CHANGED, target + " is now " + s.incarnation);
        }
        Admission adm = Admission.check(c.owners, roots, attachments);
        int bytes = Envelopes.rpcRequest(c.identity(), target, method, payload, adm.slots());
        if (bytes > limits.maxEnvelopeBytes()) {
            throw Names.invalid("the request would be " + bytes + " bytes, over " + limits.maxEnvelopeBytes());
        }
        if (c.calls.size() >= limits.maxActiveCallsPerClient()) {
            throw new BusException(BusError.QUOTA_EXCEEDED, "at most " + limits.maxActiveCallsPerClient() + " active calls");
        }
        if (s.queue.size() >= s.maxQueued) {
            throw new BusException(BusError.BACKPRESSURE, target + " has " + s.queue.size() + " queued calls");
        }
        Carried body = adm.commit(c.owners, roots, payload, bytes, seals);
        Call call = new Call(callId, c, s, method, body);
        roots.addAll(body.objects);
        s.queue.add(call);
        c.calls.put(callId, call);
        c.callWatermark = serial;
        return new Replies.CallAccepted(true, s.incarnation);
    }

    /**
     * A reply by the connection the request was delivered to. Refused: a delivery id never
     * issued here or not that call's request (OWNER_INVALID); a second reply (CALL_GONE). A reply
     * to a detached call is checked but not routed (false, no caller-result roots).
     */
    boolean reply(BusConnection c, String callId, String requestDeliveryId, byte[] outcome, List<Attachment> attachments,
            Seals seals) throws BusException {
        callSerial(callId);
        Names.serialNumber(requestDeliveryId);
        if (outcome == null) {
            throw Names.invalid("rpc.reply needs an outcome");
        }
        Call call = c.replyAuthority.get(requestDeliveryId);
        if (call == null) {
            if (c.owners.deliveryIssued(requestDeliveryId)) {
                throw new BusException(BusError.CALL_GONE, "no reply authority left for " + requestDeliveryId);
            }
            throw new BusException(BusError.OWNER_INVALID, requestDeliveryId + " is no request delivered here");
        }
        if (!call.callId.equals(callId)) {
            throw new BusException(BusError.OWNER_INVALID, requestDeliveryId + " is not the request of " + callId);
        }
        Admission adm = Admission.check(c.owners, roots, attachments);
        if (!call.attached) {
            endAuthority(c, call);
            return false;
        }
        int bytes = Envelopes.rpcResult(c.identity(), outcome, adm.slots());
        if (bytes > limits.maxEnvelopeBytes()) {
            throw Names.invalid("the result would be " + bytes + " bytes, over " + limits.maxEnvelopeBytes());
        }
        Carried body = adm.commit(c.owners, roots, outcome, bytes, seals);
        endAuthority(c, call);
        roots.addAll(body.objects);
        call.result = body;
        call.responder = c.identity();
        call.state = Call.State.COMPLETED;
        call.caller.pendingResults.add(call);
        return true;
    }

    /**
     * {@code rpc.responder.release}: the recipient gives up reply
     * authority for a dispatched call. For an attached call this retires the correlation and
     * tells the caller {@code call.failed} with dispatch {@code dispatched}: CALL_GONE while the
     * route is live, NO_SERVICE after it is gone. The request delivery itself stays until consumed.
     *
     * @return false when this connection holds no reply authority for that request
     */
    boolean releaseResponder(BusConnection c, String callId, String requestDeliveryId) throws BusException {
        callSerial(callId);
        Names.serialNumber(requestDeliveryId);
        Call call = c.replyAuthority.get(requestDeliveryId);
        if (call == null || !call.callId.equals(callId)) {
            return false;
        }
        endAuthority(c, call);
        if (call.attached) {
            call.attached = false;
            call.caller.calls.remove(call.callId);
            boolean live = byName.get(call.service.name) == call.service;
            bus.notice(call.caller, new BusMessage.CallFailed(call.callId, call.service.incarnation, live ? BusError.CALL_GONE : BusError.NO_SERVICE,
                    Dispatch.DISPATCHED, "the responder released the call without a reply"));
        }
        return true;
    }

    Replies.CancelState cancel(BusConnection c, String callId) throws BusException {
        callSerial(callId);
        Call call = c.calls.get(callId);
        if (call == null) {
            return Replies.CancelState.CALL_GONE;
        }
        switch (call.state) {
            case QUEUED -> {
                call.service.queue.remove(call);
                roots.dropAll(call.request.objects);
                c.calls.remove(callId);
                return Replies.CancelState.CANCELLED_BEFORE_DISPATCH;
            }
            case DISPATCHED -> {
                call.attached = false;
                c.calls.remove(callId);
                return Replies.CancelState.EXECUTION_UNKNOWN;
            }
            default -> {
                return Replies.CancelState.COMPLETED;
            }
        }
    }

    /** Hands the head of a ready service's queue to its connection: the call is now dispatched. */
    BusMessage.RpcRequest dispatch(Service s) {
        Call call = s.queue.poll();
        BusConnection c = s.owner;
        Owner o = c.owners.newDelivery(Owner.Kind.REQUEST_DELIVERY, call.request.objects);
        o.call = call;
        call.state = Call.State.DISPATCHED;
        call.requestDeliveryId = o.id;
        s.inFlight++;
        c.replyAuthority.put(o.id, call);
        return new BusMessage.RpcRequest(o.id, call.callId, call.caller.identity(), s.name, s.incarnation, call.method,
                call.request.payload, call.request.attachmentsFor(o.id));
    }

    /** Hands the caller its next admitted result as a delivery it owns. */
    BusMessage.RpcResult deliverResult(BusConnection c) {
        Call call = c.pendingResults.poll();
        Owner o = c.owners.newDelivery(Owner.Kind.RESULT_DELIVERY, call.result.objects);
        o.call = call;
        call.resultDelivered = true;
        return new BusMessage.RpcResult(o.id, call.callId, call.responder, call.service.incarnation,
                call.result.payload, call.result.attachmentsFor(o.id));
    }

    /** A consumed result delivery retires its call's correlation. */
    void resultConsumed(Call call) {
        if (call.caller.calls.get(call.callId) == call) {
            call.caller.calls.remove(call.callId);
        }
    }

    /**
     * A connection went away: its registrations are removed (callers with open calls get
     * route.removed, then call.failed per call), calls dispatched to it that still await a reply
     * fail with dispatch unknown, and its own calls are cancelled or detached.
     */
    void connectionLost(BusConnection c) {
        for (Service s : new ArrayList<>(c.services)) {
            remove(s, "connection-lost", true);
        }
        for (Call call : c.replyAuthority.values()) {
            call.service.inFlight--;
            if (call.attached) {
                failDispatched(call);
            }
        }
        c.replyAuthority.clear();
        for (Call call : c.calls.values()) {
            switch (call.state) {
                case QUEUED -> {
                    call.service.queue.remove(call);
                    roots.dropAll(call.request.objects);
                }
                case DISPATCHED -> call.attached = false;
                default -> {
                    if (!call.resultDelivered) {
                        roots.dropAll(call.result.objects);
                    }
                }
            }
        }
        c.calls.clear();
        c.pendingResults.clear();
    }

    /**
     * Ends a registration: every caller with an open call to it (queued or dispatched) gets one
     * route.removed, then each queued call fails (not dispatched); dispatched calls fail too
     * (dispatch unknown) when the owner's connection was lost, and otherwise await its reply.
     */
    private void remove(Service s, String reason, boolean connectionLost) {
        byName.remove(s.name);
        s.owner.services.remove(s);
        List<Call> dispatched = new ArrayList<>();
        for (Call call : s.owner.replyAuthority.values()) {
            if (call.service == s && call.attached) {
                dispatched.add(call);
            }
        }
        Set<BusConnection> callers = new LinkedHashSet<>();
        for (Call call : s.queue) {
            callers.add(call.caller);
        }
        for (Call call : dispatched) {
            callers.add(call.caller);
        }
        for (BusConnection caller : callers) {
            bus.notice(caller, new BusMessage.RouteRemoved(s.name, s.incarnation, reason));
        }
        for (Call call : s.queue) {
            roots.dropAll(call.request.objects);
            call.caller.calls.remove(call.callId);
            bus.notice(call.caller, new BusMessage.CallFailed(call.callId, call.service.incarnation, BusError.NO_SERVICE, Dispatch.NOT_DISPATCHED,
                    s.name + " " + reason + " before the call was dispatched"));
        }
        s.queue.clear();
        if (connectionLost) {
            for (Call call : dispatched) {
                failDispatched(call);
            }
        }
    }

    private void failDispatched(Call call) {
        if (!call.attached) {
            return;
        }
        call.attached = false;
        call.caller.calls.remove(call.callId);
        bus.notice(call.caller, new BusMessage.CallFailed(call.callId, call.service.incarnation, BusError.NO_SERVICE, Dispatch.UNKNOWN,
                call.service.name + " (" + call.service.incarnation + ") lost its connection after dispatch"));
    }

    private void endAuthority(BusConnection c, Call call) {
        c.replyAuthority.remove(call.requestDeliveryId);
        call.service.inFlight--;
    }

    private static long callSerial(String callId) throws BusException {
        long n = Names.serialNumber(callId);
        if (!Names.hasPrefix(CALL, callId)) {
            throw Names.invalid("a call id is call-<U64>: " + callId);
        }
        return n;
    }

    /** The registered services (tests' invariant checks). */
    java.util.Collection<Service> all() {
        return List.copyOf(byName.values());
    }

    int serviceCount() {
        return byName.size();
    }
}
