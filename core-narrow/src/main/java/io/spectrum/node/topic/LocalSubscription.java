package io.spectrum.node.topic;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.wire.WireError;

/** The handle of an in-process callback edge: (slot, generation) of a NarrowNode. */
public final class LocalSubscription implements Subscription {
    private final SubscriberSlots slots;
    private final NodePath path;
    final ValueListener listener;
    private int slot = -1;
    private int gen;
    private int index = -1;
    private int error = WireError.OK;
    private boolean open;

    /** A handle, not yet bound, for {@code listener}'s subscription to {@code path}. */
    public LocalSubscription(SubscriberSlots slots, NodePath path, ValueListener listener) {
        this.slots = slots;
        this.path = path;
        this.listener = listener;
    }

    /** Binds the handle to slot {@code s} of generation {@code g} at position {@code pos}: open. */
    public void bind(int s, int g, int pos) {
        slot = s;
        gen = g;
        index = pos;
        open = true;
    }

    /** The node refused the subscription with {@code code}: closed. */
    public void refused(int code) {
        error = code;
        open = false;
    }

    /** The node reaped the slot: closed. */
    public void reaped() {
        open = false;
    }

    @Override
    public int suspend() {
        return slots.is(slot, gen) && open ? slots.setSuspended(slot, true) : WireError.PATH_NOT_FOUND;
    }

    @Override
    public int resume() {
        return slots.is(slot, gen) && open ? slots.setSuspended(slot, false) : WireError.PATH_NOT_FOUND;
    }

    @Override
    public int close() {
        if (!open || !slots.is(slot, gen)) {
            return WireError.PATH_NOT_FOUND;
        }
        slots.remove(slot);
        return WireError.OK;
    }

    @Override
    public boolean isSuspended() {
        return open && slots.is(slot, gen) && slots.suspended(slot);
    }

    @Override
    public boolean isOpen() {
        return open && slots.is(slot, gen);
    }

    @Override
    public int error() {
        return error;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public int generation() {
        return gen;
    }

    @Override
    public NodePath path() {
        return path;
    }

    @Override
    public String toString() {
        return "Subscription[" + path + " :subscribers[" + index + "] gen " + gen + (isSuspended() ? " suspended" : "") + "]";
    }
}
