package io.spectrum.host.view;

import io.spectrum.wire.WireError;

/**
 * What became of a write asked for from a view: a {@link WireError} code and, when refused, one line
 * saying why (a local refusal by the declaration, or the board's answer).
 */
public record WriteOutcome(int code, String message) {
    /** The write was accepted. */
    public static final WriteOutcome OK = new WriteOutcome(WireError.OK, "");

    /** True when the write was accepted ({@code WireError.OK}). */
    public boolean ok() {
        return code == WireError.OK;
    }

    /** A refused write: its {@link WireError} code and one line saying why. */
    public static WriteOutcome refused(int code, String message) {
        return new WriteOutcome(code, message);
    }
}
