package io.spectrum.hil.client;

import java.util.List;

/**
 * One delivery the board sent to a subscription route: FWD{WRITE, dst = route, src = empty,
 * payload, [extension children]} (digest §5.5).
 */
public final class Delivery {
    private final String route;
    private final Tlv frame;
    private final long receivedNanos;

    Delivery(String route, Tlv frame, long receivedNanos) {
        this.route = route;
        this.frame = frame;
        this.receivedNanos = receivedNanos;
    }

    public String route() {
        return route;
    }

    /** The written TLV (child after src). */
    public Tlv payload() {
        return frame.child(3);
    }

    /** Children after the payload: where a node puts extension stamps (sequence, stale). */
    public List<Tlv> trailing() {
        List<Tlv> all = frame.children();
        return all.size() > 4 ? all.subList(4, all.size()) : List.of();
    }

    public Tlv frame() {
        return frame;
    }

    public long receivedNanos() {
        return receivedNanos;
    }

    @Override
    public String toString() {
        return route + " <- " + payload();
    }
}
