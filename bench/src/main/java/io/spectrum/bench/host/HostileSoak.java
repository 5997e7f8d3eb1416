package io.spectrum.bench.host;

import io.spectrum.runtime.LinkSpec;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.bench.mqtt.BenchMosquitto;
import io.spectrum.bench.mqtt.MqttBridgeBench;
import io.spectrum.board.Board;
import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Requests;
import io.spectrum.client.Subscribed;
import io.spectrum.client.bus.BusClient;
import io.spectrum.host.Host;
import io.spectrum.host.HostConfig;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.stats.BoundedResource;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttMessage;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A bounded soak of one host under hostile clients, all on loopback and in this process: a host
 * assembled by {@link Host} from one {@link HostConfig} (two emulated boards mounted over UDP, the
 * client listener, the bus on a Unix socket, the MQTT bridge to a Mosquitto started here), two
 * boards ({@link MqttBridgeBench.Paced}: {@code vertices} vertices each at {@code hz}, each value the
 * {@code System.nanoTime()} of its write), 20 legitimate subscribers over UDP ({@link PeerClient},
 * stamped, one per socket, every board vertex) that count the gaps in each vertex's stamped sequence
 * numbers, one well-behaved bus client publishing at 50 Hz, and three hostile clients at bounded
 * rates: garbage datagrams (random bytes and bit-flipped real frames) at the client listener;
 * appends meant to be refused (targetless SUBSCRIBER records, over-limit delivery modes; appends to
 * long new paths under a mount, which the host takes, creating the path, until the peer's slot share
 * is used up, and refuses after) and forged clears (an empty STATUS at {@code :subscribers[N]} slots
 * it does not hold); long payloads (oversized writes to board vertices, to the root and past the
 * frame, and a 1 MiB MQTT {@code …/set}).
 *
 * <p>Phases: warm-up, a clean phase, a hostile phase of the same length (the hostile clients connect
 * at its start and go silent at its end), then a settle longer than the host's peer timeout, so
 * whatever the hostile clients held is reaped. Reports values lost (sequence gaps, plus values one subscriber got and
 * another did not by the end), every table's inUse (the host node's {@link BoundedResource}s, each
 * board node's, the bus's counts) before the clean phase and after the settle, heap used after a GC
 * at both points, and board-write-to-subscriber latency p50/p99/max per phase. Exits 1 when a value
 * was lost or a table's inUse grew.
 *
 * <p>{@code share=fill} (the default): the appender first fills its slot share with suspended slots
 * on the board vertices, so its appends to long new paths are refused; {@code share=open} leaves the
 * share open, so the host takes those appends and creates their paths.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.host.HostileSoak [minutes=5] [seconds=N]
 *     [vertices=3] [hz=50] [subscribers=20] [mosquitto=/usr/sbin/mosquitto] [share=fill|open]</pre>
 */
public final class HostileSoak {
    static final String HOST = "soak";
    static final String[] BOARDS = {"board1", "board2"};
    /** The host's liveness timeout for its boards and clients (pinged after a sixth of it). */
    static final long PEER_TIMEOUT_MILLIS = 3000;

    private HostileSoak() {
    }

    /** What a run measured. */
    public record Result(long lost, long outOfOrder, long received, long stale, Map<String, Long> before,
            Map<String, Long> afterClean, Map<String, Long> after, long heapBefore, long heapAfter, long[] clean, long[] hostile,
            Map<String, Long> attacks, long busPublished, long busErrors, String mqtt, long phaseMillis) {
        /** The tables whose inUse is higher after than before. */
        public List<String> grown() {
            List<String> g = new ArrayList<>();
            after.forEach((k, v) -> {
                Long b = before.get(k);
                if (b == null || v > b) {
                    g.add(k + " " + (b == null ? "-" : b) + " -> " + v);
                }
            });
            return g;
        }

        /** True when nothing was lost or reordered, no table grew and the bus client saw no error: the soak passed. */
        public boolean ok() {
            return lost == 0 && outOfOrder == 0 && grown().isEmpty() && busErrors == 0;
        }
    }

