package io.spectrum.client;

/**
 * A FWD WRITE the node sent to one of our routes: usually a subscription delivery
 * (src empty). {@code value} is the written TLV; {@code stamped} says whether the node's topic
 * stamp (docs/extensions.md) rode along, and then {@code seq}, {@code stale} and {@code deleted}
 * are its fields. {@code source} is the path of the vertex that was written when the stamp carries
 * it (a subscription that asked with {@code Names.TOPIC_WITH_PATH}: which child of a subtree
 * changed), else null. {@code frame} is the whole frame as received. {@code dlv} and {@code replaced}
 * are a delivery-mode subscription's delivery number and coalesced count (docs/extensions.md
 * "Delivery modes"), -1 and 0 for any other. {@code reason} is why a stale value is stale, as the
 * stamp's {@code reason} carries it ({@link io.spectrum.wire.StaleReason}), or null (fresh, or a node
 * that gave none). {@code origin} is the value's origin time as the stamp carries it, ms since the Unix
 * epoch, 0 when it carries none (docs/extensions.md "Origin time"). Array accessors return copies.
 */
public record Delivery(String route, byte[] value, boolean srcEmpty, boolean stamped, long seq, boolean stale,
        boolean deleted, String source, long receivedNanos, byte[] frame, long dlv, long replaced, String reason,
        long origin) {

    @Override
    public byte[] value() {
        return value == null ? null : value.clone();
    }

    @Override
    public byte[] frame() {
        return frame.clone();
    }
}
