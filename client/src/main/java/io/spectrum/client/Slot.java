package io.spectrum.client;

/**
 * One position of a vertex's {@code :subscribers[]} list (RFC-0035 §5.2): the SUBSCRIBER record as
 * the node renders it under the live bit 9, its target route, its policy word (0 when absent) and
 * whether it is suspended; or a hole (an empty STATUS: a cleared slot, or an edge without a record).
 */
public record Slot(int index, byte[] record, String target, int policy, boolean suspended) {
    static Slot hole(int index) {
        return new Slot(index, null, "", 0, false);
    }

    /** True for a hole (a cleared slot, or an edge without a record): no record, target or policy. */
    public boolean isHole() {
        return record == null;
    }

    /** The rendered record, or null for a hole. A copy. */
    @Override
    public byte[] record() {
        return record == null ? null : record.clone();
    }
}