    /**
     * Runs the soak, prints the figures and exits 0 when it passed, 1 otherwise; arguments {@code key=value}: {@code
     * minutes} (5) or {@code seconds}, {@code vertices} (3), {@code hz} (50), {@code subscribers} (20), {@code
     * mosquitto} (its binary), {@code share} (fill or open).
     */
    public static void main(String[] args) throws Exception {
        double minutes = Double.parseDouble(HostVsMosquitto.arg(args, "minutes", "5"));
        String secs = HostVsMosquitto.arg(args, "seconds", null);
        long totalMillis = secs != null ? (long) (Double.parseDouble(secs) * 1000) : (long) (minutes * 60_000);
        Result r = run(totalMillis, HostVsMosquitto.intArg(args, "vertices", 3), HostVsMosquitto.intArg(args, "hz", 50),
                HostVsMosquitto.intArg(args, "subscribers", 20), HostVsMosquitto.arg(args, "mosquitto", "/usr/sbin/mosquitto"),
                !"open".equals(HostVsMosquitto.arg(args, "share", "fill")), System.out);
        print(r, System.out);
        System.exit(r.ok() ? 0 : 1);
    }

    /**
     * Runs the soak for {@code totalMillis}: warm-up 10 %, clean 40 %, hostile 40 % (the hostile clients
     * connect at its start and leave at its end), settle 10 % but at least the host's peer timeout + 2 s.
     * The tables are read after the warm-up (no hostile client yet) and after the settle (they are gone).
     */
    public static Result run(long totalMillis, int vertices, int hz, int subscriberCount, String mosquittoPath, boolean fillShare,
            PrintStream log) throws Exception {
        long warm = Math.max(1000, totalMillis / 10);
        long phase = Math.max(1000, totalMillis * 4 / 10);
        // the settle outlasts the host's peer timeout, so what the hostile clients held is reaped
        long settle = Math.max(PEER_TIMEOUT_MILLIS + 2000, totalMillis / 10);
        List<AutoCloseable> closing = new ArrayList<>();
        Path dir = Files.createTempDirectory("hostile-soak");
        try {
            // the broker, when there is one
            BenchMosquitto broker = null;
            String mqtt;
            Path mosquitto = mosquittoPath.contains("/") ? Path.of(mosquittoPath) : Ports.onPath(mosquittoPath);
            if (mosquitto != null && Files.isExecutable(mosquitto)) {
                broker = BenchMosquitto.start(mosquitto.toString());
                closing.add(broker);
                mqtt = broker.url();
            } else {
                mqtt = null;
                log.println("HostileSoak: no MQTT part: " + mosquittoPath + " is not installed (apt-get install mosquitto)");
            }
            // the boards, each a NarrowNode on its loop behind a UDP listener
            List<Board> boards = new ArrayList<>();
            // the client listener's default table (16, 8 per address) cannot hold 20 subscribers from this machine
        HostConfig.Builder cfg = HostConfig.builder().name(HOST).dashboard(HostConfig.NO_DASHBOARD)
                .clientPeers(2 * (subscriberCount + 8)).pingMillis(PEER_TIMEOUT_MILLIS / 6).timeoutMillis(PEER_TIMEOUT_MILLIS);
            for (String name : BOARDS) {
                Board b = new Board(name, NodeConfig.builder().peerDeliveriesPerSecond(0).build(),
                        new MqttBridgeBench.Paced(vertices, hz));
                UdpLink l = (UdpLink) LinkSpec.listen(1, "udp://127.0.0.1:0", LinkSettings.clientDefaults(), SystemClock.INSTANCE);
                b.attach(l);
                b.start();
                closing.add(b);
                boards.add(b);
                cfg.mount(HostConfig.Mount.udp(name, "127.0.0.1:" + l.localAddress().getPort(), List.of()));
            }
            int port = Ports.freeUdp();
            Path bus = dir.resolve("bus.sock");
            cfg.udp("127.0.0.1:" + port).bus(bus.toString());
            if (mqtt != null) {
                cfg.mqtt(mqtt);
            }
            Path hostLog = dir.resolve("host.log");
            PrintWriter hostOut = new PrintWriter(Files.newBufferedWriter(hostLog), true);
            Host host = Host.start(cfg.build(), hostOut, hostOut, false);
            closing.add(() -> {
                host.close();
                hostOut.close();
            });
            InetSocketAddress hostAt = new InetSocketAddress("127.0.0.1", port);
            List<String> paths = new ArrayList<>();
            for (String b : BOARDS) {
                for (int v = 0; v < vertices; v++) {
                    paths.add("/" + b + "/bench/v" + v);
                }
            }

            // the legitimate subscribers
            Followers followers = new Followers(subscriberCount, paths, hostAt, phase, hz);
            closing.add(followers);
            // the well-behaved bus client
            BusPublisher busClient = new BusPublisher(UnixDomainSocketAddress.of(bus));
            closing.add(busClient);

            log.printf(Locale.ROOT, "HostileSoak: host %s with %d boards x %d vertices at %d Hz, %d subscribers, bus, %s; "
                    + "warm-up %d s, clean %d s, hostile %d s, settle %d s%n", HOST, BOARDS.length, vertices, hz, subscriberCount,
                    mqtt != null ? "MQTT bridge to " + mqtt : "no MQTT", warm / 1000, phase / 1000, phase / 1000, settle / 1000);
            if (!followers.awaitPrimed(Duration.ofSeconds(30))) {
                throw new IllegalStateException("the subscribers did not get a first value of every vertex within 30 s: "
                        + followers.primed.get() + " of " + subscriberCount * paths.size());
            }
            Thread.sleep(warm);
            Map<String, Long> before = settled(host, boards, busClient, 10_000);
            long heapBefore = heapAfterGc();
            followers.measure(Followers.CLEAN);
            followers.resetCounts();
            Thread.sleep(phase);
            Map<String, Long> mid = tables(host, boards, busClient);
            log.println("HostileSoak: clean phase done, hostile clients start");
            followers.measure(Followers.HOSTILE);
            Hostile hostile = new Hostile(hostAt, paths, mqtt, fillShare, subscriberCount);
            closing.add(hostile);
            hostile.start();
            Thread.sleep(phase);
            hostile.close();
            followers.measure(Followers.NONE);
            log.println("HostileSoak: hostile phase done, hostile clients gone, settling");
            Thread.sleep(settle);
            Map<String, Long> after = settled(host, boards, busClient, 10_000);
            long heapAfter = heapAfterGc();
            // the tail: the boards stop, what is in flight arrives, and every subscriber must end at the same seq
            busClient.close();
            for (Board b : boards) {
                b.close();
            }
            Thread.sleep(1000);
            followers.close();
            log.println("HostileSoak: gaps by phase (other, clean, hostile) " + Arrays.toString(followers.gapsByPhase)
                    + ", by subscriber " + Arrays.toString(followers.gapsBySubscriber));
            return new Result(followers.lost(), followers.outOfOrder.get(), followers.received.get(), followers.stale.get(), before,
                    mid, after, heapBefore, heapAfter, followers.latencies(Followers.CLEAN), followers.latencies(Followers.HOSTILE),
                    hostile.counts(), busClient.published.get(), busClient.errors.get(), mqtt, phase);
        } finally {
            for (int i = closing.size() - 1; i >= 0; i--) {
                try {
                    closing.get(i).close();
                } catch (Exception e) {
                    log.println("HostileSoak: closing: " + e);
                }
            }
            deleteTree(dir);
        }
    }

