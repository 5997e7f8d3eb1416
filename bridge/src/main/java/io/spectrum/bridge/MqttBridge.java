package io.spectrum.bridge;

import io.spectrum.client.PeerClient;
import io.spectrum.time.Sleeper;
import io.spectrum.time.SystemClock;

import java.util.function.Consumer;

/**
 * The MQTT bridge (docs/mqtt.md): a client of a running host or board, through the one
 * client ({@link PeerClient} over any transport), publishing every vertex it finds to a broker.
 * Two threads of its own plus Paho's: the peer side ({@link PeerSide}, the only user of the
 * client) and the broker side ({@link BrokerSide}, the only publisher), with the non-blocking
 * {@link Outbox} between them, so neither a slow broker nor a lost one ever holds up the peer.
 *
 * <p>Hand the client over at {@link #start}: from then on only the bridge's peer thread uses it.
 */
public final class MqttBridge implements AutoCloseable {
    /**
     * What the bridge did so far (the dashboard can show it): {@code values} taken from the peer,
     * messages {@code published} to the broker, {@code dropped} (the queue's bound) and
     * {@code coalesced} (an unsent state replaced by a newer one of the same topic) on the way,
     * {@code queued} now, {@code window} the broker's in-flight window and {@code windowWaits} how
     * often publishing waited for a PUBACK because it was full.
     */
    public record Stats(boolean connected, boolean following, long values, long published, long dropped, long coalesced,
                        int queued, int retainedTopics, long connects, int window, long windowWaits, long writesDone,
                        long writesRefused) {
        /** Connections after the first: each a broker restart or network loss the bridge came back from. */
        public long reconnects() {
            return Math.max(0, connects - 1);
        }
    }

    private final Outbox outbox;
    private final PeerSide peer;
    private final BrokerSide broker;
    private final Thread peerThread;
    private final Thread brokerThread;
    private final PeerClient client;

    private MqttBridge(PeerClient client, BrokerAddress address, BridgeOptions options, Consumer<String> notes, Sleeper sleeper) {
        Topics topics = new Topics(options.host());
        this.client = client;
        this.outbox = new Outbox(options.queue());
        this.peer = new PeerSide(client, options, topics, outbox, notes);
        this.broker = new BrokerSide(address, topics, outbox, options.clientId(), peer::onSet, notes, sleeper);
        this.peerThread = new Thread(peer, "mqtt-peer " + options.host());
        this.brokerThread = new Thread(broker, "mqtt-broker " + options.host());
        peerThread.setDaemon(true);
        brokerThread.setDaemon(true);
    }

    /**
     * Starts bridging what {@code client} reaches to the broker at {@code address}; {@code notes}
     * gets one-line state changes (connected, lost, refused). Returns at once.
     *
     * @throws IllegalArgumentException when the options or the address are not usable
     */
    public static MqttBridge start(PeerClient client, BrokerAddress address, BridgeOptions options, Consumer<String> notes) {
        return start(client, address, options, notes, SystemClock.INSTANCE);
    }

    /**
     * As {@link #start(PeerClient, BrokerAddress, BridgeOptions, Consumer)}, the broker's reconnect
     * backoff waiting on {@code sleeper} (the peer side's timers read the client's clock, {@link PeerClient#time}).
     */
    public static MqttBridge start(PeerClient client, BrokerAddress address, BridgeOptions options, Consumer<String> notes,
                                   Sleeper sleeper) {
        MqttBridge b = new MqttBridge(client, address, options, notes, sleeper);
        b.brokerThread.start();
        b.peerThread.start();
        return b;
    }

    /** A snapshot of the bridge's counters; safe from any thread. */
    public Stats stats() {
        return new Stats(broker.connected(), peer.subscribed(), peer.values(), broker.published(), outbox.dropped(),
                outbox.coalesced(), outbox.queued(), outbox.retainedTopics(), broker.connects(), broker.window(),
                broker.windowWaits(), peer.writesDone(), peer.writesRefused());
    }

    /** True when the peer side gave up (the peer refused the subscription at its root). */
    public boolean stopped() {
        return !peerThread.isAlive();
    }

    /** Stops both sides, says {@code $online} = false, disconnects and closes the client. */
    @Override
    public void close() {
        peer.stop();
        try {
            peerThread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        broker.close();
        brokerThread.interrupt();
        try {
            brokerThread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }
}
