package io.spectrum.bench.host;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The Mosquitto side: Debian's {@code mosquitto} started on a free loopback port with a generated
 * config (anonymous, no persistence, no logging), N subscribers and one publisher through the
 * HiveMQ MQTT 5 client (its shared Netty event loops), QoS 0 on one topic.
 */
final class MqttSide implements Side {
    static final String TOPIC = "bench/v";
    private final Process broker;
    private final Path dir;
    private final List<Mqtt5AsyncClient> subscribers = new ArrayList<>();
    private final Mqtt5AsyncClient publisher;
    private final LongAdder delivered = new LongAdder();

    /** The broker binary, or null when mosquitto is not installed. */
    static Path binary() {
        return Ports.onPath("mosquitto");
    }

    MqttSide(Path mosquitto, int subscriberCount) throws IOException, InterruptedException {
        int port = Ports.freeTcp();
        dir = Files.createTempDirectory("bench-mosquitto");
        Path conf = dir.resolve("mosquitto.conf");
        Files.writeString(conf, String.join("\n",
                "listener " + port + " 127.0.0.1",
                "allow_anonymous true",
                "persistence false",
                "log_dest none",
                "max_queued_messages 100000",
                ""));
        broker = new ProcessBuilder(mosquitto.toString(), "-c", conf.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("mosquitto.out").toFile()).start();
        awaitListening(port);
        for (int i = 0; i < subscriberCount; i++) {
            Mqtt5AsyncClient c = client("sub" + i, port);
            c.subscribeWith().topicFilter(TOPIC).qos(MqttQos.AT_MOST_ONCE).callback(p -> delivered.increment())
                    .send().orTimeout(10, TimeUnit.SECONDS).join();
            subscribers.add(c);
        }
        publisher = client("pub", port);
    }

    private static Mqtt5AsyncClient client(String id, int port) {
        Mqtt5AsyncClient c = MqttClient.builder().useMqttVersion5().identifier(id)
                .serverHost("127.0.0.1").serverPort(port).buildAsync();
        c.connect().join();
        return c;
    }

    private void awaitListening(int port) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                if (!broker.isAlive() || System.nanoTime() - deadline > 0) {
                    throw new IOException("mosquitto did not listen on " + port + ": "
                            + Files.readString(dir.resolve("mosquitto.out")).strip(), e);
                }
                Thread.sleep(20);
            }
        }
    }

    @Override
    public String name() {
        return "mosquitto";
    }

    @Override
    public long serverPid() {
        return broker.pid();
    }

    @Override
    public long delivered() {
        return delivered.sum();
    }

    @Override
    public void publish(byte[] payload) {
        publisher.publishWith().topic(TOPIC).qos(MqttQos.AT_MOST_ONCE).payload(payload).send();
    }

    @Override
    public void close() {
        for (Mqtt5AsyncClient c : subscribers) {
            c.disconnect();
        }
        publisher.disconnect();
        broker.destroy();
        try {
            broker.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temp dir left behind is harmless
        }
    }
}
