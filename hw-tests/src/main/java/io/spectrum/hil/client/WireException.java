package io.spectrum.hil.client;

import io.spectrum.wire.WireError;

/** A refusal with a registry code, raised by the host-side client (never on the board). */
public final class WireException extends RuntimeException {
    private final int code;

    public WireException(int code, String message) {
        super(message);
        this.code = code;
    }

    public int code() {
        return code;
    }

    public String identity() {
        return WireError.identity(code);
    }
}
