package io.spectrum.hil;

/** Thrown by a scenario that cannot run on this target (e.g. it has no reset line). */
public final class HilSkip extends RuntimeException {
    public HilSkip(String reason) {
        super(reason);
    }
}
