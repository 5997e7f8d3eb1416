package io.spectrum.bridge;

import io.spectrum.time.Sleeper;
import io.spectrum.time.SystemClock;
import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttActionListener;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.MqttClientException;
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
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The broker side of the bridge: one publisher thread that connects (again and again, with a
 * backoff from {@link #MIN_BACKOFF_MS} doubling to {@link #MAX_BACKOFF_MS}), announces presence
 * ({@code $online} = true, retained; the last will says false), publishes the latest retained state
 * after every connect, then drains the {@link Outbox} at QoS 1. Incoming {@code …/set} messages
 * arrive on Paho's own thread and are only handed on ({@code onSet}), never acted on here.
 *
 * <p>QoS 1 publishing keeps its own in-flight window ({@link InFlight}), sized by the broker's
 * Receive Maximum from the CONNACK (Mosquitto's {@code max_inflight_messages}, 20 by default; 65,535
 * when the broker names none): a permit per unacknowledged PUBLISH, given back by the PUBACK. The
 * thread waits for a permit (not spinning) instead of calling Paho with a full window: Paho 1.2.5
 * takes a message id before it checks its window and never frees it when it refuses with
 * {@code REASON_CODE_MAX_INFLIGHT}, so retrying into a full window leaks ids until every id
 * lookup walks all 65,535 of them (the bridge's former throughput ceiling).
 */
final class BrokerSide implements Runnable {
    static final long MIN_BACKOFF_MS = 250;
    static final long MAX_BACKOFF_MS = 2_000;
    private static final int QOS = 1;
    /** The Receive Maximum MQTT 5 assumes when the CONNACK names none. */
    static final int DEFAULT_RECEIVE_MAXIMUM = 65_535;
    private static final long PERMIT_WAIT_MS = 20;
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
    private final AtomicLong windowWaits = new AtomicLong();
    private volatile InFlight inFlight = new InFlight(1);
    private volatile boolean running = true;
    private volatile boolean connected;
    private final Sleeper sleeper;

    BrokerSide(BrokerAddress address, Topics topics, Outbox outbox, String clientId, BiConsumer<String, byte[]> onSet,
               Consumer<String> notes) {
        this(address, topics, outbox, clientId, onSet, notes, SystemClock.INSTANCE);
    }

    /** @param sleeper what the reconnect backoff waits on (the system clock; a test's manual one) */
    BrokerSide(BrokerAddress address, Topics topics, Outbox outbox, String clientId, BiConsumer<String, byte[]> onSet,
               Consumer<String> notes, Sleeper sleeper) {
        this.sleeper = sleeper;
        this.address = address;
        this.topics = topics;
        this.outbox = outbox;
        this.onSet = onSet;
        this.notes = notes;
        try {
            PahoLog.quiet();
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
                    } catch (RuntimeException e) {
                        if (!running) {
                            return; // closed under a connect attempt (Paho then fails inside connect)
                        }
                        throw e;
                    } catch (MqttException e) {
                        if (!running) {
                            return;
                        }
                        if (!warned) {
                            notes.accept("mqtt: cannot reach " + address + " (" + reason(e) + "); retrying with backoff up to "
                                    + MAX_BACKOFF_MS + " ms, values queue meanwhile");
                            warned = true;
                        }
                        sleeper.sleepNanos(TimeUnit.MILLISECONDS.toNanos(backoff));
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
        IMqttToken connack = client.connect(o);
        connack.waitForCompletion(CONNECT_TIMEOUT_S * 1000L);
        inFlight = new InFlight(receiveMaximum(connack.getResponseProperties()));
        MqttSubscription set = new MqttSubscription(topics.all(), QOS);
        set.setNoLocal(true);      // our own state does not come back
        set.setRetainHandling(2);  // nor any retained message: a retained …/set is never replayed as a write
        client.subscribe(new MqttSubscription[] {set}).waitForCompletion(CONNECT_TIMEOUT_S * 1000L);
        client.publish(topics.online(), new MqttMessage(TRUE, QOS, true, null)).waitForCompletion(CONNECT_TIMEOUT_S * 1000L);
    }

    /** Publishes every topic's latest state; false when the connection went meanwhile. */
    private boolean republishLatest() throws InterruptedException {
        for (Outgoing m : outbox.latest()) {
            if (!running || !publish(m)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Publishes {@code m} at QoS 1 once the in-flight window has room (waiting for a PUBACK when it
     * has none); false when not connected.
     */
    private boolean publish(Outgoing m) throws InterruptedException {
        MqttMessage msg = new MqttMessage(m.payload(), QOS, m.retained(), properties(m));
        InFlight window = inFlight;
        while (running) {
            if (!window.permits.tryAcquire()) {
                windowWaits.incrementAndGet();
                if (!window.permits.tryAcquire(PERMIT_WAIT_MS, TimeUnit.MILLISECONDS)) {
                    if (!client.isConnected() || window != inFlight) {
                        return false; // the connection went: its acknowledgements never come
                    }
                    continue;
                }
            }
            try {
                client.publish(m.topic(), msg, null, window);
                published.incrementAndGet();
                return true;
            } catch (MqttException e) {
                window.permits.release();
                if (e.getReasonCode() != MqttClientException.REASON_CODE_MAX_INFLIGHT) {
                    return false;
                }
                sleeper.sleepNanos(TimeUnit.MILLISECONDS.toNanos(1)); // Paho's window is fuller than ours says (acks not yet seen): rare, wait a little
            }
        }
        return false;
    }

    /** The broker's Receive Maximum from the CONNACK properties, or MQTT 5's default when it names none. */
    static int receiveMaximum(MqttProperties connack) {
        Integer max = connack != null ? connack.getReceiveMaximum() : null;
        return max != null && max > 0 ? max : DEFAULT_RECEIVE_MAXIMUM;
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

    /** Times a publish waited for a PUBACK because the in-flight window was full. */
    long windowWaits() {
        return windowWaits.get();
    }

    /** The current connection's in-flight window (the broker's Receive Maximum). */
    int window() {
        return inFlight.size;
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

    /**
     * One connection's in-flight window: a permit per QoS 1 PUBLISH not yet acknowledged, given back
     * when Paho completes its token (the PUBACK, or a failure). A new connection gets a new window,
     * so a late completion from the old one cannot widen it.
     */
    static final class InFlight implements MqttActionListener {
        final int size;
        final Semaphore permits;

        InFlight(int size) {
            this.size = size;
            this.permits = new Semaphore(size);
        }

        @Override
        public void onSuccess(IMqttToken token) {
            permits.release();
        }

        @Override
        public void onFailure(IMqttToken token, Throwable e) {
            permits.release();
        }
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
