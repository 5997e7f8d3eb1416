package io.spectrum.bridge;

import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.MqttDisconnectResponse;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;
import org.eclipse.paho.mqttv5.common.packet.UserProperty;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The broker side of the bridge: one publisher thread that connects (again and again, with a
 * backoff from {@link #MIN_BACKOFF_MS} doubling to {@link #MAX_BACKOFF_MS}), announces presence
 * ({@code $online} = true, retained; the last will says false), publishes the latest retained state
 * after every connect, then drains the {@link Outbox} at QoS 1. Incoming {@code …/set} messages
 * arrive on Paho's own thread and are only handed on ({@code onSet}), never acted on here.
 */
final class BrokerSide implements Runnable {
    static final long MIN_BACKOFF_MS = 250;
    static final long MAX_BACKOFF_MS = 5_000;
    private static final int QOS = 1;
    private static final int CONNECT_TIMEOUT_S = 5;
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    private final BrokerAddress address;
    private final Topics topics;
    private final Outbox outbox;
    private final BiConsumer<String, byte[]> onSet;
    private final Consumer<String> notes;
    private final MqttAsyncClient client;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong connects = new AtomicLong();
    private volatile boolean running = true;
    private volatile boolean connected;

    BrokerSide(BrokerAddress address, Topics topics, Outbox outbox, String clientId, BiConsumer<String, byte[]> onSet,
               Consumer<String> notes) {
        this.address = address;
        this.topics = topics;
        this.outbox = outbox;
        this.onSet = onSet;
        this.notes = notes;
        try {
            this.client = new MqttAsyncClient(address.serverUri(), clientId, new MemoryPersistence());
        } catch (MqttException e) {
            throw new IllegalArgumentException("cannot make an MQTT client for " + address + ": " + e.getMessage());
        }
        client.setCallback(new Callback());
    }

    @Override
    public void run() {
        long backoff = MIN_BACKOFF_MS;
        boolean republish = false;
        boolean warned = false;
        try {
            while (running) {
                if (!client.isConnected()) {
                    connected = false;
                    try {
                        connect();
                        backoff = MIN_BACKOFF_MS;
                        republish = true;
                        warned = false;
                        connected = true;
                        notes.accept("mqtt: connected to " + address + (connects.incrementAndGet() > 1 ? " again" : ""));
                    } catch (MqttException e) {
                        if (!warned) {
                            notes.accept("mqtt: cannot reach " + address + " (" + reason(e) + "); retrying with backoff up to "
                                    + MAX_BACKOFF_MS / 1000 + " s, values queue meanwhile");
                            warned = true;
                        }
                        Thread.sleep(backoff);
                        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
                        continue;
                    }
                }
                if (republish) {
                    republish = !republishLatest();
                    continue;
                }
                Outgoing m = outbox.poll(50);
                if (m != null && !publish(m)) {
                    outbox.putBack(m);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void connect() throws MqttException {
        MqttConnectionOptions o = address.connectionOptions(CONNECT_TIMEOUT_S);
        o.setSessionExpiryInterval(0L);
        o.setAutomaticReconnect(false); // our loop reconnects, so the first connect is retried the same way
        o.setKeepAliveInterval(10);
        o.setWill(topics.online(), new MqttMessage(FALSE, QOS, true, null));
        client.connect(o).waitForCompletion(CONNECT_TIMEOUT_S * 1000L);
        MqttSubscription set = new MqttSubscription(topics.all(), QOS);
        set.setNoLocal(true);      // our own state does not come back
        set.setRetainHandling(2);  // nor any retained message: a retained …/set is never replayed as a write
        client.subscribe(new MqttSubscription[] {set}).waitForCompletion(CONNECT_TIMEOUT_S * 1000L);
        client.publish(topics.online(), new MqttMessage(TRUE, QOS, true, null)).waitForCompletion(CONNECT_TIMEOUT_S * 1000L);
    }

    /** Publishes every topic's latest state; false when the connection went meanwhile. */
    private boolean republishLatest() {
        for (Outgoing m : outbox.latest()) {
            if (!running || !publish(m)) {
                return false;
            }
        }
        return true;
    }

    /** Publishes {@code m} at QoS 1, waiting while Paho's in-flight window is full; false when not connected. */
    private boolean publish(Outgoing m) {
        MqttMessage msg = new MqttMessage(m.payload(), QOS, m.retained(), properties(m));
        while (running) {
            try {
                org.eclipse.paho.mqttv5.client.IMqttToken t = client.publish(m.topic(), msg);
                published.incrementAndGet();
                return t != null;
            } catch (MqttException e) {
                if (e.getReasonCode() != org.eclipse.paho.mqttv5.client.MqttClientException.REASON_CODE_MAX_INFLIGHT) {
                    return false;
                }
                Thread.onSpinWait();
                java.util.concurrent.locks.LockSupport.parkNanos(50_000L);
            }
        }
        return false;
    }

    private static MqttProperties properties(Outgoing m) {
        if (m.seq() < 0) {
            return null;
        }
        MqttProperties p = new MqttProperties();
        p.setUserProperties(List.of(new UserProperty("seq", Long.toString(m.seq())),
                new UserProperty("stale", Boolean.toString(m.stale()))));
        return p;
    }

    boolean connected() {
        return connected && client.isConnected();
    }

    long published() {
        return published.get();
    }

    long connects() {
        return connects.get();
    }

    /** Says {@code $online} = false, disconnects and stops the thread's loop. */
    void close() {
        running = false;
        try {
            if (client.isConnected()) {
                client.publish(topics.online(), new MqttMessage(FALSE, QOS, true, null)).waitForCompletion(2_000);
                client.disconnect().waitForCompletion(2_000);
            }
        } catch (MqttException e) {
            notes.accept("mqtt: closing: " + reason(e));
        } finally {
            try {
                client.close(true);
            } catch (MqttException e) {
                // already closed
            }
        }
    }

    /** Paho's reason in one line. */
    static String reason(MqttException e) {
        String m = e.getMessage();
        Throwable c = e.getCause();
        return (m == null ? "reason " + e.getReasonCode() : m) + (c != null && c.getMessage() != null ? ": " + c.getMessage() : "");
    }

    private final class Callback extends CallbackAdapter {
        @Override
        public void disconnected(MqttDisconnectResponse r) {
            connected = false;
            if (running) {
                notes.accept("mqtt: lost " + address + (r.getReasonString() != null ? " (" + r.getReasonString() + ")" : "")
                        + "; reconnecting, values queue meanwhile");
            }
        }

        @Override
        public void mqttErrorOccurred(MqttException e) {
            notes.accept("mqtt: " + reason(e));
        }

        @Override
        public void messageArrived(String topic, MqttMessage message) {
            if (!message.isRetained()) {
                onSet.accept(topic, message.getPayload());
            }
        }



    }
}
