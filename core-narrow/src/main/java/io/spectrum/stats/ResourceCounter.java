package io.spectrum.stats;

/**
 * The one writer of a {@link BoundedResource}'s figures: node tables count entries (vertices, slots,
 * awaits, links), the node's block pools count bytes, a link counts peer slots, the bus's artifact
 * store counts bytes.
 *
 * <p>Single writer: only the thread that owns the resource calls {@link #taken}, {@link #returned},
 * {@link #countRefused} and {@link #countDropped} (an increment is a read then a write, not atomic).
 * The fields are volatile so that any other thread (a dashboard, a stats dump) reads current
 * figures through the {@link BoundedResource} view. Allocation-free.
 */
public final class ResourceCounter implements BoundedResource {
    private final String name;
    private final long capacity;
    private final String ceiling;
    private volatile long inUse;
    private volatile long peak;
    private volatile long refused;
    private volatile long dropped;

    /**
     * A counter for {@code name} with {@code capacity} units, refusals reported against that
     * capacity.
     */
    public ResourceCounter(String name, long capacity) {
        this(name, capacity, null);
    }

    /**
     * A counter whose refusals meet {@code ceiling} (text for {@link #ceiling()}, e.g. "each
     * subscription's own spectrum.queue") rather than {@code capacity}; null: the default text.
     */
    public ResourceCounter(String name, long capacity, String ceiling) {
        this.name = name;
        this.capacity = capacity;
        this.ceiling = ceiling;
    }

    @Override
    public String ceiling() {
        return ceiling != null ? ceiling : BoundedResource.super.ceiling();
    }

    /** One unit taken. */
    public void taken() {
        taken(1);
    }

    /** {@code amount} units taken (a pool block of that many bytes). */
    public void taken(long amount) {
        long used = inUse + amount;
        inUse = used;
        if (used > peak) {
            peak = used;
        }
    }

    /** One unit returned. */
    public void returned() {
        returned(1);
    }

    /** {@code amount} units returned (a pool block of that many bytes). */
    public void returned(long amount) {
        inUse = inUse - amount;
    }

    /** A request refused at the ceiling. */
    public void countRefused() {
        refused = refused + 1;
    }

    /**
     * {@code amount} units dropped after they were taken (a queue's oldest entry pushed out); the
     * caller also {@link #returned} them if they no longer count as in use.
     */
    public void countDropped(long amount) {
        dropped = dropped + amount;
    }

    @Override
    public String resourceName() {
        return name;
    }

    @Override
    public long capacity() {
        return capacity;
    }

    @Override
    public long inUse() {
        return inUse;
    }

    @Override
    public long peak() {
        return peak;
    }

    @Override
    public long refused() {
        return refused;
    }

    @Override
    public long dropped() {
        return dropped;
    }
}
