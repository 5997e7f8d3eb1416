package io.spectrum.bench.mqtt;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import io.spectrum.bench.host.ProcCpu;
import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttActionListener;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;
import org.eclipse.paho.mqttv5.common.packet.UserProperty;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Semaphore;

/**
 * What publishing the bridge's messages costs with each MQTT 5 client library, same run, same
 * broker: Eclipse Paho v5 (what the bridge uses, driven as {@code BrokerSide} drives it) and the
 * HiveMQ MQTT client. Each publishes {@code count} bridge-like messages (a ~190-byte JSON state,
 * retained, QoS 1, user properties {@code seq} and {@code stale}, over 1,000 topics) as fast as the
 * broker's in-flight window (its Receive Maximum, Mosquitto's 20) lets it. Rounds alternate the
 * libraries; round 0 is warm-up. Figures: messages per second, CPU of this JVM per message (every
 * thread: the library's, GC, JIT; /proc) and Mosquitto's.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.mqtt.MqttClientCost [count=50000] [rounds=3] [mosquitto]</pre>
 */
public final class MqttClientCost {
    private static final int TOPICS = 1000;

    private MqttClientCost() { }

    interface Publisher extends AutoCloseable {
        /** Publishes message {@code i}, waiting for a window permit first. */
        void publish(int i) throws Exception;

        /** Waits until every message is acknowledged. */
        void drain() throws Exception;
    }

    /** Runs the alternating rounds and prints each library's figures; arguments as in the class comment. */
    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String mosquitto = args.length > 2 ? args[2] : "/usr/sbin/mosquitto";
        long self = ProcessHandle.current().pid();
        try (BenchMosquitto broker = BenchMosquitto.start(mosquitto)) {
            for (int r = 0; r <= rounds; r++) {
                for (String lib : r % 2 == 0 ? List.of("paho", "hivemq") : List.of("hivemq", "paho")) {
                    try (Publisher p = lib.equals("paho") ? new Paho(broker.url()) : new HiveMq(broker.url())) {
                        long c0 = ProcCpu.nanos(self);
                        long m0 = ProcCpu.nanos(broker.pid());
                        long t0 = System.nanoTime();
                        for (int i = 0; i < count; i++) {
                            p.publish(i);
                        }
                        p.drain();
                        long t1 = System.nanoTime();
                        long c1 = ProcCpu.nanos(self);
                        long m1 = ProcCpu.nanos(broker.pid());
                        System.out.printf("round %d%s %-7s %8.0f msg/s, this JVM %5.1f us CPU/msg, Mosquitto %5.1f us CPU/msg%n",
                                r, r == 0 ? " (warm-up)" : "", lib, count / ((t1 - t0) / 1e9), (c1 - c0) / 1e3 / count,
                                (m1 - m0) / 1e3 / count);
                    }
                }
            }
        }
        System.exit(0);
    }

    static byte[] payload(int i) {
        return ("{\"ts\":\"2026-12-01T19:00:00.000Z\",\"path\":\"/bench/v" + (i % TOPICS) + "\",\"value\":" + (1_000_000_000L + i)
                + ",\"unit\":null,\"raw\":" + (1_000_000_000L + i) + ",\"seq\":" + i + ",\"stale\":false,\"number\":"
                + (1_000_000_000L + i) + ",\"text\":\"" + (1_000_000_000L + i) + "\",\"publisher\":\"bench\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    static String topic(int i) {
        return "spectrum/cost/bench/v" + (i % TOPICS);
    }

    /** Paho v5 as the bridge drives it: a semaphore sized by the CONNACK's Receive Maximum, released by the token's listener. */
    static final class Paho implements Publisher, MqttActionListener {
        private final MqttAsyncClient client;
        private final Semaphore window;
        private final int size;

        Paho(String url) throws Exception {
            client = new MqttAsyncClient(url.replace("mqtt://", "tcp://"), "cost-paho-" + System.nanoTime(), new MemoryPersistence());
            IMqttToken t = client.connect();
            t.waitForCompletion(5_000);
            Integer max = t.getResponseProperties() != null ? t.getResponseProperties().getReceiveMaximum() : null;
            size = max != null ? max : 65_535;
            window = new Semaphore(size);
        }

        @Override
        public void publish(int i) throws Exception {
            MqttProperties p = new MqttProperties();
            p.setUserProperties(List.of(new UserProperty("seq", Integer.toString(i)), new UserProperty("stale", "false")));
            window.acquire();
            client.publish(topic(i), new MqttMessage(payload(i), 1, true, p), null, this);
        }

        @Override
        public void drain() throws InterruptedException {
            window.acquire(size);
            window.release(size);
        }

        @Override
        public void onSuccess(IMqttToken token) {
            window.release();
        }

        @Override
        public void onFailure(IMqttToken token, Throwable e) {
            window.release();
        }

        @Override
        public void close() throws Exception {
            client.disconnect().waitForCompletion(2_000);
            client.close(true);
        }
    }

    /** The HiveMQ MQTT client (async API), with the same window in front of it. */
    static final class HiveMq implements Publisher {
        private final Mqtt5AsyncClient client;
        private final Semaphore window;
        private final int size;

        HiveMq(String url) {
            URI u = URI.create(url);
            client = MqttClient.builder().useMqttVersion5().identifier("cost-hivemq-" + System.nanoTime())
                    .serverHost(u.getHost()).serverPort(u.getPort()).buildAsync();
            Mqtt5ConnAck ack = client.connect().join();
            size = ack.getRestrictions().getReceiveMaximum();
            window = new Semaphore(size);
        }

        @Override
        public void publish(int i) throws InterruptedException {
            window.acquire();
            client.publishWith().topic(topic(i)).qos(MqttQos.AT_LEAST_ONCE).retain(true).payload(payload(i))
                    .userProperties().add("seq", Integer.toString(i)).add("stale", "false").applyUserProperties()
                    .send().whenComplete((r, e) -> window.release());
        }

        @Override
        public void drain() throws InterruptedException {
            window.acquire(size);
            window.release(size);
        }

        @Override
        public void close() {
            client.disconnect().join();
        }
    }
}
