package io.spectrum.bus.protocol;

/** A topic's retention ({@code retained}): nothing, or its latest accepted message. */
public enum Retention {
    /** Keeps nothing: a subscriber that joins later sees only later messages. */
    NONE("none"),
    /** Keeps the latest accepted message, replayed to a subscriber that asks for it. */
    LATEST("latest");

    private final String wireName;

    Retention(String wireName) {
        this.wireName = wireName;
    }

    /** The spelling in {@code topic.declare} ({@code none}, {@code latest}). */
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
