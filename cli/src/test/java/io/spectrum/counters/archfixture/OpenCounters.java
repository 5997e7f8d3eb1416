package io.spectrum.counters.archfixture;

/**
 * Counters as public mutable fields, the shape every writer could change: the negative control of
 * {@code CounterWritersTest}.
 */
public final class OpenCounters {
    /** Anyone holding the object could write it. */
    public volatile long framesIn;
    /** A public constant is fine: it cannot be written. */
    public static final long LIMIT = 8;
}
