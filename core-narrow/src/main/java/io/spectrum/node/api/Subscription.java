package io.spectrum.node.api;

/**
 * A handle to one subscriber slot, created at subscribe time. Toggling is one bit flip in the slot:
 * no admission, no allocation, no frame. Every method answers a {@link io.spectrum.wire.WireError}
 * code.
 */
public interface Subscription {
    /** Stops deliveries; the slot, its position and binding stay (RFC-0035 §4.1). */
    int suspend();

    /** Resumes deliveries from the next write on; nothing is replayed (RFC-0035 §4.5). */
    int resume();

    /** Clears the slot. Further calls answer PATH_NOT_FOUND. */
    int close();

    /** True while the slot is suspended (bit 9 of its delivery_policy set); false once closed. */
    boolean isSuspended();

    /** False after close, after the slot was reaped, or when subscribe was refused. */
    boolean isOpen();

    /** The refusal code when subscribe was refused, else OK. */
    int error();

    /** The slot position N of {@code :subscribers[N]} on the vertex. */
    int index();

    /** The slot's generation (bumps on every admission). */
    int generation();

    /** The subscribed vertex's path. */
    NodePath path();
}
