package io.spectrum.hil;

/** A scenario's assertion-style failure: the board did something the protocol does not allow. */
public final class HilFailure extends AssertionError {
    /** A failure with a message a reader can act on. */
    public HilFailure(String message) {
        super(message);
    }

    /** A failure caused by {@code cause} (an exception the board's behaviour led to). */
    public HilFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
