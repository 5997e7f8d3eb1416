package io.spectrum.bench.bus;

import io.spectrum.runtime.LinkSpec;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.bench.host.HostVsMosquitto;
import io.spectrum.client.bus.Artifact;
import io.spectrum.client.bus.ArtifactWriter;
import io.spectrum.client.bus.BusClient;
import io.spectrum.link.local.LocalLink;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.wide.Grants;
import io.spectrum.bus.store.StoreConfig;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What sealing a large artifact costs <em>other</em> clients of the bus: one client's RPC round
 * trips (to an echo service, as in {@link RpcBench}) while another client seals a large artifact
 * with {@code artifact.seal} (the store copies it into the sealed file and computes its SHA-256).
 * All three clients ({@code svc}, {@code caller}, {@code writer}) are {@link BusClient}s over a
 * {@link BusHost}'s Unix socket.
 *
 * <p>First {@code idle} round trips with nothing else on the bus (the baseline). Then the caller
 * calls back to back while the writer, {@code seals} times, allocates {@code sizeMiB}, writes it
 * through the staging's {@code FileChannel} (not timed), seals it (the seal's window: from the
 * request to its reply) and releases it (the store is empty again: checked). A round trip counts
 * as <em>during a seal</em> when it overlaps a seal's window. Printed: p50/p99/max and count of
 * both sets, and the seal's median duration.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.bus.SealStallBench [sizeMiB=256] [seals=5] [idle=2000] [dir=/dev/shm]</pre>
 *
 * <p>The store lives under {@code dir} (default /dev/shm when it has room for three copies, else
 * the JVM's temp dir); its limits are raised to fit the size (per object: the size; total: twice
 * it plus 64 MiB). The JVM needs direct memory for one buffer of the size.
 */
public final class SealStallBench {
    private SealStallBench() {
    }

    /** The figures of one run (nanoseconds). */
    record Result(long[] idleRtt, long[] duringSealRtt, long[] sealNanos) {
    }

