package io.spectrum.stats;

/**
 * One vocabulary for every bounded resource (pool, queue, table, link): the ceiling that applied,
 * what is in use, the high-water mark and how many requests were refused at the ceiling.
 */
public interface BoundedResource {
    /** The resource's name in stats and refusal messages (for example a pool or table name). */
    String resourceName();

    /**
     * The ceiling: the most units (entries, bytes, slots) the resource can hold, fixed at
     * construction.
     */
    int capacity();

    /** Units in use now, 0..{@link #capacity()}. */
    int inUse();

    /** The most units ever in use at once (the high-water mark). */
    int peak();

    /** Requests refused because the resource was at its ceiling, since it was created. */
    long refusals();

    /**
     * The limit a refusal met, as an operator reads it after "refused at": by default
     * {@code "the ceiling of " + capacity()}; a resource bounded per user instead (each
     * subscription's own queue) says which limit that is.
     */
    default String ceiling() {
        return "the ceiling of " + capacity();
    }
}
