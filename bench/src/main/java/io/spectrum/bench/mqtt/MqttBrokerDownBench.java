package io.spectrum.bench.mqtt;

import io.spectrum.runtime.LinkSpec;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.board.Board;
import io.spectrum.bridge.BridgeOptions;
import io.spectrum.bridge.BrokerAddress;
import io.spectrum.bridge.MqttBridge;
import io.spectrum.client.Delivery;
import io.spectrum.client.HeldSubscriptions;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Subscribed;
import io.spectrum.client.ValueText;
import io.spectrum.host.runtime.HostService;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.time.SystemClock;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttMessage;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The "broker down" figure: while the MQTT broker is gone, does the host keep delivering
 * board values to its own clients within 100 ms? An emulated board ({@code vertices} vertices each
 * written at {@code hz} with the write's {@link System#nanoTime()}, UDP loopback) mounted by a host
 * ({@link HostService}, what {@code spectrum host} runs, as {@code /bench}) with two client
 * listeners: one for an ordinary client ({@link PeerClient} subscribed to {@code /bench}, on its own
 * thread) and one for the MQTT bridge (as {@code spectrum host --mqtt} does), which publishes to a
 * Mosquitto this program starts. Phases of {@code seconds} each: broker up; broker killed (SIGKILL);
 * broker started again on the same port (the time until a fresh MQTT subscriber sees every
 * vertex's retained state is printed) and up again. For each phase: the host client's values/s and
 * board-write-to-host-client latency p50 / p99 / max, and what the bridge did (taken from the host,
 * published, coalesced, dropped, queued).
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.mqtt.MqttBrokerDownBench [vertices=20] [hz=50] [seconds=10] [mosquitto]</pre>
 *
 * <p>The host's per-peer delivery limit ({@code HostRuntime.HOST_CONFIG}: 100,000/s) is far above
 * the default load (1,000 values/s). Few vertices written fast rather than many slowly, to keep the
 * phases short; a board of many vertices is bridged through a host by {@code MqttBridgeBench via=host}.
 */
public final class MqttBrokerDownBench {
    private MqttBrokerDownBench() { }

    /** Runs the phases and prints each one's figures; arguments as in the class comment. */
    public static void main(String[] args) throws Exception {
        int vertices = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int hz = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        String mosquitto = args.length > 3 ? args[3] : "/usr/sbin/mosquitto";
        BenchMosquitto broker = BenchMosquitto.start(mosquitto);

        NodeConfig config = NodeConfig.builder().maxVertices(vertices + 64).peerDeliveriesPerSecond(0).build();
        Board board = new Board("bench", config, new MqttBridgeBench.Paced(vertices, hz));
        UdpLink boardLink = (UdpLink) LinkSpec.listen(1, "udp://127.0.0.1:0", LinkSettings.clientDefaults(), SystemClock.INSTANCE);
        board.attach(boardLink);
        board.start();

        UdpLink clients = (UdpLink) LinkSpec.listen(2, "udp://127.0.0.1:0", LinkSettings.clientDefaults(), SystemClock.INSTANCE);
        // the host's door for its in-process bridge, as spectrum host --mqtt opens it (HostBridge)
        io.spectrum.link.Link[] door = LinkSpec.inProcessPair(3, 6, LinkSettings.clientDefaults());
        UdpLink toBoard = (UdpLink) LinkSpec.dial(4, "udp://" + UdpLink.hostPort(boardLink.localAddress()), LinkSettings.clientDefaults(), SystemClock.INSTANCE);
        HostService host = new HostService("benchhost", List.of(new HostService.Board("bench", toBoard)), List.of(clients, door[0]),
                -1, false, new PrintWriter(OutputStream.nullOutputStream()));
        host.start();

        HostClient client = new HostClient((UdpLink) LinkSpec.dial(5, "udp://" + UdpLink.hostPort(clients.localAddress()), LinkSettings.clientDefaults(), SystemClock.INSTANCE),
                seconds * (long) vertices * hz * 2 + 100_000);
        Thread clientThread = new Thread(client, "bench host client");
        clientThread.setDaemon(true);
        clientThread.start();
        MqttBridge bridge = MqttBridge.start(new PeerClient(door[1], 0, Duration.ofSeconds(2)),
                BrokerAddress.parse(broker.url(), null, java.util.Map.of()), new BridgeOptions().host("benchhost"), note -> { });

        long warm = System.nanoTime() + 120_000_000_000L; // the walk of every vertex, JIT, then 5 s more
        while ((client.count() < 2L * vertices || bridge.stats().published() < 2L * vertices) && System.nanoTime() < warm) {
            Thread.sleep(100);
        }
        Thread.sleep(5_000);
        System.out.printf("%d vertices at %d Hz (%d values/s offered) through a host to its client and its MQTT bridge; "
                + "%d s per phase%n", vertices, hz, vertices * hz, seconds);
        phase("broker up", seconds, client, bridge);
        broker.kill();
        phase("broker down (killed)", seconds, client, bridge);
        long back = System.nanoTime();
        broker.restart();
        System.out.printf("after the restart: every vertex's retained state on the broker within %.2f s of its return%n",
                retainedComplete(broker.url(), vertices, back) / 1e9);
        phase("broker back", seconds, client, bridge);
        System.out.printf("the host client's slot was appended again %d times (HeldSubscriptions.verify every 1 s)%n",
                client.restored());
        bridge.close();
        client.stop();
        clientThread.join(2_000);
        host.close();
        board.close();
        broker.close();
        System.exit(0);
    }

    private static void phase(String name, int seconds, HostClient client, MqttBridge bridge) throws InterruptedException {
        MqttBridge.Stats s0 = bridge.stats();
        client.record();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long[] lat = client.take();
        double secs = (System.nanoTime() - t0) / 1e9;
        MqttBridge.Stats s1 = bridge.stats();
        Arrays.sort(lat);
        System.out.printf("%-22s host client: %6.0f values/s, board write -> host client p50 %.2f ms, p99 %.2f ms, max %.2f ms "
                        + "(n=%d, %d over 100 ms) | bridge: connected %s, took %d, published %d, coalesced %d, dropped %d, queued %d%n",
                name, lat.length / secs, pct(lat, 0.50) / 1e6, pct(lat, 0.99) / 1e6, lat.length == 0 ? 0 : lat[lat.length - 1] / 1e6,
                lat.length, over(lat, 100_000_000L), s1.connected(), s1.values() - s0.values(), s1.published() - s0.published(),
                s1.coalesced() - s0.coalesced(), s1.dropped() - s0.dropped(), s1.queued());
    }

    /** Nanoseconds from {@code since} until a fresh MQTT subscriber has seen a retained state for each vertex. */
    private static long retainedComplete(String url, int vertices, long since) throws Exception {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        MqttAsyncClient c = new MqttAsyncClient(url.replace("mqtt://", "tcp://"), "bench-retained", new MemoryPersistence());
        c.setCallback(new io.spectrum.bridge.CallbackAdapter() {
            @Override
            public void messageArrived(String topic, MqttMessage m) {
                if (m.isRetained() && topic.startsWith("spectrum/benchhost/bench/bench/v")) {
                    seen.add(topic);
                }
            }
        });
        long deadline = System.nanoTime() + 60_000_000_000L;
        try {
            while (System.nanoTime() < deadline) {
                seen.clear();
                if (c.isConnected()) {
                    c.disconnect().waitForCompletion(2_000);
                }
                c.connect().waitForCompletion(5_000);
                c.subscribe("spectrum/benchhost/#", 1).waitForCompletion(5_000);
                long until = System.nanoTime() + 200_000_000L;
                while (seen.size() < vertices && System.nanoTime() < until) {
                    Thread.sleep(5);
                }
                if (seen.size() >= vertices) {
                    return System.nanoTime() - since;
                }
            }
            return -1;
        } finally {
            c.disconnect().waitForCompletion(2_000);
            c.close(true);
        }
    }

    private static long over(long[] sorted, long limit) {
        int i = Arrays.binarySearch(sorted, limit + 1);
        return sorted.length - (i >= 0 ? i : -i - 1);
    }

    private static double pct(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (p * sorted.length))];
    }

    /** An ordinary client of the host: subscribed to {@code /bench}, it records each value's latency from its nanoTime. */
    static final class HostClient implements Runnable {
        private final PeerClient client;
        private final long[] lat;
        private volatile boolean running = true;
        private volatile boolean recording;
        private volatile int n;
        private volatile long seen;
        private volatile long restored;
        private static final long CHECK_NANOS = 1_000_000_000L;

        HostClient(UdpLink link, long capacity) {
            this.client = new PeerClient(link, 0, Duration.ofSeconds(2));
            this.lat = new long[(int) Math.min(capacity, 20_000_000L)];
        }

        @Override
        public void run() {
            client.onDelivery(this::delivered);
            HeldSubscriptions held = new HeldSubscriptions(client);
            Subscribed s = held.subscribe("/bench", "/bench-client/sub", -1, false);
            while (running && !s.reply().ok()) {
                client.pumpFor(Duration.ofMillis(200));
                s = held.subscribe("/bench", "/bench-client/sub", -1, false);
            }
            long nextCheck = System.nanoTime() + CHECK_NANOS;
            while (running) {
                client.pumpFor(Duration.ofMillis(5));
                if (System.nanoTime() - nextCheck >= 0) {
                    held.verify(); // as spectrum sub does: a slot the host lost is appended again
                    restored = held.restored();
                    nextCheck = System.nanoTime() + CHECK_NANOS;
                }
            }
            client.close();
        }

        /** Times the host had lost the client's slot and it was appended again. */
        long restored() {
            return restored;
        }

        private void delivered(Delivery d) {
            long now = System.nanoTime();
            seen++;
            if (!recording || d.valueLength() == 0) {
                return;
            }
            ValueText v = d.render(null); // read in place during the sink call: no copy
            BigInteger raw = v.raw();
            if (raw != null && n < lat.length) {
                lat[n] = now - raw.longValue();
                n = n + 1;
            }
        }

        long count() {
            return seen;
        }

        void record() {
            n = 0;
            recording = true;
        }

        long[] take() {
            recording = false;
            return Arrays.copyOf(lat, n);
        }

        void stop() {
            running = false;
        }
    }
}
