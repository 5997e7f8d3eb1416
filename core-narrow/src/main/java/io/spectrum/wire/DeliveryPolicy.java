package io.spectrum.wire;

/**
 * The SUBSCRIBER qos {@code delivery_policy} u16 word, read and built with static int helpers (no
 * object, no boxing). Layout (libtracer v1 as amended by RFC-0030 and RFC-0035):
 *
 * <pre>
 * bits 0-1   reliability        0 best-effort, 1 reliable, 2-3 reserved values (stored, carried)
 * bits 2-4   priority           0..7
 * bit  5     durability_request deliver the current value once on subscribe
 * bits 6-7   delivery_class     0 conflate, 1 immediate, 2 batch, 3 stream (decoded, not honoured)
 * bit  8     one_shot           0x0100
 * bit  9     suspended          0x0200, the one mutable bit (slot state, toggled in place)
 * bits 10-15 reserved           written 0, ignored on read, carried verbatim
 * </pre>
 *
 * An absent word reads as {@link #ABSENT} (0).
 */
public final class DeliveryPolicy {
    /**
     * The word of a SUBSCRIBER without {@code delivery_policy}: best-effort, priority 0, no flags.
     */
    public static final int ABSENT = 0;

    /**
     * Bits 0-1: reliability ({@link #RELIABILITY_BEST_EFFORT}, {@link #RELIABILITY_RELIABLE}, 2-3
     * reserved).
     */
    public static final int RELIABILITY_MASK = 0x0003;
    /** Bits 2-4: priority 0..7 (shift by {@link #PRIORITY_SHIFT}); stored and carried, no node orders by it. */
    public static final int PRIORITY_MASK = 0x001C;
    /** Shift of the priority field. */
    public static final int PRIORITY_SHIFT = 2;
    /** Bit 5: deliver the current value once on subscribe. */
    public static final int DURABILITY_REQUEST = 0x0020;
    /**
     * Bits 6-7: delivery class ({@link #CLASS_CONFLATE} .. {@link #CLASS_STREAM}); decoded, not
     * honoured.
     */
    public static final int DELIVERY_CLASS_MASK = 0x00C0;
    /** Shift of the delivery-class field. */
    public static final int DELIVERY_CLASS_SHIFT = 6;
    /** Bit 8: the subscription ends after its first delivery. */
    public static final int ONE_SHOT = 0x0100;
    /**
     * Bit 9: the subscription is suspended (no deliveries); the one bit toggled in place on a live
     * slot.
     */
    public static final int SUSPENDED = 0x0200;
    /** Bits 10-15: never interpreted, never rejected, carried verbatim. */
    public static final int RESERVED_MASK = 0xFC00;
    /** Shift of the reserved field. */
    public static final int RESERVED_SHIFT = 10;

    /** Reliability 0, best-effort: the default. Stored and carried; the nodes treat both values alike. */
    public static final int RELIABILITY_BEST_EFFORT = 0;
    /** Reliability 1, reliable: stored and carried; the nodes treat both values alike. */
    public static final int RELIABILITY_RELIABLE = 1;

    /** Delivery class 0, conflate (the default); like every class, decoded but not honoured. */
    public static final int CLASS_CONFLATE = 0;
    /** Delivery class 1, immediate; decoded but not honoured. */
    public static final int CLASS_IMMEDIATE = 1;
    /** Delivery class 2, batch; decoded but not honoured. */
    public static final int CLASS_BATCH = 2;
    /** Delivery class 3, stream; decoded but not honoured. */
    public static final int CLASS_STREAM = 3;

    /** Width of the word on the wire: a VALUE of exactly 2 bytes. */
    public static final int WIDTH = 2;

    private DeliveryPolicy() {
    }

    /**
     * Bits 0-1 of {@code word}: {@link #RELIABILITY_BEST_EFFORT}, {@link #RELIABILITY_RELIABLE} or
     * a reserved 2-3.
     */
    public static int reliability(int word) {
        return word & RELIABILITY_MASK;
    }

    /** Bits 2-4 of {@code word}: the priority, 0..7. */
    public static int priority(int word) {
        return (word & PRIORITY_MASK) >>> PRIORITY_SHIFT;
    }

    /** True when bit 5 asks for the current value on subscribe. */
    public static boolean durabilityRequest(int word) {
        return (word & DURABILITY_REQUEST) != 0;
    }

    /**
     * Bits 6-7 of {@code word}: {@link #CLASS_CONFLATE}, {@link #CLASS_IMMEDIATE}, {@link
     * #CLASS_BATCH} or {@link #CLASS_STREAM}.
     */
    public static int deliveryClass(int word) {
        return (word & DELIVERY_CLASS_MASK) >>> DELIVERY_CLASS_SHIFT;
    }

    /** True when bit 8 makes the subscription one-shot. */
    public static boolean oneShot(int word) {
        return (word & ONE_SHOT) != 0;
    }

    /** True when bit 9 marks the subscription suspended. */
    public static boolean suspended(int word) {
        return (word & SUSPENDED) != 0;
    }

    /** The reserved bits 10-15 shifted down (0..63). */
    public static int reserved(int word) {
        return (word & RESERVED_MASK) >>> RESERVED_SHIFT;
    }

    /** The word with bit 9 set to {@code on}; every other bit, reserved ones included, unchanged. */
    public static int withSuspended(int word, boolean on) {
        return on ? (word | SUSPENDED) & 0xFFFF : word & ~SUSPENDED & 0xFFFF;
    }

    /** The word with bit 9 cleared: the form the duplicate-append check compares (RFC-0035 §6.2). */
    public static int masked(int word) {
        return word & ~SUSPENDED & 0xFFFF;
    }

    /** Builds a word from its fields (each masked to its width); reserved bits are left 0. */
    public static int of(int reliability, int priority, boolean durability, int deliveryClass, boolean oneShot,
            boolean suspended) {
        return (reliability & 0x3)
                | (priority & 0x7) << PRIORITY_SHIFT
                | (durability ? DURABILITY_REQUEST : 0)
                | (deliveryClass & 0x3) << DELIVERY_CLASS_SHIFT
                | (oneShot ? ONE_SHOT : 0)
                | (suspended ? SUSPENDED : 0);
    }
}
