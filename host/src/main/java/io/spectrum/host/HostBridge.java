package io.spectrum.host;

import io.spectrum.bridge.BridgeOptions;
import io.spectrum.bridge.BrokerAddress;
import io.spectrum.bridge.MqttBridge;
import io.spectrum.client.PeerClient;
import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.time.Clock;
import io.spectrum.time.Sleeper;
import io.spectrum.time.SystemClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code spectrum host … --mqtt URL}: the bridge run in the host's process, as a client of the host
 * like any other: the host gets one more client listener on a free loopback port (its door), and the
 * bridge dials it. So the bridge sees exactly what {@code spectrum bridge --peer} would (the host's
 * tree, its gates on every write) and the host command only opens the door and starts and stops
 * the bridge. Without {@code --mqtt} every method does nothing.
 */
final class HostBridge implements AutoCloseable {
    private final LinkSettings plain;
    private final Clock clock;
    private final BrokerAddress address;
    private final BridgeOptions options;
    private final UdpLink door;
    private volatile MqttBridge bridge;

    private HostBridge(LinkSettings plain, Clock clock, BrokerAddress address, BridgeOptions options, UdpLink door) {
        this.plain = plain;
        this.clock = clock;
        this.address = address;
        this.options = options;
        this.door = door;
    }

    /**
     * Opens the door (added to {@code clients}); nothing without {@code --mqtt} ({@code address} null).
     * The door and the bridge's dial are plain UDP on loopback ({@code plain}: no DTLS) whatever the
     * board links are, so both are {@link UdpLink}s.
     */
    static HostBridge open(BrokerAddress address, BridgeOptions options, LinkSettings plain, Clock clock, int linkId,
                           List<Link> clients) throws IOException {
        if (address == null) {
            return new HostBridge(plain, clock, null, null, null);
        }
        UdpLink door = (UdpLink) LinkSpec.udpListen(linkId, "127.0.0.1:0", plain, clock);
        clients.add(door);
        return new HostBridge(plain, clock, address, options, door);
    }

    /** Starts the bridge once the host runs; its notes go to {@code notes} as lines. */
    void start(Consumer<String> notes) throws IOException {
        if (door == null) {
            return;
        }
        InetSocketAddress at = door.localAddress();
        UdpLink dial = (UdpLink) LinkSpec.udpDial(0, "127.0.0.1:" + at.getPort(), plain, clock);
        PeerClient client = new PeerClient(dial, 0, Duration.ofSeconds(2)).time(clock);
        bridge = MqttBridge.start(client, address, options, notes,
                clock instanceof Sleeper s ? s : SystemClock.INSTANCE); // a manual clock's backoff passes on its time
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
