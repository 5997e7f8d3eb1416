package io.spectrum.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A delivery sink that keeps every delivery (each {@link Delivery#detach detached}), for callers that look back (the HIL suite asks "what
 * reached this route since t"). It grows with the traffic; a long-running follower hands
 * deliveries to its own callback instead ({@link PeerClient#onDelivery}).
 */
public final class DeliveryLog implements Consumer<Delivery> {
    private final List<Delivery> all = new ArrayList<>();

    @Override
    public void accept(Delivery d) {
        all.add(d.detach()); // kept past the sink call
    }

    /** Deliveries to {@code route} received after {@code sinceNanos} (the client's clock, {@link PeerClient#time}). */
    public List<Delivery> since(String route, long sinceNanos) {
        List<Delivery> out = new ArrayList<>();
        for (Delivery d : all) {
            if (d.route().equals(route) && d.receivedNanos() - sinceNanos > 0) {
                out.add(d);
            }
        }
        return out;
    }

    /** Every delivery to {@code route}. */
    public List<Delivery> to(String route) {
        List<Delivery> out = new ArrayList<>();
        for (Delivery d : all) {
            if (d.route().equals(route)) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * Polls {@code client} until {@code route} has {@code count} deliveries after {@code sinceNanos}
     * or {@code max} has passed; returns what arrived.
     */
    public List<Delivery> await(PeerClient client, String route, long sinceNanos, int count, Duration max) {
        client.pumpUntil(() -> since(route, sinceNanos).size() >= count, max);
        return since(route, sinceNanos);
    }
}
