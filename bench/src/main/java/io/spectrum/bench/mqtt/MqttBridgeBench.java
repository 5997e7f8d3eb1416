package io.spectrum.bench.mqtt;

import io.spectrum.runtime.LinkSpec;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.bench.host.ProcCpu;
import io.spectrum.board.Board;
import io.spectrum.board.app.BoardProgram;
import io.spectrum.bridge.BridgeOptions;
import io.spectrum.bridge.CallbackAdapter;
import io.spectrum.bridge.BrokerAddress;
import io.spectrum.bridge.MqttBridge;
import io.spectrum.client.PeerClient;
import io.spectrum.host.runtime.HostService;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvWriter;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Board-to-MQTT-subscriber latency and sustained values per second through the bridge: an emulated
 * board (a NarrowNode on its loop, UDP loopback) with {@code vertices} vertices, each written at
 * {@code hz} (spread evenly, every millisecond a slice), the bridge as a client of it publishing JSON
 * at QoS 1 to a Mosquitto it starts on a free port, and a Paho subscriber to {@code spectrum/bench/#}.
 * Each value is the {@link System#nanoTime()} of its write (one process, one clock), so the subscriber
 * reads its one-way latency from the payload's {@code raw}. Prints p50 / p99 / max latency and the
 * values per second the subscriber received, after a warm-up.
 *
 * <p>{@code via=host} (any argument position) puts a host between them, as {@code spectrum host
 * --mqtt} runs: the board is mounted by a {@link HostService} (named {@code relay}, the board as
 * {@code /bench}) and the bridge is a client of the host's client listener, so each value goes
 * board -> host -> bridge -> Mosquitto -> subscriber (topics {@code spectrum/relay/bench/bench/v<i>}).
 * The host subscribes upstream once per board vertex, so the board's slots per peer and frame are
 * sized for {@code vertices} (its {@code :children[]} listing of /bench is ~12 bytes per child).
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.mqtt.MqttBridgeBench [vertices] [hz] [seconds] [mosquitto] [via=host]</pre>
 */
public final class MqttBridgeBench {
    private MqttBridgeBench() { }

    /**
     * Runs the bench and prints the latency percentiles and values per second; arguments {@code [vertices] [hz]
     * [seconds] [mosquitto]} (defaults 1000, 10, 20, /usr/sbin/mosquitto), and {@code via=host} anywhere.
     */
    public static void main(String[] argv) throws Exception {
        boolean viaHost = java.util.Arrays.asList(argv).contains("via=host");
        String[] args = java.util.Arrays.stream(argv).filter(a -> !a.startsWith("via=")).toArray(String[]::new);
        int vertices = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int hz = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        String mosquitto = args.length > 3 ? args[3] : "/usr/sbin/mosquitto";
        BenchMosquitto broker = BenchMosquitto.start(mosquitto);
        String url = broker.url();
        Paced program = new Paced(vertices, hz);
        NodeConfig.Builder cb = NodeConfig.builder().maxVertices(vertices + 64).peerDeliveriesPerSecond(0);
        if (viaHost) { // one upstream slot per vertex from the host, and room for the listing of /bench
            cb.maxSubscribers(2 * vertices + 64).slotsPerPeer(2 * vertices + 64).recordBytes(256 * vertices + 65536)
                    .frameBytes(Math.max(4096, 16 * vertices + 1024));
        }
        Board board = new Board("bench", cb.build(), program);
        UdpLink boardLink = (UdpLink) LinkSpec.listen(1, "udp://127.0.0.1:0", LinkSettings.clientDefaults(), SystemClock.INSTANCE);
        board.attach(boardLink);
        board.start();
        HostService host = null;
        io.spectrum.link.Link dial;
        if (viaHost) {
            UdpLink toBoard = (UdpLink) LinkSpec.dial(3, "udp://" + UdpLink.hostPort(boardLink.localAddress()), LinkSettings.clientDefaults(), SystemClock.INSTANCE);
            // the host's door for its in-process bridge, as spectrum host --mqtt opens it (HostBridge)
            io.spectrum.link.Link[] door = LinkSpec.inProcessPair(4, 2, LinkSettings.clientDefaults());
            host = new HostService("relay", java.util.List.of(new HostService.Board("bench", toBoard)), java.util.List.of(door[0]),
                    -1, false, new java.io.PrintWriter(java.io.OutputStream.nullOutputStream()));
            host.start();
            dial = door[1];
        } else {
            dial = (UdpLink) LinkSpec.dial(2, "udp://" + UdpLink.hostPort(boardLink.localAddress()), LinkSettings.clientDefaults(), SystemClock.INSTANCE);
        }
        String hostName = viaHost ? "relay" : "bench";
        MqttBridge bridge = MqttBridge.start(new PeerClient(dial, 0, Duration.ofSeconds(2)),
                BrokerAddress.parse(url, null, java.util.Map.of()), new BridgeOptions().host(hostName).queue(100_000),
                note -> { });
        Subscriber sub = new Subscriber(url, seconds * (long) vertices * hz + 1_000_000,
                viaHost ? "spectrum/relay/bench/bench/#" : "spectrum/bench/bench/#");
        long warm = System.nanoTime() + 120_000_000_000L; // warm-up: the walk of every vertex, JIT, then 5 s more
        while (bridge.stats().values() < 2L * vertices && System.nanoTime() < warm) {
            Thread.sleep(100);
        }
        Thread.sleep(5_000);
        sub.reset();
        long t0 = System.nanoTime();
        MqttBridge.Stats s0 = bridge.stats();
        long v0 = s0.values();
        long m0 = ProcCpu.nanos(broker.pid());
        java.util.Map<String, Long> cpu0 = cpu();
        Thread.sleep(seconds * 1000L);
        long t1 = System.nanoTime();
        MqttBridge.Stats s1 = bridge.stats();
        long v1 = s1.values();
        long m1 = ProcCpu.nanos(broker.pid());
        java.util.Map<String, Long> cpu1 = cpu();
        long n = sub.count();
        long[] lat = sub.latencies();
        long[] down = sub.downstream();
        Arrays.sort(down);
        MqttBridge.Stats st = bridge.stats();
        Arrays.sort(lat);
        double secs = (t1 - t0) / 1e9;
        System.out.printf("vertices %d at %d Hz (%d values/s offered), %d s measured, %s%n", vertices, hz, vertices * hz, seconds,
                viaHost ? "board -> host -> bridge -> Mosquitto -> subscriber" : "board -> bridge -> Mosquitto -> subscriber");
        System.out.printf("received by the MQTT subscriber: %d values, %.0f values/s%n", n, n / secs);
        if (lat.length > 0) {
            System.out.printf("board write -> MQTT subscriber latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms (n=%d)%n",
                    pct(lat, 0.50) / 1e6, pct(lat, 0.99) / 1e6, lat[lat.length - 1] / 1e6, lat.length);
            System.out.printf("  of which bridge rendering (payload ts, ms resolution) -> MQTT subscriber: p50 %.0f ms, p99 %.0f ms, "
                    + "max %d ms%n", pct(down, 0.50), pct(down, 0.99), down[down.length - 1]);
        }
        long perValue = Math.max(1, v1 - v0);
        System.out.printf("CPU per value (thread CPU time / values taken from the board): bridge peer side %.1f us, bridge "
                + "broker side %.1f us, the bridge's Paho threads %.1f us; the board's loop %.1f us; the bench subscriber's Paho "
                + "threads %.1f us; Mosquitto (whole process) %.1f us; the host's node thread %.1f us and its link I/O threads "
                + "%.1f us; load average %.1f on %d cores%n",
                (cpu1.get("peer") - cpu0.get("peer")) / 1e3 / perValue, (cpu1.get("broker") - cpu0.get("broker")) / 1e3 / perValue,
                (cpu1.get("paho") - cpu0.get("paho")) / 1e3 / perValue, (cpu1.get("board") - cpu0.get("board")) / 1e3 / perValue,
                (cpu1.get("sub") - cpu0.get("sub")) / 1e3 / perValue, (m1 - m0) / 1e3 / perValue,
                (cpu1.get("host") - cpu0.get("host")) / 1e3 / perValue, (cpu1.get("io") - cpu0.get("io")) / 1e3 / perValue,
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                Runtime.getRuntime().availableProcessors());
        System.out.printf("while measured, the bridge took %d values from the board, published %d, coalesced %d (an unsent value "
                + "replaced by a newer one of its topic), dropped %d; %d queued at the end; in-flight window %d (the broker's "
                + "Receive Maximum), waited for a PUBACK %d times%n",
                v1 - v0, s1.published() - s0.published(), s1.coalesced() - s0.coalesced(), s1.dropped() - s0.dropped(),
                st.queued(), st.window(), s1.windowWaits() - s0.windowWaits());
        sub.close();
        bridge.close();
        if (host != null) {
            host.close();
        }
        board.close();
        broker.close();
        System.exit(0);
    }

    /** Thread CPU time (ns) summed by role: the bridge's peer and broker threads, Paho's, the board's loop. */
    private static java.util.Map<String, Long> cpu() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        java.util.Map<String, Long> m = new java.util.HashMap<>(java.util.Map.of("peer", 0L, "broker", 0L, "paho", 0L, "sub", 0L,
                "board", 0L, "host", 0L, "io", 0L));
        for (java.lang.management.ThreadInfo t : mx.dumpAllThreads(false, false)) {
            String n = t.getThreadName();
            String role = n.startsWith("mqtt-peer") ? "peer" : n.startsWith("mqtt-broker") ? "broker"
                    : n.startsWith("MQTT") && n.contains("bench-sub") ? "sub" : n.startsWith("MQTT") ? "paho"
                    : n.startsWith("node host relay") ? "host" : n.startsWith("spectrum-io") ? "io"
                    : n.contains("bench") ? "board" : null;
            long c = mx.getThreadCpuTime(t.getThreadId());
            if (role != null && c > 0) {
                m.merge(role, c, Long::sum);
            }
        }
        return m;
    }

    private static double pct(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) (p * sorted.length))];
    }

    /** {@code n} vertices /bench/v&lt;i&gt;, each written at {@code hz} with the write's nanoTime, a slice every ms. */
    public static final class Paced implements BoardProgram {
        private final NodePath[] paths;
        private final long periodNanos;
        private final byte[] buf = new byte[32];
        private final TlvWriter w = new TlvWriter(2);
        private long start;
        private long written;

        /** {@code n} vertices, each written {@code hz} times a second. */
        public Paced(int n, int hz) {
            paths = new NodePath[n];
            for (int i = 0; i < n; i++) {
                paths[i] = NodePath.of("/bench/v" + i);
            }
            periodNanos = 1_000_000_000L / hz;
        }

        @Override
        public void install(NarrowNode node) {
            VertexSchema s = VertexSchema.value(8, true).readOnly().description("write time, ns").build();
            for (NodePath p : paths) {
                node.declare(p, s);
                write(node, p);
            }
        }

        @Override
        public long step(NarrowNode node, long now) {
            if (start == 0) {
                start = now;
            }
            long due = (now - start) * paths.length / periodNanos; // writes due so far
            while (written < due) {
                write(node, paths[(int) (written % paths.length)]);
                written++;
            }
            return now + 1_000_000L;
        }

        private void write(NarrowNode node, NodePath p) {
            w.wrap(buf, 0, buf.length).value(System.nanoTime(), 8);
            node.write(p, buf, 0, w.length());
        }
    }

    /** Counts values and records each one's latency from the payload's raw nanoTime. */
    static final class Subscriber extends CallbackAdapter {
        private final MqttAsyncClient client;
        private final long[] lat;
        private final long[] downstream;
        private final AtomicLong n = new AtomicLong();
        private volatile boolean recording;

        Subscriber(String url, long capacity, String filter) throws MqttException {
            lat = new long[(int) Math.min(capacity, 20_000_000L)];
            downstream = new long[lat.length];
            client = new MqttAsyncClient(url.replace("mqtt://", "tcp://"), "bench-sub", new MemoryPersistence());
            client.setCallback(this);
            client.connect().waitForCompletion(5_000);
            client.subscribe(filter, Integer.getInteger("bench.subQos", 1)).waitForCompletion(5_000);
        }

        void reset() {
            n.set(0);
            recording = true;
        }

        long count() {
            recording = false;
            return n.get();
        }

        long[] latencies() {
            return Arrays.copyOf(lat, (int) Math.min(n.get(), lat.length));
        }

        /** Per value: milliseconds from the bridge rendering it ({@code ts}, wall clock) to its arrival here. */
        long[] downstream() {
            return Arrays.copyOf(downstream, (int) Math.min(n.get(), downstream.length));
        }

        @Override
        public void messageArrived(String topic, MqttMessage message) throws Exception {
            long now = System.nanoTime();
            if (!recording || message.isRetained()) {
                return;
            }
            long wall = System.currentTimeMillis();
            // the two fields by a scan, not a JSON tree: the subscriber shares the cores it measures
            String json = new String(message.getPayload(), java.nio.charset.StandardCharsets.UTF_8);
            int r = json.indexOf("\"raw\":");
            int t = json.indexOf("\"ts\":\"");
            long i = n.getAndIncrement();
            if (r >= 0 && t >= 0 && i < lat.length) {
                int end = r + 6;
                while (end < json.length() && (Character.isDigit(json.charAt(end)) || json.charAt(end) == '-')) {
                    end++;
                }
                lat[(int) i] = now - Long.parseLong(json, r + 6, end, 10);
                downstream[(int) i] = wall - java.time.Instant.parse(json.substring(t + 6, json.indexOf('"', t + 6))).toEpochMilli();
            }
        }

        void close() throws MqttException {
            client.disconnect().waitForCompletion(2_000);
            client.close(true);
        }





    }
}
