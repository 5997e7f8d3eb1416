package io.spectrum.client.bus;

/** What a topic keeps for a late subscriber: nothing, or its latest accepted message. */
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
}
