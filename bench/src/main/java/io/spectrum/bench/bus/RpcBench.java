package io.spectrum.bench.bus;

import io.spectrum.runtime.LinkSpec;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.bench.host.HostVsMosquitto;
import io.spectrum.client.bus.BusClient;
import io.spectrum.client.bus.CallResult;
import io.spectrum.client.bus.InProcessTransport;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.server.BusDriver;
import io.spectrum.bus.server.BusHost;
import io.spectrum.link.Readiness;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.runtime.NodeLoop;
import io.spectrum.wide.WideNode;
import java.util.function.IntSupplier;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.wide.Grants;
import io.spectrum.bus.store.StoreConfig;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * RPC through the host bus: one service client serving {@code bench.echo} (its handler replies the
 * request's 16-byte payload, then consumes the request), and 1, 2 or 4 caller clients, each its own
 * {@link BusClient} connection, against a {@link BusHost} over a Unix socket (the local link, as
 * separate processes would), over the in-process transport, and over the Unix socket with the bus
 * run by a node loop as in a host ({@code via=node}).
 *
 * <ul>
 *   <li><b>latency</b>: each caller keeps one call in flight; a call's round trip is from
 *       {@code call()} (the request leaves) to its result arriving (admission reply, dispatch to
 *       the service, the service's reply, the result delivery); the caller then consumes the result
 *       (outside the timed window). {@code calls} round trips after {@code warmup}, split over the
 *       callers; p50/p95/p99/max over all of them, and the calls per second that one-in-flight
 *       gives. {@code paceMicros=N} waits N µs after each call (e.g. 16000: one call a 60 Hz
 *       frame, as in the reference's figures), so every thread has gone idle when the next call comes.</li>
 *   <li><b>throughput</b>: each caller runs {@code inflight} threads, each with one call in flight
 *       (so callers × inflight calls in flight), for {@code seconds}; completed (and consumed)
 *       calls per second.</li>
 * </ul>
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.bus.RpcBench [calls=20000] [warmup=2000] [callers=1,2,4] [inflight=8] [seconds=5] [via=unix,inproc,node] [paceMicros=0]</pre>
 *
 * <p>Idle waiting parks: the client's I/O thread at most 200 µs, the bus's agent at most 100 µs.
 * {@code -Dspectrum.bus.client.maxParkNanos=N} and {@code -Dspectrum.bus.maxParkNanos=N} change
 * the bounds (0: yield, never park), to measure what parking costs a round trip.
 */
public final class RpcBench {
    static final String SERVICE = "bench.echo";
    static final long TIMEOUT = 30_000;

    private RpcBench() {
    }

    /**
     * How the clients reach the bus: its Unix socket, the in-process transport, or its Unix socket
     * with the bus's turns run by a node loop (a WIDE node's {@link NodeLoop} driving the bus, as a
     * host's does: docs/bus.md, "Identity, transports and the loop") instead of the bus's own thread.
     */
    enum Via { UNIX, INPROC, NODE }

    /**
     * Runs the latency and throughput cases for each transport and caller count; arguments {@code key=value}: {@code
     * calls}, {@code warmup}, {@code inflight}, {@code seconds}, {@code paceMicros}, {@code callers} (1,2,4), {@code
     * via} (unix,inproc,node).
     */
    public static void main(String[] args) throws Exception {
        int calls = HostVsMosquitto.intArg(args, "calls", 20_000);
        int warmup = HostVsMosquitto.intArg(args, "warmup", 2_000);
        int inflight = HostVsMosquitto.intArg(args, "inflight", 8);
        int seconds = HostVsMosquitto.intArg(args, "seconds", 5);
        long paceNanos = HostVsMosquitto.intArg(args, "paceMicros", 0) * 1_000L;
        int[] callerCounts = Arrays.stream(HostVsMosquitto.arg(args, "callers", "1,2,4").split(","))
                .mapToInt(s -> Integer.parseInt(s.trim())).toArray();
        List<Via> vias = Arrays.stream(HostVsMosquitto.arg(args, "via", "unix,inproc,node").split(","))
                .map(s -> Via.valueOf(s.trim().toUpperCase())).toList();
        System.out.printf("java %s; %d cpus; load %s; client park <= %d ns, bus park <= %s ns; calls %d (+%d warm-up), "
                + "pace %d us; inflight %d per caller for %d s%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), load(),
                Long.getLong("spectrum.bus.client.maxParkNanos", 200_000L),
                Long.getLong("spectrum.bus.maxParkNanos", 100_000L), calls, warmup, paceNanos / 1_000, inflight, seconds);
        System.out.printf("%-7s %7s %9s %9s %9s %9s %11s %14s %12s  %s%n", "via", "callers", "p50 ms", "p95 ms",
                "p99 ms", "max ms", "1-fl call/s", "in flight", "calls/s", "load");
        for (Via via : vias) {
            Path dir = Files.createTempDirectory("rpc-bench");
            try (Bench b = new Bench(dir, via)) {
                for (int callers : callerCounts) {
                    b.row(callers, calls, warmup, paceNanos, inflight, seconds);
                }
            } finally {
                try (var s = Files.walk(dir)) {
                    for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
    }

    static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (Exception e) {
            return "?";
        }
    }

    /** One bus host and the clients of a row; rows share the host. */
    static final class Bench implements AutoCloseable {
        private final BusHost host;
        private final Path socket;
        private final Via via;
        /** The node loop that runs the bus ({@link Via#NODE}), else null. */
        private final NodeLoop loop;

        Bench(Path dir, Via via) throws Exception {
            this.via = via;
            socket = dir.resolve("bus.sock");
            List<io.spectrum.link.Link> links = via != Via.INPROC
                    ? List.of(LinkSpec.open(2, "unix://" + socket.toAbsolutePath(), LinkSpec.Role.LISTEN, null,
                            new LinkSettings().frameBytes(BusClient.LINK_MAX_FRAME), SystemClock.INSTANCE))
                    : List.of();
            BusLimits limits = BusLimits.builder().maxServiceQueued(1024).maxServiceInFlight(64).build();
            StoreConfig store = StoreConfig.builder(dir.resolve("store")).build();
            if (via == Via.NODE) {
                loop = new NodeLoop("rpc-bench node", new WideNode(NodeConfig.defaults()), null);
                loop.start();
                host = BusHost.start(store, limits, n -> Grants.open(), links, null, driver(loop), SystemClock.INSTANCE);
            } else {
                loop = null;
                host = BusHost.start(store, limits, n -> Grants.open(), links);
            }
        }

        /** The loop as the bus's driver, as a host's {@code Host} makes it of its node loop. */
        private static BusDriver driver(NodeLoop loop) {
            return new BusDriver() {
                @Override
                public Readiness readiness() {
                    return loop.agent().readiness();
                }

                @Override
                public void share(IntSupplier turn, boolean polled) {
                    onLoop(loop, () -> loop.agent().share(turn, polled));
                }

                @Override
                public boolean onLoopThread() {
                    return loop.isNodeThread();
                }

                @Override
                public void unshare(IntSupplier turn) {
                    onLoop(loop, () -> loop.agent().unshare(turn));
                }
            };
        }

        private static void onLoop(NodeLoop loop, Runnable r) {
            if (loop.isNodeThread()) {
                r.run();
                return;
            }
            java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
            loop.submit(() -> {
                r.run();
                done.complete(null);
            });
            done.join();
        }

        BusClient client(String name) throws BusException {
            return via != Via.INPROC ? BusClient.connect(UnixDomainSocketAddress.of(socket), name, TIMEOUT)
                    : BusClient.connect(new InProcessTransport(host.connectInProcess(name)), TIMEOUT);
        }

        /** Measures one row: a fresh service and {@code callers} fresh caller clients. */
        Result row(int callers, int calls, int warmup, long paceNanos, int inflight, int seconds) throws Exception {
            List<BusClient> clients = new ArrayList<>();
            try {
                BusClient service = client("svc");
                clients.add(service);
                AtomicLong served = new AtomicLong();
                service.serve(SERVICE, 1024, 64, rq -> {
                    try {
                        rq.reply(rq.payload());
                        rq.consume();
                        served.incrementAndGet();
                    } catch (BusException e) {
                        if (!Thread.currentThread().isInterrupted()) {
                            System.err.println("service: " + e.getMessage());
                        }
                    }
                });
                List<BusClient> cs = new ArrayList<>();
                for (int i = 0; i < callers; i++) {
                    BusClient c = client("caller-" + i);
                    clients.add(c);
                    cs.add(c);
                }
                // latency: one call in flight per caller
                long[][] rtt = new long[callers][];
                long wall = parallel(callers, (i, start) -> {
                    BusClient c = cs.get(i);
                    int mine = calls / callers;
                    for (int k = 0; k < warmup / callers; k++) {
                        roundTrip(c);
                    }
                    start.countDown();
                    start.await();
                    long[] t = new long[mine];
                    for (int k = 0; k < mine; k++) {
                        t[k] = roundTrip(c);
                        if (paceNanos > 0) {
                            java.util.concurrent.locks.LockSupport.parkNanos(paceNanos); // calls far apart: every thread idles between them
                        }
                    }
                    rtt[i] = t;
                });
                long[] all = Arrays.stream(rtt).flatMapToLong(Arrays::stream).sorted().toArray();
                // throughput: callers x inflight threads, one call in flight each
                AtomicLong done = new AtomicLong();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
                long tpWall = parallel(callers * inflight, (i, start) -> {
                    BusClient c = cs.get(i % callers);
                    start.countDown();
                    start.await();
                    while (System.nanoTime() < deadline) {
                        roundTrip(c);
                        done.incrementAndGet();
                    }
                });
                Result r = new Result(via, callers, all, all.length / (wall / 1e9), callers * inflight,
                        done.get() / (tpWall / 1e9));
                System.out.printf("%-7s %7d %9.3f %9.3f %9.3f %9.3f %11.0f %14s %12.0f  %s%n", via.name().toLowerCase(),
                        callers, pct(all, 0.50) / 1e6, pct(all, 0.95) / 1e6, pct(all, 0.99) / 1e6,
                        all[all.length - 1] / 1e6, r.oneInFlightRate(), callers + "x" + inflight, r.callsPerSecond(),
                        load());
                return r;
            } finally {
                for (int i = clients.size() - 1; i >= 0; i--) {
                    clients.get(i).close();
                }
                for (int i = 0; i < 500 && host.stats().connections() > 0; i++) {
                    Thread.sleep(10); // the names (and the service) are free for the next row
                }
            }
        }

        @Override
        public void close() {
            host.close();
            if (loop != null) {
                loop.close();
            }
        }
    }

    record Result(Via via, int callers, long[] sortedRttNanos, double oneInFlightRate, int inFlight,
            double callsPerSecond) {
    }

    private static final byte[] PAYLOAD = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** One call's round trip in nanoseconds (the result is consumed after the clock stops). */
    static long roundTrip(BusClient c) throws Exception {
        long t0 = System.nanoTime();
        BusClient.PendingCall p = c.call(SERVICE, "echo", PAYLOAD, null);
        CallResult r = p.result().get(TIMEOUT, TimeUnit.MILLISECONDS);
        long t = System.nanoTime() - t0;
        if (r.failure() != null) {
            throw r.failure();
        }
        if (r.outcome().length != PAYLOAD.length) {
            throw new IllegalStateException("the echo came back with " + r.outcome().length + " bytes");
        }
        r.consume();
        return t;
    }

    static long pct(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, Math.max(0, (int) Math.ceil(q * sorted.length) - 1))];
    }

    /** A worker counts {@code start} down once its warm-up is done, then waits for the others. */
    interface Worker {
        void run(int index, CountDownLatch start) throws Exception;
    }

    /** Runs {@code n} workers on their own threads; returns the wall time from the start latch to the last one's end. */
    static long parallel(int n, Worker w) throws Exception {
        CountDownLatch start = new CountDownLatch(n);
        List<Thread> ts = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int i = 0; i < n; i++) {
            int idx = i;
            Thread t = new Thread(() -> {
                try {
                    w.run(idx, start);
                } catch (Throwable e) {
                    failures.add(e);
                    start.countDown();
                }
            }, "rpc-bench-" + i);
            ts.add(t);
            t.start();
        }
        start.await();
        long t0 = System.nanoTime();
        for (Thread t : ts) {
            t.join();
        }
        long wall = System.nanoTime() - t0;
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a worker failed: " + failures.get(0), failures.get(0));
        }
        return wall;
    }
}
