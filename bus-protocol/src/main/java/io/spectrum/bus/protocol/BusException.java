package io.spectrum.bus.protocol;

import io.spectrum.wire.BusError;
import io.spectrum.wire.Dispatch;

/**
 * A typed refusal of a host-bus operation: the {@link BusError} code, what it means for execution
 * ({@link Dispatch}), and one line for a person. The bus is WIDE-core code (host side), where a
 * refusal may be an exception; nothing on a NARROW hot path throws it.
 */
public final class BusException extends Exception {
    private static final long serialVersionUID = 1L;
    private final BusError code;
    private final Dispatch dispatch;

    /** A refusal that did not dispatch anything ({@link Dispatch#NOT_DISPATCHED}). */
    public BusException(BusError code, String message) {
        this(code, message, Dispatch.NOT_DISPATCHED);
    }

    /** A refusal with what it means for execution; the message is prefixed with the code's wire name. */
    public BusException(BusError code, String message, Dispatch dispatch) {
        super(code.wireName() + ": " + message, null, false, false);
        this.code = code;
        this.dispatch = dispatch;
    }

    /** The typed bus error code, spelled on the wire by its {@code wireName()}. */
    public BusError code() {
        return code;
    }

    /** Whether a refused call's handler may have run: not dispatched, dispatched or unknown. */
    public Dispatch dispatch() {
        return dispatch;
    }
}
