package io.spectrum.stats;

/**
 * The BoundedResource bookkeeping for one fixed resource: node tables count entries (vertices, slots,
 * awaits, links), the node's block pools count bytes, a UDP link counts peer slots.
 *
 * <p>One writer (the thread that owns the resource) updates it; the fields are volatile so that any
 * other thread (a dashboard, a stats dump) reads current figures. Allocation-free.
 */
public final class ResourceCounter implements BoundedResource {
    private final String name;
    private final int capacity;
    private final String ceiling;
    private volatile int inUse;
    private volatile int peak;
    private volatile long refusals;

    /**
     * A counter for {@code name} with {@code capacity} units, refusals reported against that
     * capacity.
     */
    public ResourceCounter(String name, int capacity) {
        this(name, capacity, null);
    }

    /**
     * A counter whose refusals meet {@code ceiling} (text for {@link #ceiling()}, e.g. "each
     * subscription's own spectrum.queue") rather than {@code capacity}; null: the default text.
     */
    public ResourceCounter(String name, int capacity, String ceiling) {
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
    public void taken(int amount) {
        int used = inUse + amount;
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
    public void returned(int amount) {
        inUse = inUse - amount;
    }

    /** A request refused at the ceiling. */
    public void refused() {
        refusals = refusals + 1;
    }

    @Override
    public String resourceName() {
        return name;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int inUse() {
        return inUse;
    }

    @Override
    public int peak() {
        return peak;
    }

    @Override
    public long refusals() {
        return refusals;
    }
}
