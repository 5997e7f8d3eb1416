package io.spectrum.hil.client;

import io.spectrum.wire.TlvType;
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
        // FWD{op, dst, src, [kind], payload}: the kind is read only when it is a 1-byte VALUE of 0/1
        // (digest §5.1 [rec]); otherwise the child after src is the payload.
        int i = 3;
        Tlv third = frame.child(2);
        if (third != null && third.type() == TlvType.FIELD) {
            i = 4;
        }
        Tlv kind = frame.child(i);
        boolean isError = false;
        if (kind != null && kind.type() == TlvType.VALUE && kind.payload().length == 1
                && (kind.asLong() == 0 || kind.asLong() == 1)) {
            isError = kind.asLong() == 1;
            i++;
        }
        this.error = isError;
        this.payload = frame.child(i);
        this.errorCode = isError && payload != null ? payload.errorCode() : -1;
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
