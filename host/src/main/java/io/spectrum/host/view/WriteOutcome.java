package io.spectrum.host.view;

import io.spectrum.wire.WireError;

/**
 * What became of a write asked for from a view: a {@link WireError} code and, when refused, one line
 * saying why (a local refusal by the declaration, or the board's answer).
 */
public record WriteOutcome(int code, String message) {
    public static final WriteOutcome OK = new WriteOutcome(WireError.OK, "");

    public boolean ok() {
        return code == WireError.OK;
    }

    public static WriteOutcome refused(int code, String message) {
        return new WriteOutcome(code, message);
    }
}
