package io.spectrum.hil;

/** A scenario's assertion-style failure: the board did something the protocol does not allow. */
public final class HilFailure extends AssertionError {
    public HilFailure(String message) {
        super(message);
    }

    public HilFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
