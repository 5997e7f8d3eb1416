package io.spectrum.host;

import io.spectrum.bridge.BridgeOptions;
import io.spectrum.bridge.BrokerAddress;
import io.spectrum.bridge.MqttBridge;
import io.spectrum.client.PeerClient;
import io.spectrum.link.Link;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.time.Clock;
import io.spectrum.time.Sleeper;
import io.spectrum.time.SystemClock;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code spectrum host … --mqtt URL}: the bridge run in the host's process, as a client of the host
 * like any other: the host gets one more client link (its door), the node's side of an in-process
 * pair ({@link LinkSpec#inProcessPair}), and the bridge's client holds the other side. No socket and
 * no port: nothing outside the process can reach the door. The bridge still sees exactly what
 * {@code spectrum bridge --peer} would (the host's tree, its gates on every write) and the host
 * command only opens the door and starts and stops the bridge. Without {@code --mqtt} every method
 * does nothing.
 */
final class HostBridge implements AutoCloseable {
    private final Clock clock;
    private final BrokerAddress address;
    private final BridgeOptions options;
    /** The bridge's side of the door's pair. */
    private final Link end;
    private volatile MqttBridge bridge;

    private HostBridge(Clock clock, BrokerAddress address, BridgeOptions options, Link end) {
        this.clock = clock;
        this.address = address;
        this.options = options;
        this.end = end;
    }

    /**
     * Opens the door (its node side added to {@code clients}); nothing without {@code --mqtt}
     * ({@code address} null). The pair carries frames up to {@code plain}'s frame size.
     */
    static HostBridge open(BrokerAddress address, BridgeOptions options, LinkSettings plain, Clock clock, int linkId,
                           List<Link> clients) throws IOException {
        if (address == null) {
            return new HostBridge(clock, null, null, null);
        }
        Link[] door = LinkSpec.inProcessPair(linkId, 0, plain);
        clients.add(door[0]);
        return new HostBridge(clock, address, options, door[1]);
    }

    /**
     * Starts the bridge once the host runs; its notes go to {@code notes} as lines. Its client takes
     * a board vertex's declaration from {@code held}, the host's copy
     * ({@link io.spectrum.host.runtime.HostRuntime#boardDeclarations}), where it has one: what the
     * host's own views render by, without a READ over the door or a second copy.
     */
    void start(Consumer<String> notes, Function<String, VertexSchema> held) throws IOException {
        if (end == null) {
            return;
        }
        PeerClient client = new PeerClient(end, 0, Duration.ofSeconds(2)).time(clock).declarationsFrom(held);
        bridge = MqttBridge.start(client, address, options, notes,
                clock instanceof Sleeper s ? s : SystemClock.INSTANCE); // a manual clock's backoff passes on its time
    }

    /** The bridge's side of the door (null without {@code --mqtt}): what its client sends and polls. */
    Link clientEnd() {
        return end;
    }

    /** Whether {@code --mqtt} was given. */
    boolean given() {
        return address != null;
    }

    /** The broker's URL as given (never with a password). */
    String broker() {
        return String.valueOf(address);
    }

    BrokerAddress address() {
        return address;
    }

    /** The queue's bound while the broker is away. */
    int capacity() {
        return options == null ? 0 : options.queue();
    }

    /** The bridge's counters, null before {@link #start} (or without {@code --mqtt}). */
    MqttBridge.Stats stats() {
        MqttBridge b = bridge;
        return b == null ? null : b.stats();
    }

    @Override
    public void close() {
        if (bridge != null) {
            bridge.close();
        }
    }
}
