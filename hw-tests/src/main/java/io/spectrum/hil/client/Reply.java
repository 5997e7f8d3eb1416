package io.spectrum.hil.client;

import io.spectrum.wire.FwdView;
import io.spectrum.wire.StatusView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;

/** One FWD REPLY as the client received it: RESULT with an optional payload, or ERROR with a code. */
public final class Reply {
    private final Tlv frame;
    private final boolean error;
    private final Tlv payload;
    private final int errorCode;

    /** Reads a REPLY frame (the client builds these; scenarios use it on frames they picked out). */
    public static Reply of(Tlv frame) {
        return new Reply(frame);
    }

    Reply(Tlv frame) {
        this.frame = frame;
        // the envelope is read by the wire's FwdView: the kind only when a 1-byte VALUE of 0/1
        // (digest §5.1 [rec]), otherwise the child after src is the payload
        FwdView f = frame.asFwd();
        this.error = f != null && f.kind() == FwdView.KIND_ERROR;
        this.payload = f == null || f.payload() == TlvIndex.NONE ? null : Tlv.of(f.index(), f.payload());
        this.errorCode = error ? StatusView.errorCode(f.index(), f.payload(), -1) : -1;
    }

    public boolean isResult() {
        return !error;
    }

    public boolean isError() {
        return error;
    }

    /** The answered TLV for READ/AWAIT, null for a WRITE acknowledgement. */
    public Tlv payload() {
        return payload;
    }

    /** Registry code of an ERROR reply, -1 for a RESULT. */
    public int errorCode() {
        return errorCode;
    }

    public Tlv frame() {
        return frame;
    }

    @Override
    public String toString() {
        return error ? "ERROR " + WireError.identity(errorCode) + " (0x" + Integer.toHexString(errorCode) + ")"
                : "RESULT " + (payload == null ? "(no payload)" : payload.toString());
    }
}
