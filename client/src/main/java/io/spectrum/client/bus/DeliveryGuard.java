package io.spectrum.client.bus;

import io.spectrum.bus.protocol.BusException;

/**
 * The use count of one topic delivery (docs/bus.md, "The delivery guard"): the message holds one
 * share, and each {@link Artifact} extracted from it ({@link Message#extract}) holds another. The
 * delivery is consumed — {@code delivery.consumed} sent, its credit back, its artifacts' delivery
 * roots gone — only when the last share is closed, so a renderer still reading an extracted frame
 * keeps it alive after the message is done with. An explicit hold ({@link Artifact#retain()}) is
 * an owner of its own: it neither takes a share nor goes when the last share does.
 * Thread-safe: shares may be closed on any thread.
 */
final class DeliveryGuard {
    private final BusClient client;
    private final String deliveryId;
    private int shares = 1;

    DeliveryGuard(BusClient client, String deliveryId) {
        this.client = client;
        this.deliveryId = deliveryId;
    }

    /** One more share (an extracted artifact); refused once the delivery is consumed. */
    synchronized void acquire() {
        if (shares == 0) {
            throw new IllegalStateException("delivery " + deliveryId + " is consumed: extract its artifacts before");
        }
        shares++;
    }

    /**
     * Closes one share; the last one consumes the delivery.
     *
     * @return the roots the consume released, 0 while another share still holds it
     */
    long drop() throws BusException {
        synchronized (this) {
            if (shares == 0 || --shares > 0) {
                return 0;
            }
        }
        return client.consumed(deliveryId);
    }

    /** True once the last share was closed. */
    synchronized boolean consumed() {
        return shares == 0;
    }
}
