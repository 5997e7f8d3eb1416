package io.spectrum.bus.state;

import io.spectrum.bus.protocol.ClientIdentity;

/**
 * One admitted call's bounded correlation: queued at its service (holding the
 * request's roots), dispatched (the request delivered, reply authority with the recipient), or
 * completed (a result admitted for the caller). A call the caller cancelled after dispatch or
 * left by disconnecting is detached: a late reply is not routed.
 */
final class Call {
    enum State { QUEUED, DISPATCHED, COMPLETED }

    final String callId;
    final BusConnection caller;
    final Service service;
    final String method;
    final Carried request;
    State state = State.QUEUED;
    boolean attached = true;
    /** The request delivery's id on the service's connection, once dispatched. */
    String requestDeliveryId;
    Carried result;
    ClientIdentity responder;
    boolean resultDelivered;

    Call(String callId, BusConnection caller, Service service, String method, Carried request) {
        this.callId = callId;
        this.caller = caller;
        this.service = service;
        this.method = method;
        this.request = request;
    }
}
