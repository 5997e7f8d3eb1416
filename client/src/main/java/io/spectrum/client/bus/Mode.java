package io.spectrum.client.bus;

/** A subscription's delivery mode (seed 001 §7): one replaceable undelivered value, or a FIFO that refuses publishes when full. */
public enum Mode {
    LATEST("latest"),
    BOUNDED("bounded");

    private final String wireName;

    Mode(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
