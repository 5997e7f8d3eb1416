package io.spectrum.wire;

/**
 * What a refusal says about execution: before admission nothing ran
 * ({@link #NOT_DISPATCHED}); once a request may have reached its target the outcome is
 * {@link #UNKNOWN} (or {@link #DISPATCHED}), so a caller never reads a timeout as "no mutation".
 */
public enum Dispatch {
    /** Refused before admission: the request reached no target and nothing changed. */
    NOT_DISPATCHED("not-dispatched"),
    /**
     * The request was handed to its target; it may have taken effect even though the reply is a
     * refusal.
     */
    DISPATCHED("dispatched"),
    /**
     * The request may or may not have reached its target (a timeout or lost link after admission).
     */
    UNKNOWN("unknown");

    private final String wireName;

    Dispatch(String wireName) {
        this.wireName = wireName;
    }

    /**
     * The lower-case spelling on the wire and in {@code --json} output ({@code "not-dispatched"},
     * ...).
     */
    public String wireName() {
        return wireName;
    }

    /** The constant whose {@link #wireName()} is {@code s}, or {@code null} when none is. */
    public static Dispatch byWireName(String s) {
        for (Dispatch d : values()) {
            if (d.wireName.equals(s)) {
                return d;
            }
        }
        return null;
    }
}
