package io.spectrum.wire;

/**
 * The host bus's typed refusals (the Flybus profile), defined here with
 * the rest of the wire's vocabulary (docs/bus.md; the bus's envelopes are module bus-protocol's
 * {@code io.spectrum.bus.protocol}, its server module bus's). Each has a stable
 * wire name ({@link #wireName()}, the upper-case spelling on the wire) so a client, the CLI's
 * {@code --json} and a log line all say the same word. Where a libtracer v1 {@code tr::…} code
 * means the same thing, {@link #tracerCode()} gives it (a plain v1 peer sees that one).
 */
public enum BusError {
    /** A malformed request: bad name, bad range, unknown field, wrong shape. */
    INVALID_ENVELOPE(WireError.FRAME_INVALID),
    /** The peer speaks another protocol or bus version. */
    VERSION_MISMATCH(WireError.VERSION_MISMATCH),
    /** The connection's grants do not allow this name for this operation. */
    NOT_AUTHORIZED(WireError.ACCESS_DENIED),
    /** No service is registered under the call's target. */
    NO_SERVICE(WireError.PATH_NOT_FOUND),
    /** The call pinned a service incarnation that is no longer the registered one. */
    TARGET_CHANGED(WireError.PATH_NOT_FOUND),
    /** A bounded subscriber (or a queue/lane) has no room: the whole operation was refused. */
    BACKPRESSURE(WireError.FLOW_BACKPRESSURE),
    /** The call's correlation is retired or unknown. */
    CALL_GONE(WireError.PATH_NOT_FOUND),
    /** The artifact is still being written (not sealed), so it cannot be read or referenced yet. */
    ARTIFACT_UNSEALED(WireError.SCHEMA_TYPE_MISMATCH),
    /** The artifact (store id, id, generation) no longer exists. */
    ARTIFACT_GONE(WireError.PATH_NOT_FOUND),
    /** An owner id that this connection never issued, retired for this use, or of the wrong kind. */
    OWNER_INVALID(WireError.ACCESS_DENIED),
    /** A configured limit (topics, subscriptions, store bytes, retained bytes, owners…) was reached. */
    QUOTA_EXCEEDED(WireError.FLOW_BACKPRESSURE),
    /** The artifact store failed (disk full, I/O error). */
    STORE_FAILURE(WireError.TRANSPORT_DOWN),
    /** The router went away (shutdown, or the connection to it was lost). */
    ROUTER_LOST(WireError.TRANSPORT_DOWN),
    /** A conflicting declaration or registration, or delete of a topic that has subscribers. */
    CONFLICT(WireError.PATH_IN_USE),
    /** Publish, subscribe or clear of a topic that was never declared. */
    NO_TOPIC(WireError.PATH_NOT_FOUND),
    /** A ref whose length or digest does not match the stored object, or a staged file of the wrong size. */
    ARTIFACT_MISMATCH(WireError.SCHEMA_TYPE_MISMATCH),
    /** The connection sent nothing (not even a {@code bus.ping}) for the bus's idle timeout and was closed. */
    IDLE_TIMEOUT(WireError.FLOW_TIMEOUT);

    private final int tracerCode;

    BusError(int tracerCode) {
        this.tracerCode = tracerCode;
    }

    /** The upper-case word clients and logs use ({@code BACKPRESSURE}). */
    public String wireName() {
        return name();
    }

    /** The closest libtracer v1 error code ({@link io.spectrum.wire.WireError}). */
    public int tracerCode() {
        return tracerCode;
    }

    /** The error named {@code wireName}, or null when no error has that name. */
    public static BusError byWireName(String wireName) {
        for (BusError e : values()) {
            if (e.name().equals(wireName)) {
                return e;
            }
        }
        return null;
    }
}