    /** The summary block. */
    static void print(Result r, PrintStream out) {
        out.println();
        out.println("==== HostileSoak summary ====");
        out.printf(Locale.ROOT, "phases: clean %d s, hostile %d s; MQTT: %s%n", r.phaseMillis() / 1000, r.phaseMillis() / 1000,
                r.mqtt() == null ? "skipped (no mosquitto)" : r.mqtt());
        out.printf(Locale.ROOT, "values received by the subscribers (clean + hostile + settle): %,d; LOST: %d; out of order: %d; "
                + "stale-marked deliveries: %d%n", r.received(), r.lost(), r.outOfOrder(), r.stale());
        out.printf(Locale.ROOT, "bus client: %,d publishes, %d errors%n", r.busPublished(), r.busErrors());
        out.println("hostile requests sent: " + r.attacks());
        out.printf(Locale.ROOT, "latency board write -> subscriber (ms)   %8s %8s %8s %10s%n", "p50", "p99", "max", "n");
        latencyRow(out, "clean phase", r.clean());
        latencyRow(out, "hostile phase", r.hostile());
        out.printf(Locale.ROOT, "heap used after GC: before %.1f MiB, after %.1f MiB (%+.1f MiB)%n", r.heapBefore() / 1048576.0,
                r.heapAfter() / 1048576.0, (r.heapAfter() - r.heapBefore()) / 1048576.0);
        out.printf(Locale.ROOT, "%-40s %10s %12s %10s%n", "table (inUse)", "before", "after clean", "after");
        r.after().forEach((k, v) -> out.printf(Locale.ROOT, "%-40s %10s %12s %10d%s%n", k, r.before().getOrDefault(k, -1L),
                r.afterClean().getOrDefault(k, -1L), v, r.before().getOrDefault(k, -1L) < v ? "  GREW" : ""));
        List<String> grown = r.grown();
        out.println(r.ok() ? "RESULT: ok (no value lost, no table grew)"
                : "RESULT: FAILED (" + (r.lost() + r.outOfOrder() > 0 ? "values lost or out of order; " : "")
                + (grown.isEmpty() ? "" : "grew: " + grown + "; ") + (r.busErrors() > 0 ? "bus errors" : "") + ")");
    }

