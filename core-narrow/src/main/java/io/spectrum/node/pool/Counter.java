package io.spectrum.node.pool;

import io.spectrum.stats.BoundedResource;

/** The BoundedResource bookkeeping for a table of fixed entries (vertices, slots, awaits). */
public final class Counter implements BoundedResource {
    private final String name;
    private final int capacity;
    private int inUse;
    private int peak;
    private long refusals;

    public Counter(String name, int capacity) {
        this.name = name;
        this.capacity = capacity;
    }

    public void taken() {
        if (++inUse > peak) {
            peak = inUse;
        }
    }

    public void returned() {
        inUse--;
    }

    public void refused() {
        refusals++;
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
