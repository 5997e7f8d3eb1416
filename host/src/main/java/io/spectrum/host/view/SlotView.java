package io.spectrum.host.view;

/**
 * One subscriber slot of a vertex.
 *
 * @param slot      the position N in {@code :subscribers[N]}
 * @param holder    who appended it (link + peer, or "local")
 * @param target    where deliveries go
 * @param suspended bit 9 of the delivery policy
 * @param delivered deliveries made to this slot so far
 */
public record SlotView(int slot, String holder, String target, boolean suspended, long delivered) {
    /** "suspended" (bit 9 set: nothing is delivered) or "delivering". */
    public String state() {
        return suspended ? "suspended" : "delivering";
    }
}
