package io.spectrum.stats;

/**
 * The read-only view of one bounded resource (pool, queue, table, store, a link's peer table): the
 * ceiling that applies, what is in use, the high-water mark, how many requests were refused at the
 * ceiling and how many units it dropped after taking them. Every figure is a {@code long}, in the
 * resource's own unit (entries, slots, bytes). {@code /$node/stats}, the dashboard and
 * {@code /metrics} show the five under the names of {@link CounterNames} (docs/node.md, "Pools and
 * their limits"). {@link ResourceCounter} is the one writer implementation.
 */
public interface BoundedResource {
    /** The resource's name in stats and refusal messages (for example a pool or table name). */
    String resourceName();

    /**
     * The ceiling: the most units (entries, bytes, slots) the resource can hold, fixed at
     * construction.
     */
    long capacity();

    /** Units in use now, 0..{@link #capacity()}. */
    long inUse();

    /** The most units ever in use at once (the high-water mark). */
    long peak();

    /** Requests refused because the resource was at its ceiling, since it was created. */
    long refused();

    /**
     * Units the resource took and then let go without handing them on (a queue's oldest entry pushed
     * out by a newer one), since it was created; 0 for a resource that never drops.
     */
    long dropped();

    /**
     * The limit a refusal met, as an operator reads it after "refused at": by default
     * {@code "the ceiling of " + capacity()}; a resource bounded per user instead (each
     * subscription's own queue) says which limit that is.
     */
    default String ceiling() {
        return "the ceiling of " + capacity();
    }
}