    private static void latencyRow(PrintStream out, String name, long[] sorted) {
        if (sorted.length == 0) {
            out.printf(Locale.ROOT, "  %-38s %8s%n", name, "no values");
            return;
        }
        out.printf(Locale.ROOT, "  %-38s %8.2f %8.2f %8.2f %,10d%n", name, pct(sorted, 0.50) / 1e6, pct(sorted, 0.99) / 1e6,
                sorted[sorted.length - 1] / 1e6, sorted.length);
    }

    static long pct(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) (p * sorted.length))];
    }

    // ------------------------------------------------------------------ tables and heap

    /**
     * Every table's inUse once it stood still for three readings 200 ms apart with no request in flight
     * (at most {@code maxMillis}). A request in flight is no table entry: the host's own probes of a new
     * peer (its caps, its slots) come and go on their own period, and one caught in flight at the first
     * reading and answered by the last would read as a difference. A request that never ends still
     * shows: it holds its count past {@code maxMillis}.
     */
    static Map<String, Long> settled(Host host, List<Board> boards, BusPublisher bus, long maxMillis) throws Exception {
        Map<String, Long> last = tables(host, boards, bus);
        int same = 0;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
        while ((same < 3 || inFlight(last) > 0) && System.nanoTime() < end) {
            Thread.sleep(200);
            Map<String, Long> now = tables(host, boards, bus);
            same = now.equals(last) ? same + 1 : 0;
            last = now;
        }
        return last;
    }

    /** Requests in flight in a reading: every node's remote requests and awaits. */
    static long inFlight(Map<String, Long> tables) {
        long n = 0;
        for (Map.Entry<String, Long> e : tables.entrySet()) {
            if (e.getKey().endsWith(".node.remoteRequests") || e.getKey().endsWith(".node.awaits")) {
                n += e.getValue();
            }
        }
        return n;
    }

    /** host.NAME: the host node's tables; boardN.NAME: each board node's; bus.NAME: the bus's counts. */
    static Map<String, Long> tables(Host host, List<Board> boards, BusPublisher bus) throws Exception {
        Map<String, Long> m = new LinkedHashMap<>();
        host.runtime().onNodeThread(() -> {
            for (BoundedResource r : host.runtime().node().resources()) {
                m.put("host." + r.resourceName(), (long) r.inUse());
            }
            return null;
        });
        for (Board b : boards) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            b.loop().submit(() -> {
                for (BoundedResource r : b.loop().node().resources()) {
                    m.put(b.name() + "." + r.resourceName(), (long) r.inUse());
                }
                done.complete(null);
            });
            done.get(5, TimeUnit.SECONDS);
        }
        BusFields s = bus.stats();
        for (String k : List.of("connections", "topics", "subscriptions", "services", "activeCalls", "queued", "roots", "owners")) {
            long v = s.u64(k, -1);
            if (v >= 0) {
                m.put("bus." + k, v);
            }
        }
        return m;
    }

    static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void deleteTree(Path dir) {
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp directory left behind
        }
    }

    // ------------------------------------------------------------------ the legitimate subscribers

    /**
     * N PeerClients, each its own UDP socket, each subscribed (stamped) to every board vertex under
     * its own route; one thread woken by a selector pumps them. Per (subscriber, vertex) the last
     * stamped seq: a jump is values lost, a step back is out of order. Latency from the value (the
     * board's write nanoTime) to the delivery's callback, into the current phase's array.
     */
    static final class Followers implements AutoCloseable {
        static final int NONE = -1;
        static final int CLEAN = 0;
        static final int HOSTILE = 1;
        private final List<PeerClient> clients = new ArrayList<>();
        private final java.nio.channels.Selector selector;
        private final long[][] lastSeq;
        final long[] gapsBySubscriber;
        /** Gaps seen outside a measured phase (warm-up, settle), in the clean phase, in the hostile phase. */
        final long[] gapsByPhase = new long[3];
        private final long[][] lat = new long[2][];
        private final int[] latN = new int[2];
        private volatile int phase = NONE;
        private volatile boolean running = true;
        private final Thread receiver;
        final AtomicInteger primed = new AtomicInteger();
        final AtomicLong gaps = new AtomicLong();
        final AtomicLong outOfOrder = new AtomicLong();
        final AtomicLong received = new AtomicLong();
        final AtomicLong stale = new AtomicLong();
        private final int vertexCount;

        Followers(int n, List<String> paths, InetSocketAddress at, long phaseMillis, int hz) throws IOException {
            vertexCount = paths.size();
            lastSeq = new long[n][paths.size()];
            gapsBySubscriber = new long[n];
            int cap = (int) Math.min(50_000_000L, (long) n * paths.size() * hz * (phaseMillis / 1000 + 2) * 3 / 2 + 10_000);
            lat[0] = new long[cap];
            lat[1] = new long[cap];
            selector = java.nio.channels.Selector.open();
            for (int i = 0; i < n; i++) {
                UdpLink link = (UdpLink) LinkSpec.dial(100 + i, "udp://" + UdpLink.hostPort(at), LinkSettings.clientDefaults(), SystemClock.INSTANCE);
                PeerClient c = new PeerClient(link, 0, Duration.ofSeconds(5));
                final int who = i;
                c.onDelivery(d -> onDelivery(who, d));
                for (int v = 0; v < paths.size(); v++) {
                    Subscribed s = c.subscribe(paths.get(v), "/soak/" + v, 0, true);
                    if (!s.ok()) {
                        throw new IllegalStateException("subscriber " + i + " on " + paths.get(v) + " refused: "
                                + WireError.identity(s.code()));
                    }
                }
                link.setReadiness(new SpectrumSide.Watch(selector, c));
                clients.add(c);
            }
            receiver = new Thread(this::receive, "soak-subscribers");
            receiver.setDaemon(true);
            receiver.start();
        }

        private void receive() {
            try {
                while (running) {
                    selector.select(k -> ((PeerClient) k.attachment()).pumpOnce(), 100);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void onDelivery(int who, Delivery d) {
            long now = System.nanoTime();
            String route = d.route();
            if (route == null || !route.startsWith("/soak/") || !d.stamped()) {
                return;
            }
            int v = Integer.parseInt(route, "/soak/".length(), route.length(), 10);
            long last = lastSeq[who][v];
            long seq = d.seq();
            if (d.stale()) {
                stale.incrementAndGet();
            }
            if (last == 0) {
                primed.incrementAndGet();
            } else if (seq > last + 1) {
                gaps.addAndGet(seq - last - 1);
                gapsBySubscriber[who] += seq - last - 1;
                gapsByPhase[phase + 1] += seq - last - 1;
            } else if (seq < last) {
                outOfOrder.incrementAndGet();
            } else if (seq == last) {
                return; // the same value again (a stale mark)
            }
            lastSeq[who][v] = Math.max(last, seq);
            received.incrementAndGet();
            int p = phase;
            byte[] value = d.value();
            if (p >= 0 && value != null && value.length >= 8 && latN[p] < lat[p].length) {
                long written = 0;
                for (int i = 7; i >= 0; i--) { // the VALUE's 8 bytes, little-endian, at its end
                    written = (written << 8) | (value[value.length - 8 + i] & 0xFF);
                }
                lat[p][latN[p]++] = now - written;
            }
        }

        boolean awaitPrimed(Duration max) throws InterruptedException {
            long end = System.nanoTime() + max.toNanos();
            while (primed.get() < clients.size() * vertexCount && System.nanoTime() < end) {
                Thread.sleep(50);
            }
            return primed.get() >= clients.size() * vertexCount;
        }

        void measure(int p) {
            phase = p;
        }

        void resetCounts() {
            received.set(0);
        }

        /** Gaps, plus, per vertex, how far each subscriber's last seq is behind the highest any got. */
        long lost() {
            long tail = 0;
            for (int v = 0; v < vertexCount; v++) {
                long max = 0;
                for (long[] s : lastSeq) {
                    max = Math.max(max, s[v]);
                }
                for (long[] s : lastSeq) {
                    tail += max - s[v];
                }
            }
            return gaps.get() + tail;
        }

        long[] latencies(int p) {
            long[] a = Arrays.copyOf(lat[p], latN[p]);
            Arrays.sort(a);
            return a;
        }

        @Override
        public void close() throws Exception {
            if (!running) {
                return;
            }
            running = false;
            selector.wakeup();
            receiver.join(2000);
            for (PeerClient c : clients) {
                c.close();
            }
            selector.close();
        }
    }

    // ------------------------------------------------------------------ the bus client

    /** One bus connection publishing to {@code soak.tick} at 50 Hz, counting publishes and errors. */
    static final class BusPublisher implements AutoCloseable {
        private final BusClient client;
        private final Thread thread;
        private volatile boolean running = true;
        final AtomicLong published = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final AtomicReference<String> firstError = new AtomicReference<>();

        BusPublisher(UnixDomainSocketAddress at) throws BusException {
            client = BusClient.connect(at, "soak-publisher", 5000);
            client.declare("soak.tick", Retention.LATEST);
            thread = new Thread(this::publish, "soak-bus-publisher");
            thread.setDaemon(true);
            thread.start();
        }

        private void publish() {
            byte[] payload = new byte[64];
            for (long i = 0; running; i++) {
                try {
                    java.nio.ByteBuffer.wrap(payload).putLong(0, i);
                    client.publish("soak.tick", payload);
                    published.incrementAndGet();
                } catch (BusException e) {
                    if (running) {
                        errors.incrementAndGet();
                        firstError.compareAndSet(null, e.getMessage());
                    }
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        BusFields stats() throws BusException {
            return client.stats();
        }

        @Override
        public void close() throws InterruptedException {
            if (!running) {
                return;
            }
            running = false;
            thread.join(2000);
            client.close();
        }
    }

    // ------------------------------------------------------------------ the hostile clients

    /**
     * The three hostile clients, each on its own thread and socket, sending only while started (and
     * answering the host's liveness pings until closed). Rates: garbage every 5 ms, one round of refused appends and forged clears every 20 ms, one round
     * of long payloads every 50 ms, a 1 MiB MQTT set every 2 s.
     */
    static final class Hostile implements AutoCloseable {
        private final InetSocketAddress at;
        private final List<String> paths;
        private final PeerClient appender;
        private final PeerClient writer;
        private final DatagramSocket garbage;
        private final MqttAsyncClient mqtt;
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean attacking;
        private volatile boolean running = true;
        private final Map<String, AtomicLong> counts = new LinkedHashMap<>();
        private final byte[] validFrame;
        private final int legitimateSlots;

        Hostile(InetSocketAddress at, List<String> paths, String mqttUrl, boolean fillShare, int legitimateSlots)
                throws Exception {
            this.legitimateSlots = legitimateSlots;
            this.at = at;
            this.paths = paths;
            for (String k : List.of("garbage", "longPathAppends", "targetlessAppends", "overLimitModes", "forgedClears",
                    "oversizedWrites", "mqttHugeSets")) {
                counts.put(k, new AtomicLong());
            }
            appender = new PeerClient(LinkSpec.dial(1, "udp://" + UdpLink.hostPort(at), LinkSettings.clientDefaults(), SystemClock.INSTANCE), 0, Duration.ofMillis(300));
            writer = new PeerClient(LinkSpec.dial(1, "udp://" + UdpLink.hostPort(at), LinkSettings.clientDefaults(), SystemClock.INSTANCE), 0, Duration.ofMillis(300));
            garbage = new DatagramSocket();
            counts.put("shareSlots", new AtomicLong());
            if (fillShare) { // suspended slots (no deliveries) until the host refuses the next: the share is used up
                for (int i = 0; i < 8192; i++) {
                    Subscribed s = appender.subscribe(paths.get(i % paths.size()), "/in/q" + i, DeliveryPolicy.SUSPENDED, false);
                    if (!s.ok()) {
                        break;
                    }
                    counts.get("shareSlots").incrementAndGet();
                }
            }
            // a targetless append: whatever the flipped bits hit, the host has nothing to take from it
            validFrame = Requests.fwd(FwdView.OP_WRITE, Requests.path(paths.get(0)), Requests.subscribers(), Requests.path("/g"),
                    targetlessSubscriber());
            if (mqttUrl != null) {
                mqtt = new MqttAsyncClient(mqttUrl.replace("mqtt://", "tcp://"), "soak-hostile", new MemoryPersistence());
                mqtt.connect().waitForCompletion(5000);
            } else {
                mqtt = null;
            }
            threads.add(loop("soak-hostile-garbage", 5, this::garbage));
            threads.add(loop("soak-hostile-appends", 20, this::appends));
            threads.add(loop("soak-hostile-payloads", 50, this::payloads));
        }

        private Thread loop(String name, long everyMillis, Step step) {
            Thread t = new Thread(() -> {
                Random rnd = new Random(name.hashCode());
                for (int round = 1; running; round++) {
                    try {
                        if (attacking) {
                            step.run(rnd, round);
                        }
                        pump();
                        Thread.sleep(everyMillis);
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        counts.computeIfAbsent("errors:" + e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
                    }
                }
            }, name);
            t.setDaemon(true);
            t.start();
            return t;
        }

        /** Reads the answers and the host's liveness pings (answering those keeps the peers up). */
        private synchronized void pump() {
            appender.pumpOnce();
            writer.pumpOnce();
        }

        private interface Step {
            void run(Random rnd, int round) throws Exception;
        }

        void start() {
            attacking = true;
        }

        void stop() {
            attacking = false;
        }

        Map<String, Long> counts() {
            Map<String, Long> m = new LinkedHashMap<>();
            counts.forEach((k, v) -> m.put(k, v.get()));
            return m;
        }

        /** Random bytes, and a real append frame with a few bits flipped. */
        private void garbage(Random rnd, int round) throws IOException {
            byte[] junk;
            if ((round & 1) == 0) {
                junk = new byte[1 + rnd.nextInt(1400)];
                rnd.nextBytes(junk);
            } else {
                junk = validFrame.clone();
                for (int i = 0; i < 3; i++) {
                    junk[rnd.nextInt(junk.length)] ^= (byte) (1 << rnd.nextInt(8));
                }
            }
            garbage.send(new DatagramPacket(junk, junk.length, at));
            counts.get("garbage").incrementAndGet();
        }

        /** Refused appends and forged clears; none waits for its answer. */
        private synchronized void appends(Random rnd, int round) {
            String board = BOARDS[round % BOARDS.length];
            StringBuilder longPath = new StringBuilder("/" + board + "/n" + round);
            for (int i = 0; i < 6; i++) {
                longPath.append("/seg").append(i).append("-xxxxxxxxxxxx");
            }
            appender.send(Requests.fwd(FwdView.OP_WRITE, Requests.path(longPath.toString()), Requests.subscribers(),
                    Requests.path("/r/a"), Requests.subscriber("/in/z", 0, false)));
            counts.get("longPathAppends").incrementAndGet();
            String vertex = paths.get(rnd.nextInt(paths.size()));
            appender.send(Requests.fwd(FwdView.OP_WRITE, Requests.path(vertex), Requests.subscribers(), Requests.path("/r/b"),
                    targetlessSubscriber()));
            counts.get("targetlessAppends").incrementAndGet();
            appender.send(Requests.fwd(FwdView.OP_WRITE, Requests.path(vertex), Requests.subscribers(), Requests.path("/r/c"),
                    (round & 1) == 0
                            ? Requests.subscriber("/in/m", 0, Names.TOPIC_STAMP, DeliveryMode.BOUNDED,
                                    DeliveryMode.BOUNDED_MAX_QUEUED + 1 + rnd.nextInt(100), DeliveryMode.BOUNDED_MAX_IN_FLIGHT)
                            : Requests.subscriber("/in/m", 0, Names.TOPIC_STAMP, DeliveryMode.LATEST,
                                    DeliveryMode.LATEST_MAX_QUEUED, DeliveryMode.LATEST_MAX_IN_FLIGHT + 1 + rnd.nextInt(100))));
            counts.get("overLimitModes").incrementAndGet();
            // a clear of a slot it does not hold (the legitimate subscribers appended the first ones), any generation
            appender.send(Requests.fwd(FwdView.OP_WRITE, Requests.path(vertex),
                    Requests.subscribersAt(rnd.nextInt(legitimateSlots), rnd.nextInt(4)), Requests.path("/r/d"), Requests.emptyStatus()));
            counts.get("forgedClears").incrementAndGet();
        }

        /** Oversized writes to a board vertex, to the root, past the frame; a 1 MiB MQTT set every 2 s. */
        private synchronized void payloads(Random rnd, int round) throws Exception {
            String vertex = paths.get(rnd.nextInt(paths.size()));
            byte[] big = valueOf(8_000 + rnd.nextInt(4_000));
            writer.send(Requests.fwd(FwdView.OP_WRITE, Requests.path(vertex), null, Requests.path("/r/e"), big));
            writer.send(Requests.fwd(FwdView.OP_WRITE, Requests.path("/"), null, Requests.path("/r/f"), big));
            byte[] past = valueOf(20_000 + rnd.nextInt(30_000));
            writer.send(Requests.fwd(FwdView.OP_WRITE, Requests.path(vertex), null, Requests.path("/r/g"), past));
            counts.get("oversizedWrites").addAndGet(3);
            if (mqtt != null && round % 40 == 0) {
                byte[] huge = new byte[1 << 20];
                Arrays.fill(huge, (byte) '7');
                mqtt.publish("spectrum/" + HOST + vertex + "/set", new MqttMessage(huge, 0, false, null));
                counts.get("mqttHugeSets").incrementAndGet();
            }
        }

        @Override
        public void close() throws Exception {
            if (!running) {
                return;
            }
            running = false;
            attacking = false;
            for (Thread t : threads) {
                t.join(2000);
            }
            appender.close();
            writer.close();
            garbage.close();
            if (mqtt != null) {
                try {
                    mqtt.disconnect().waitForCompletion(2000);
                } finally {
                    mqtt.close(true);
                }
            }
        }
    }

    /** A SUBSCRIBER without a target: a malformed record. */
    static byte[] targetlessSubscriber() {
        byte[] b = new byte[32];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.SUBSCRIBER).value(1, 4).end();
        return Arrays.copyOf(b, w.length());
    }

    /** A VALUE TLV of n bytes. */
    static byte[] valueOf(int n) {
        byte[] b = new byte[n + 16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.leaf(TlvType.VALUE, new byte[n]);
        return Arrays.copyOf(b, w.length());
    }
}
