package io.spectrum.wire;

/**
 * What a refusal says about execution: before admission nothing ran
 * ({@link #NOT_DISPATCHED}); once a request may have reached its target the outcome is
 * {@link #UNKNOWN} (or {@link #DISPATCHED}), so a caller never reads a timeout as "no mutation".
 */
public enum Dispatch {
    NOT_DISPATCHED("not-dispatched"),
    DISPATCHED("dispatched"),
    UNKNOWN("unknown");

    private final String wireName;

    Dispatch(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Dispatch byWireName(String s) {
        for (Dispatch d : values()) {
            if (d.wireName.equals(s)) {
                return d;
            }
        }
        return null;
    }
}
