package io.spectrum.cli;

import io.spectrum.bridge.BridgeOptions;
import io.spectrum.bridge.BrokerAddress;
import io.spectrum.bridge.MqttBridge;
import io.spectrum.client.PeerClient;
import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLink;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * {@code spectrum host … --mqtt URL}: the bridge run in the host's process, as a client of the host
 * like any other: the host gets one more client listener on a free loopback port (its door), and the
 * bridge dials it. So the bridge sees exactly what {@code spectrum bridge --peer} would (the host's
 * tree, its gates on every write) and the host command only opens the door and starts and stops
 * the bridge. Without {@code --mqtt} every method does nothing.
 */
final class HostBridge implements AutoCloseable {
    private final LinkOptions links;
    private final CommandLine cl;
    private final BrokerAddress address;
    private final BridgeOptions options;
    private final UdpLink door;
    private volatile MqttBridge bridge;

    private HostBridge(CommandLine cl, LinkOptions links, BrokerAddress address, BridgeOptions options, UdpLink door) {
        this.cl = cl;
        this.links = links;
        this.address = address;
        this.options = options;
        this.door = door;
    }

    /** Checks the options and opens the door (added to {@code clients}); nothing without {@code --mqtt}. */
    static HostBridge open(CommandLine cl, MqttOptions mqtt, LinkOptions links, String host, int linkId, List<Link> clients)
            throws IOException {
        if (!mqtt.given()) {
            return new HostBridge(cl, links, null, null, null);
        }
        BrokerAddress address = mqtt.address(cl);
        BridgeOptions options = mqtt.options(cl, host);
        UdpLink door = (UdpLink) links.udpListen(linkId, "127.0.0.1:0");
        clients.add(door);
        return new HostBridge(cl, links, address, options, door);
    }

    /** Starts the bridge once the host runs. */
    void start() throws IOException {
        if (door == null) {
            return;
        }
        InetSocketAddress at = door.localAddress();
        UdpLink dial = (UdpLink) links.udpDial(0, "127.0.0.1:" + at.getPort());
        PrintWriter err = cl.getErr();
        bridge = MqttOptions.start(new PeerClient(dial, 0, Duration.ofSeconds(2)), address, options, err);
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
