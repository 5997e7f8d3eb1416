package io.spectrum.bench.bus;

import io.spectrum.bench.host.HostVsMosquitto;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;
import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.Requests;
import io.spectrum.client.Subscribed;
import io.spectrum.client.bus.BusClient;
import io.spectrum.client.bus.BusSubscription;
import io.spectrum.client.bus.Message;
import io.spectrum.host.Host;
import io.spectrum.host.HostConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.BusError;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.SleepingIdleStrategy;

/**
 * One publisher to N bounded subscribers, two ways, in one JVM against one host started in-process
 * ({@link Host#start}) with {@code --bus} on a temporary Unix socket. Each subscriber is its own
 * {@link BusClient} over the socket and consumes every delivery as it arrives (its credit goes back
 * at once, one request per delivery).
 *
 * <ul>
 *   <li>{@code topic}: the bus's own topics. The publisher declares a topic and publishes; the
 *       subscribers subscribe {@code bounded} and {@link Message#consume()} each message.</li>
 *   <li>{@code node}: the host's node through the bus ({@link BusClient#node()}, docs/bus.md "The host's
 *       node through the bus"). The publisher's node client writes the host vertex {@link #VERTEX}
 *       (created by its first write, docs/node.md "Vertices a write created"); the subscribers' node
 *       clients subscribe to it in the bounded mode and send {@code consumed} for each delivery.</li>
 *   <li>{@code node_poll}: as {@code node}, every node client idling as a {@link PeerClient} did before
 *       {@link BusClient#node()} parked until its connection had a frame for it: a fixed 100 µs park per
 *       empty round (the default {@link PeerClient} wait). Off unless named in {@code via}.</li>
 * </ul>
 *
 * <p>Both carry the same 8-byte payload (the value's index; on the node a VALUE of 8 bytes). The
 * publisher publishes {@code values} values as fast as the whole-publish backpressure lets it: a
 * bounded subscriber with no room refuses the publish (BACKPRESSURE on the bus,
 * {@code tr::flow::backpressure} on the node); it pauses {@code pauseMicros} and retries, counting the
 * refusals. Each subscriber checks it got every value in order (payload index and the bus's
 * {@code topicSequence} / the node's stamp {@code seq}, each one more than the last); {@code lost} is
 * the values a subscriber did not get in order, summed. The ways run interleaved, fresh clients for
 * each run.
 *
 * <p>Figures: delivered messages per second (every subscriber's deliveries over the wall time from the
 * first publish to the last subscriber's last value) and the JVM's CPU time per delivered message
 * ({@code OperatingSystemMXBean.getProcessCpuTime} over the same window). The CPU figure covers the
 * whole JVM: the host (its node, the bus, the door) and the publisher and every subscriber client
 * with their I/O threads, since all run in this process.
 *
 * <p>Each way needs the publisher's and every subscriber's bus connection: the host's bus takes twice
 * that many ({@link HostConfig.Builder#busMaxClients}, at least the bus's default 64), so a run may
 * start while the bus still closes the previous run's connections.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.bus.DoorFanoutBench [subscribers=100] [values=20000] [rounds=5] [maxQueued=8] [maxInFlight=4] [pauseMicros=100] [via=topic,node]</pre>
 */
public final class DoorFanoutBench {
    /** The host vertex the node way publishes. */
    static final String VERTEX = "/bench/x";
    private static final String TOPIC = "bench.fanout";
    private static final long TIMEOUT_MS = 30_000;
    /** A subscriber that sees no new value for this long gives up (its missing values count as lost). */
    private static final long STALL_NANOS = 30_000_000_000L;

    private DoorFanoutBench() {
    }

    /** The two ways of the fan-out. */
    enum Via { TOPIC, NODE, NODE_POLL }

    /**
     * The settings of a run.
     *
     * @param subscribers  bus connections that subscribe
     * @param values       values published per run
     * @param maxQueued    each subscription's queue bound
     * @param maxInFlight  each subscription's in-flight bound
     * @param pauseNanos   the publisher's pause after a refused publish
     */
    record Settings(int subscribers, int values, int maxQueued, int maxInFlight, long pauseNanos) {
    }

    /**
     * One run's outcome.
     *
     * @param via         the way
     * @param delivered   deliveries taken by all subscribers (in order, counted once)
     * @param wallNanos   from the first publish to the last subscriber's last value
     * @param cpuNanos    the JVM's CPU time over that window (-1: not available)
     * @param refusals    publishes refused for backpressure (then retried)
     * @param lost        values some subscriber did not get in order, summed over subscribers
     * @param disorder    deliveries whose index or sequence was not the next expected
     */
    record Result(Via via, long delivered, long wallNanos, long cpuNanos, long refusals, long lost, long disorder) {
        double perSecond() {
            return delivered / (wallNanos / 1e9);
        }

