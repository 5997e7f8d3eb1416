package io.spectrum.wide.bus;

/** A topic's retention ({@code retained}): nothing, or its latest accepted message. */
public enum Retention {
    NONE("none"),
    LATEST("latest");

    private final String wireName;

    Retention(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The retention spelled {@code s}, or null (strict input: the caller refuses it). */
    public static Retention byWireName(String s) {
        for (Retention r : values()) {
            if (r.wireName.equals(s)) {
                return r;
            }
        }
        return null;
    }
}
