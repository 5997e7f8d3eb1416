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
}
