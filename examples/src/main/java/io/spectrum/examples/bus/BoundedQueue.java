package io.spectrum.examples.bus;

import io.spectrum.client.bus.BusClient;
import io.spectrum.client.bus.BusSubscription;
import io.spectrum.client.bus.Message;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;
import io.spectrum.wire.BusError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A bounded subscription (docs/bus.md): a FIFO of {@code maxQueued} undelivered messages behind
 * {@code maxInFlight} delivered and not yet consumed. Queued 2 / in flight 1 holds three messages; the
 * fourth publish is refused whole with {@code BACKPRESSURE} (nobody gets it, no sequence number is
 * spent), so a slow reader slows its publisher instead of losing messages. Consuming one gives its
 * credit back, the next queued message is delivered, and the publisher has room again.
 *
 * <pre>java -cp cli/target/spectrum.jar:examples/target/spectrum-examples-0.1.0-SNAPSHOT.jar \
 *     io.spectrum.examples.bus.BoundedQueue SOCKET</pre>
 */
public final class BoundedQueue {
    /** The topic it publishes on. */
    public static final String TOPIC = "sensor.readings";

    private BoundedQueue() {
    }

    /** Publishes admitted before the refusal, the refusal's code, and every message read ({@code 1: reading 1}). */
    public record Outcome(int admitted, String refusal, List<String> received) {
    }

    /** Subscribes through {@code reader} (bounded 2/1), publishes through {@code writer} until refused, then drains. */
    public static Outcome run(BusClient writer, BusClient reader) throws BusException, InterruptedException {
        writer.declare(TOPIC, Retention.NONE);
        BusSubscription sub = reader.subscribe(TOPIC, SubscriptionMode.BOUNDED, 2, 1, false);
        int admitted = 0;
        String refusal = null;
        while (refusal == null && admitted < 10) { // 10: a bound should the bus never refuse
            try {
                writer.publish(TOPIC, ("reading " + (admitted + 1)).getBytes(StandardCharsets.UTF_8));
                admitted++;
            } catch (BusException e) {
                refusal = e.code().name();
            }
        }
        List<String> received = new ArrayList<>();
        read(sub, received); // its credit comes back: the next queued message goes out, and there is room
        writer.publish(TOPIC, ("reading " + (admitted + 1)).getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < admitted; i++) {
            read(sub, received);
        }
        sub.unsubscribe();
        return new Outcome(admitted, refusal, received);
    }

    private static void read(BusSubscription sub, List<String> received) throws BusException, InterruptedException {
        try (Message m = sub.next(Args.TIMEOUT_MILLIS)) {
            if (m == null) {
                throw new BusException(BusError.ROUTER_LOST, "no delivery on " + TOPIC);
            }
            received.add(m.topicSequence() + ": " + new String(m.payload(), StandardCharsets.UTF_8));
        }
    }

    /** Runs {@link #run} with two connections and prints the outcome: {@code BoundedQueue SOCKET}. */
    public static void main(String[] args) {
        Args.exit(Args.run(args, "BoundedQueue SOCKET", a -> {
            try (BusClient writer = Args.connect(a.socket(), "bq-writer"); BusClient reader = Args.connect(a.socket(), "bq-reader")) {
                System.out.println(run(writer, reader));
            }
        }));
    }
}
