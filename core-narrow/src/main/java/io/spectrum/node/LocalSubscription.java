package io.spectrum.node;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.wire.WireError;

/** The handle of an in-process callback edge: (slot, generation) of a NarrowNode. */
final class LocalSubscription implements Subscription {
    private final SubscriberSlots slots;
    private final NodePath path;
    final ValueListener listener;
    private int slot = -1;
    private int gen;
    private int index = -1;
    private int error = WireError.OK;
    private boolean open;

    LocalSubscription(SubscriberSlots slots, NodePath path, ValueListener listener) {
        this.slots = slots;
        this.path = path;
        this.listener = listener;
    }

    void bind(int s, int g, int pos) {
        slot = s;
        gen = g;
        index = pos;
        open = true;
    }

    void refused(int code) {
        error = code;
        open = false;
    }

    void reaped() {
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
