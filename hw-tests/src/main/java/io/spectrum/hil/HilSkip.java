package io.spectrum.hil;

/** Thrown by a scenario that cannot run on this target (e.g. it has no reset line). */
public final class HilSkip extends RuntimeException {
    /** A skip with the reason shown in the report. */
    public HilSkip(String reason) {
        super(reason);
    }
}