        double cpuMicrosPerMessage() {
            return cpuNanos < 0 || delivered == 0 ? Double.NaN : cpuNanos / 1e3 / delivered;
        }
    }

    /**
     * Runs the rounds; arguments {@code key=value}: {@code subscribers}, {@code values}, {@code rounds},
     * {@code maxQueued}, {@code maxInFlight}, {@code pauseMicros}, {@code via} (topic,node by default, node_poll too when named: the order within a round).
     */
    public static void main(String[] args) throws Exception {
        Settings s = new Settings(HostVsMosquitto.intArg(args, "subscribers", 100), HostVsMosquitto.intArg(args, "values", 20_000),
                HostVsMosquitto.intArg(args, "maxQueued", 8), HostVsMosquitto.intArg(args, "maxInFlight", 4),
                HostVsMosquitto.intArg(args, "pauseMicros", 100) * 1_000L);
        int rounds = HostVsMosquitto.intArg(args, "rounds", 5);
        List<Via> vias = Arrays.stream(HostVsMosquitto.arg(args, "via", "topic,node").split(","))
                .map(v -> Via.valueOf(v.trim().toUpperCase(Locale.ROOT))).toList();
        System.out.printf(Locale.ROOT, "DoorFanoutBench: java %s; %d cpus; load %s; 1 publisher -> %d bounded subscribers "
                + "(maxQueued %d, maxInFlight %d), %d values of 8 bytes per run, pause %d us after a refusal, %d rounds%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), RpcBench.load(),
                s.subscribers(), s.maxQueued(), s.maxInFlight(), s.values(), s.pauseNanos() / 1_000, rounds);
        Path dir = Files.createTempDirectory("door-fanout");
        List<List<Result>> byVia = new ArrayList<>();
        for (int i = 0; i < Via.values().length; i++) {
            byVia.add(new ArrayList<>());
        }
        try (Bench b = new Bench(dir, s.subscribers())) {
            for (int r = 1; r <= rounds; r++) {
                for (Via via : vias) {
                    Result x = b.run(via, s);
                    byVia.get(via.ordinal()).add(x);
                    System.out.printf(Locale.ROOT, "round %d %-5s delivered %9d in %7.2f s = %9.0f msg/s  cpu %6.2f us/msg  "
                            + "refused %7d  lost %d  disorder %d  load %s%n", r, via.name().toLowerCase(Locale.ROOT),
                            x.delivered(), x.wallNanos() / 1e9, x.perSecond(), x.cpuMicrosPerMessage(), x.refusals(), x.lost(),
                            x.disorder(), RpcBench.load());
                }
            }
        } finally {
            try (var w = Files.walk(dir)) {
                for (Path p : w.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        double topic = median(byVia.get(Via.TOPIC.ordinal()), Result::perSecond);
        double node = median(byVia.get(Via.NODE.ordinal()), Result::perSecond);
        System.out.printf(Locale.ROOT, "median delivered msg/s: topic %.0f  node %.0f  ratio node/topic %.2f%n", topic, node,
                node / topic);
        if (!byVia.get(Via.NODE_POLL.ordinal()).isEmpty()) {
            double poll = median(byVia.get(Via.NODE_POLL.ordinal()), Result::perSecond);
            System.out.printf(Locale.ROOT, "median delivered msg/s: node_poll %.0f  ratio node_poll/topic %.2f  cpu us/msg %.2f%n",
                    poll, poll / topic, median(byVia.get(Via.NODE_POLL.ordinal()), Result::cpuMicrosPerMessage));
        }
        System.out.printf(Locale.ROOT, "median cpu us/msg (whole JVM: host, publisher and subscribers): topic %.2f  node %.2f%n",
                median(byVia.get(Via.TOPIC.ordinal()), Result::cpuMicrosPerMessage),
                median(byVia.get(Via.NODE.ordinal()), Result::cpuMicrosPerMessage));
        long lost = 0;
        for (List<Result> l : byVia) {
            for (Result x : l) {
                lost += x.lost() + x.disorder();
            }
        }
        System.out.println("lost " + lost);
    }

    static double median(List<Result> rs, java.util.function.ToDoubleFunction<Result> f) {
        if (rs.isEmpty()) {
            return Double.NaN;
        }
        double[] v = rs.stream().mapToDouble(f).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** The JVM's CPU time in nanoseconds, or -1 where the platform does not say. */
    static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** The 8-byte payload of value {@code i} (little-endian). */
    static byte[] payload(long i) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(i).array();
    }

    static long index(byte[] payload, int off) {
        return ByteBuffer.wrap(payload, off, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** The node's VALUE TLV of value {@code i}: 8 bytes, as the bus's payload. */
    static byte[] nodeValue(long i) {
        byte[] b = new byte[12];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(i, 8);
        return b;
    }

    /** One host with its bus; runs share it. */
    static final class Bench implements AutoCloseable {
        private final Host host;
        private final String socket;
        private int runs;

        Bench(Path dir, int subscribers) throws Exception {
            socket = dir.resolve("bus.sock").toString();
            StringWriter out = new StringWriter();
            host = Host.start(HostConfig.builder().name("bench").udp("127.0.0.1:0").bus(socket)
                    .busMaxClients(Math.max(64, 2 * (subscribers + 1)))
                    .dashboard(HostConfig.NO_DASHBOARD).metrics("none").build(),
                    new PrintWriter(out, true), new PrintWriter(System.err, true), false);
        }

        /** Connects, retrying while the bus still counts the connections a previous run closed. */
        BusClient connect(String name) throws Exception {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (true) {
                try {
                    return BusClient.connect(socket, name, TIMEOUT_MS);
                } catch (BusException e) {
                    if (e.code() != BusError.QUOTA_EXCEEDED || System.nanoTime() - deadline > 0) {
                        throw e;
                    }
                    Thread.sleep(20);
                }
            }
        }

        private int listeners() throws Exception {
            return host.runtime().onNodeThread(() -> host.runtime().node().listenerCount(NodePath.of(VERTEX)));
        }

        /** One run of {@code via}: fresh clients, subscribed, then the publish; all closed after. */
        Result run(Via via, Settings s) throws Exception {
            List<BusClient> clients = new ArrayList<>();
            try {
                // each run's clients have names of their own, as when the figures of docs/benchmarks.md 16
                // were taken (then, reconnecting a name at once raced its old connection's close)
                runs++;
                BusClient pub = connect("pub-" + runs);
                clients.add(pub);
                List<BusClient> subs = new ArrayList<>();
                for (int i = 0; i < s.subscribers(); i++) {
                    BusClient c = connect("sub-" + runs + "-" + i);
                    clients.add(c);
                    subs.add(c);
                }
                return via == Via.TOPIC ? topic(pub, subs, s) : node(pub, subs, s, via);
            } finally {
                for (int i = clients.size() - 1; i >= 0; i--) {
                    clients.get(i).close();
                }
                if (via != Via.TOPIC) { // the node reaps the gone connections' slots: a full one would refuse the next run
                    long deadline = System.nanoTime() + 10_000_000_000L;
                    while (listeners() > 0 && System.nanoTime() - deadline < 0) {
                        Thread.sleep(20);
                    }
                }
            }
        }

        private Result topic(BusClient pub, List<BusClient> subs, Settings s) throws Exception {
            pub.declare(TOPIC, Retention.NONE);
            List<BusSubscription> ss = new ArrayList<>();
            for (BusClient c : subs) {
                ss.add(c.subscribe(TOPIC, SubscriptionMode.BOUNDED, s.maxQueued(), s.maxInFlight(), false));
            }
            Counts counts = new Counts(subs.size());
            return measure(Via.TOPIC, s, counts, i -> {
                BusSubscription sub = ss.get(i);
                long expected = 1;
                long lastSeq = -1;
                long lastProgress = System.nanoTime();
                while (expected <= s.values() && System.nanoTime() - lastProgress < STALL_NANOS) {
                    Message m = sub.next(200);
                    if (m == null) {
                        continue;
                    }
                    long idx = index(m.payload(), 0);
                    long seq = m.topicSequence();
                    m.consume();
                    if (idx == expected && (lastSeq < 0 || seq == lastSeq + 1)) {
                        expected++;
                    } else {
                        counts.disorder.incrementAndGet();
                        expected = Math.max(expected, idx + 1);
                    }
                    lastSeq = seq;
                    lastProgress = System.nanoTime();
                }
                counts.got[i] = expected - 1;
            }, i -> {
                while (true) {
                    try {
                        pub.publish(TOPIC, payload(i));
                        return;
                    } catch (BusException e) {
                        if (e.code() != BusError.BACKPRESSURE) {
                            throw e;
                        }
                        counts.refusals.incrementAndGet();
                        LockSupport.parkNanos(s.pauseNanos());
                    }
                }
            });
        }

        private Result node(BusClient pub, List<BusClient> subs, Settings s, Via via) throws Exception {
            PeerClient writer = idling(pub.node(), via);
            Reply first = writer.write(VERTEX, nodeValue(0)); // creates the vertex (or finds it from a previous run)
            if (!first.ok()) {
                throw new IllegalStateException("write " + VERTEX + ": " + WireError.identity(first.code()));
            }
            List<PeerClient> ns = new ArrayList<>();
            List<Subscribed> slots = new ArrayList<>();
            List<ArrayDeque<Delivery>> queues = new ArrayList<>();
            for (int i = 0; i < subs.size(); i++) {
                PeerClient n = idling(subs.get(i).node(), via);
                ArrayDeque<Delivery> q = new ArrayDeque<>();
                n.onDelivery(d -> q.add(d.detach())); // taken outside the sink: consumed is a request of its own
                String route = "/in/x";
                Subscribed sub = n.subscribe(VERTEX, route, Requests.subscriber(route, -1, Names.TOPIC_STAMP,
                        DeliveryMode.BOUNDED, s.maxQueued(), s.maxInFlight()));
                if (!sub.ok()) {
                    throw new IllegalStateException("subscribe " + i + ": " + WireError.identity(sub.code()));
                }
                ns.add(n);
                slots.add(sub);
                queues.add(q);
            }
            Counts counts = new Counts(subs.size());
            return measure(via, s, counts, i -> {
                PeerClient n = ns.get(i);
                Subscribed slot = slots.get(i);
                ArrayDeque<Delivery> q = queues.get(i);
                long expected = 1;
                long lastSeq = -1;
                long lastProgress = System.nanoTime();
                while (expected <= s.values() && System.nanoTime() - lastProgress < STALL_NANOS) {
                    n.pumpUntil(() -> !q.isEmpty(), Duration.ofMillis(200));
                    for (Delivery d = q.poll(); d != null; d = q.poll()) {
                        byte[] v = d.value();
                        long idx = v != null && v.length == 12 ? index(v, 4) : -1;
                        if (d.dlv() > 0) {
                            Reply c = n.consumed(VERTEX, slot.index(), slot.generation(), d.dlv());
                            if (!c.ok()) {
                                throw new IllegalStateException("consumed " + d.dlv() + ": " + WireError.identity(c.code()));
                            }
                        }
                        if (idx == 0) {
                            continue; // the value before the run, should the subscription replay it
                        }
                        if (idx == expected && (lastSeq < 0 || d.seq() == lastSeq + 1)) {
                            expected++;
                        } else {
                            counts.disorder.incrementAndGet();
                            expected = Math.max(expected, idx + 1);
                        }
                        lastSeq = d.seq();
                        lastProgress = System.nanoTime();
                    }
                }
                counts.got[i] = expected - 1;
            }, i -> {
                while (true) {
                    Reply r = writer.write(VERTEX, nodeValue(i));
                    if (r.ok()) {
                        return;
                    }
                    if (r.code() != WireError.FLOW_BACKPRESSURE) {
                        throw new IllegalStateException("write " + i + ": " + WireError.identity(r.code()));
                    }
                    counts.refusals.incrementAndGet();
                    LockSupport.parkNanos(s.pauseNanos());
                }
            });
        }

        /** {@code n}, idling on the fixed 100 µs park for {@link Via#NODE_POLL}, else as {@link BusClient#node()} made it. */
        private static PeerClient idling(PeerClient n, Via via) {
            return via == Via.NODE_POLL ? n.time(SystemClock.INSTANCE, new SleepingIdleStrategy(100_000L)) : n;
        }

        /** Runs the subscriber threads and the publisher; the window is the first publish to the last subscriber's end. */
        private Result measure(Via via, Settings s, Counts counts, Subscriber sub, Publish publish) throws Exception {
            int n = counts.got.length;
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> ts = new ArrayList<>();
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int i = 0; i < n; i++) {
                int idx = i;
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                        sub.run(idx);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "door-fanout-sub-" + i);
                ts.add(t);
                t.start();
            }
            long cpu0 = processCpuNanos();
            long t0 = System.nanoTime();
            go.countDown();
            try {
                for (long i = 1; i <= s.values(); i++) {
                    publish.value(i);
                }
            } finally {
                for (Thread t : ts) {
                    t.join();
                }
            }
            long wall = System.nanoTime() - t0;
            long cpu1 = processCpuNanos();
            if (!failures.isEmpty()) {
                throw new IllegalStateException("a subscriber failed: " + failures.get(0), failures.get(0));
            }
            long delivered = 0;
            long lost = 0;
            for (long g : counts.got) {
                delivered += g;
                lost += s.values() - g;
            }
            return new Result(via, delivered, wall, cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0, counts.refusals.get(), lost,
                    counts.disorder.get());
        }

        @Override
        public void close() {
            host.close();
        }
    }

    /** What the subscribers of a run counted. */
    private static final class Counts {
        final long[] got;
        final AtomicLong refusals = new AtomicLong();
        final AtomicLong disorder = new AtomicLong();

        Counts(int subscribers) {
            got = new long[subscribers];
        }
    }

    /** One subscriber's loop, on its own thread. */
    private interface Subscriber {
        void run(int index) throws Exception;
    }

    /** Publishes value {@code i} (retrying while refused). */
    private interface Publish {
        void value(long i) throws Exception;
    }
}
