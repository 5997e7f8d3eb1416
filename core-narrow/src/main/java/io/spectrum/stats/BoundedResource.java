package io.spectrum.stats;

/**
 * One vocabulary for every bounded resource (pool, queue, table, link): the ceiling that applied,
 * what is in use, the high-water mark and how many requests were refused at the ceiling.
 */
public interface BoundedResource {
    String resourceName();

    int capacity();

    int inUse();

    int peak();

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
