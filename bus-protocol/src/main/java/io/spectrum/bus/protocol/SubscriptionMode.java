package io.spectrum.bus.protocol;

/**
 * A subscription's queueing: {@code latest} keeps one undelivered value and
 * replaces it; {@code bounded} is a FIFO whose overflow refuses the whole publish.
 */
public enum SubscriptionMode {
    /** One undelivered value at most; a newer publish replaces it (never refuses a publish). */
    LATEST("latest"),
    /**
     * A FIFO of up to {@code maxQueued} values; a publish that would overflow it is refused for every subscriber
     * (BACKPRESSURE).
     */
    BOUNDED("bounded");

    private final String wireName;

    SubscriptionMode(String wireName) {
        this.wireName = wireName;
    }

    /** The spelling in {@code subscribe} ({@code latest}, {@code bounded}). */
    public String wireName() {
        return wireName;
    }

    /** The mode spelled {@code s}, or null (strict input: the caller refuses it). */
    public static SubscriptionMode byWireName(String s) {
        for (SubscriptionMode m : values()) {
            if (m.wireName.equals(s)) {
                return m;
            }
        }
        return null;
    }
}