    /**
     * Measures the caller's round trips idle and during seals and prints both sets; arguments {@code key=value}:
     * {@code sizeMiB} (default 256), {@code seals} (5), {@code idle} (2000), {@code dir}.
     */
    public static void main(String[] args) throws Exception {
        long size = (long) HostVsMosquitto.intArg(args, "sizeMiB", 256) << 20;
        int seals = HostVsMosquitto.intArg(args, "seals", 5);
        int idle = HostVsMosquitto.intArg(args, "idle", 2_000);
        Path shm = Path.of("/dev/shm");
        String dirArg = HostVsMosquitto.arg(args, "dir", null);
        Path base = dirArg != null ? Path.of(dirArg)
                : Files.isDirectory(shm) && Files.getFileStore(shm).getUsableSpace() > 3 * size ? shm
                : Path.of(System.getProperty("java.io.tmpdir"));
        Path work = Files.createTempDirectory(base, "seal-stall-bench");
        System.out.printf("dir %s (%s); java %s; %d cpus; load %s; %d MiB x %d seals; %d idle calls%n", work,
                Files.getFileStore(work).type(), System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), RpcBench.load(), size >> 20, seals, idle);
        try {
            Result r = run(work, size, seals, idle);
            System.out.printf("%-22s %7s %9s %9s %9s%n", "caller's round trips", "calls", "p50 ms", "p99 ms", "max ms");
            row("idle", r.idleRtt());
            row("during a seal", r.duringSealRtt());
            long[] s = r.sealNanos().clone();
            Arrays.sort(s);
            System.out.printf("seal of %d MiB: median %.1f ms (min %.1f, max %.1f); load %s%n", size >> 20,
                    s[s.length / 2] / 1e6, s[0] / 1e6, s[s.length - 1] / 1e6, RpcBench.load());
        } finally {
            try (var s = Files.walk(work)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static void row(String label, long[] sorted) {
        if (sorted.length == 0) {
            System.out.printf("%-22s %7d%n", label, 0);
            return;
        }
        System.out.printf("%-22s %7d %9.3f %9.3f %9.3f%n", label, sorted.length, RpcBench.pct(sorted, 0.50) / 1e6,
                RpcBench.pct(sorted, 0.99) / 1e6, sorted[sorted.length - 1] / 1e6);
    }

    static Result run(Path dir, long size, int seals, int idle) throws Exception {
        StoreConfig store = StoreConfig.builder(dir.resolve("store"))
                .perObjectLimitBytes(Math.max(StoreConfig.DEFAULT_PER_OBJECT_LIMIT_BYTES, size))
                .totalLimitBytes(Math.max(StoreConfig.DEFAULT_TOTAL_LIMIT_BYTES, 2 * size + (64L << 20))).build();
        Path socket = dir.resolve("bus.sock");
        LocalLink listener = (LocalLink) LinkSpec.open(2, "unix://" + socket.toAbsolutePath(), LinkSpec.Role.LISTEN, null,
                new LinkSettings().frameBytes(BusClient.LINK_MAX_FRAME), SystemClock.INSTANCE);
        ByteBuffer payload = ArtifactHandoverBench.payload(size);
        try (BusHost host = BusHost.start(store, BusLimits.defaults(), n -> Grants.open(), List.of(listener));
                BusClient svc = BusClient.connect(UnixDomainSocketAddress.of(socket), "svc", RpcBench.TIMEOUT);
                BusClient caller = BusClient.connect(UnixDomainSocketAddress.of(socket), "caller", RpcBench.TIMEOUT);
                BusClient writer = BusClient.connect(UnixDomainSocketAddress.of(socket), "writer", HandoverBench.TIMEOUT)) {
            svc.serve(RpcBench.SERVICE, 16, 8, rq -> {
                try {
                    rq.reply(rq.payload());
                    rq.consume();
                } catch (BusException e) {
                    if (!Thread.currentThread().isInterrupted()) {
                        System.err.println("service: " + e.getMessage());
                    }
                }
            });
            long[] idleRtt = new long[idle];
            for (int i = 0; i < Math.min(idle, 500); i++) {
                RpcBench.roundTrip(caller); // warm-up
            }
            for (int i = 0; i < idle; i++) {
                idleRtt[i] = RpcBench.roundTrip(caller);
            }
            Arrays.sort(idleRtt);

            // the caller calls back to back; each call's start and round trip
            AtomicBoolean stop = new AtomicBoolean();
            List<long[]> calls = new ArrayList<>();
            Throwable[] callerFailure = new Throwable[1];
            Thread callerThread = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        long start = System.nanoTime();
                        long rtt = RpcBench.roundTrip(caller);
                        synchronized (calls) {
                            calls.add(new long[] {start, rtt});
                        }
                    }
                } catch (Throwable e) {
                    callerFailure[0] = e;
                }
            }, "seal-stall-caller");
            callerThread.start();
            long[][] windows = new long[seals][];
            long[] sealNanos = new long[seals];
            for (int k = 0; k < seals; k++) {
                ArtifactWriter w = writer.allocate(size, "application/octet-stream");
                try (FileChannel ch = w.channel()) {
                    ByteBuffer b = payload.duplicate();
                    while (b.hasRemaining()) {
                        ch.write(b, b.position());
                    }
                }
                long t0 = System.nanoTime();
                Artifact a = w.seal(null);
                long t1 = System.nanoTime();
                windows[k] = new long[] {t0, t1};
                sealNanos[k] = t1 - t0;
                a.release();
                BusStats st = host.stats();
                if (st.sealedArtifacts() != 0 || st.storeBytes() != 0) {
                    throw new IllegalStateException("the store still holds " + st);
                }
            }
            stop.set(true);
            callerThread.join();
            if (callerFailure[0] != null) {
                throw new IllegalStateException("the caller failed: " + callerFailure[0], callerFailure[0]);
            }
            List<Long> during = new ArrayList<>();
            synchronized (calls) {
                for (long[] c : calls) {
                    long end = c[0] + c[1];
                    for (long[] win : windows) {
                        if (c[0] < win[1] && end > win[0]) {
                            during.add(c[1]);
                            break;
                        }
                    }
                }
            }
            long[] duringRtt = during.stream().mapToLong(Long::longValue).sorted().toArray();
            return new Result(idleRtt, duringRtt, sealNanos);
        }
    }
}
