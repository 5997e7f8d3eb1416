package io.spectrum.bench.bus;

import io.spectrum.runtime.LinkSpec;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.bench.host.HostVsMosquitto;
import io.spectrum.client.bus.Artifact;
import io.spectrum.client.bus.ArtifactWriter;
import io.spectrum.client.bus.BusClient;
import io.spectrum.client.bus.Message;
import io.spectrum.client.bus.BusSubscription;
import io.spectrum.link.local.LocalLink;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.wide.Grants;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.bus.protocol.SubscriptionMode;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A large payload handed from one bus client to another end to end through the host bus, both
 * connected over the bus's Unix socket: the writer allocates an artifact, writes the payload into
 * the staging file through a {@link FileChannel}, publishes it <em>unsealed</em> (the bus seals it
 * on send: a copy plus SHA-256 on the bus's thread) and releases its hold; the reader takes the
 * delivery, maps the sealed object read-only, reads every byte (checked against the payload's sum)
 * and consumes, after which the store holds nothing. Against it: the same bytes written through a
 * plain Unix-domain {@code SocketChannel} pair to a reader thread that receives them into its own
 * buffer and reads every byte ({@link ArtifactHandoverBench#runSocket}), and SHA-256 alone (the
 * seal's floor). Medians and best of {@code rounds} rounds after {@code warmup}.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.bus.HandoverBench [sizesMiB=10,1024] [rounds=3] [warmup=1] [dir=/dev/shm]</pre>
 *
 * <p>The store and the sockets live under {@code dir} (default /dev/shm when it has room for
 * three copies of the largest size, else the JVM's temp dir; the run says which). The store's
 * limits are raised to fit the size (per object: the size; total: twice it, staging plus sealed
 * copy, plus 64 MiB). The JVM needs direct memory for two buffers of the largest size.
 */
public final class HandoverBench {
    static final String TOPIC = "bench.blob";
    static final long TIMEOUT = 300_000;

    private HandoverBench() {
    }

    /**
     * Runs the bus handover, the socket copy and SHA-256 alone for each size; arguments {@code key=value}: {@code
     * sizesMiB} (default 10,1024), {@code rounds} (3), {@code warmup} (1), {@code dir} (/dev/shm when it has room).
     */
    public static void main(String[] args) throws Exception {
        long[] sizes = Arrays.stream(HostVsMosquitto.arg(args, "sizesMiB", "10,1024").split(","))
                .mapToLong(s -> Long.parseLong(s.trim()) << 20).toArray();
        int rounds = HostVsMosquitto.intArg(args, "rounds", 3);
        int warmup = HostVsMosquitto.intArg(args, "warmup", 1);
        long largest = Arrays.stream(sizes).max().orElse(1 << 20);
        Path shm = Path.of("/dev/shm");
        String dirArg = HostVsMosquitto.arg(args, "dir", null);
        Path base = dirArg != null ? Path.of(dirArg)
                : Files.isDirectory(shm) && Files.getFileStore(shm).getUsableSpace() > 3 * largest ? shm
                : Path.of(System.getProperty("java.io.tmpdir"));
        Path work = Files.createTempDirectory(base, "handover-bench");
        long usable = Files.getFileStore(work).getUsableSpace();
        if (2.2 * largest > usable) {
            throw new IllegalStateException(work + " has " + (usable >> 20) + " MiB free: too little for "
                    + (largest >> 20) + " MiB twice");
        }
        System.out.printf("dir %s (%s), %d MiB usable; java %s; %d cpus; load %s; rounds %d (+%d warm-up)%n", work,
                Files.getFileStore(work).type(), usable >> 20, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), RpcBench.load(), rounds, warmup);
        ByteBuffer source = ArtifactHandoverBench.payload(largest);
        ByteBuffer sink = ByteBuffer.allocateDirect(source.capacity());
        System.out.printf("%-9s %-28s %10s %10s %9s%n", "size", "phase", "median ms", "best ms", "GB/s");
        try {
            for (long size : sizes) {
                ByteBuffer src = source.duplicate().limit((int) size);
                runBus(work.resolve("bus-" + (size >> 20)), src, rounds, warmup);
                ArtifactHandoverBench.runSha(src, rounds, warmup);
                ArtifactHandoverBench.runSocket(work.resolve("s-" + (size >> 20) + ".sock"), src, sink, rounds, warmup, 1);
                System.out.println("          (load " + RpcBench.load() + ")");
            }
        } finally {
            try (var s = Files.walk(work)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    static void runBus(Path dir, ByteBuffer src, int rounds, int warmup) throws Exception {
        long size = src.remaining();
        long expected = ArtifactHandoverBench.sum(src, 0, src.limit());
        StoreConfig store = StoreConfig.builder(dir.resolve("store"))
                .perObjectLimitBytes(Math.max(StoreConfig.DEFAULT_PER_OBJECT_LIMIT_BYTES, size))
                .totalLimitBytes(Math.max(StoreConfig.DEFAULT_TOTAL_LIMIT_BYTES, 2 * size + (64L << 20))).build();
        Files.createDirectories(dir);
        Path socket = dir.resolve("bus.sock");
        LocalLink listener = (LocalLink) LinkSpec.open(2, "unix://" + socket.toAbsolutePath(), LinkSpec.Role.LISTEN, null,
                new LinkSettings().frameBytes(BusClient.LINK_MAX_FRAME), SystemClock.INSTANCE);
        long[][] t = new long[7][rounds];
        try (BusHost host = BusHost.start(store, BusLimits.defaults(), n -> Grants.open(), List.of(listener));
                BusClient writer = BusClient.connect(UnixDomainSocketAddress.of(socket), "writer", TIMEOUT);
                BusClient reader = BusClient.connect(UnixDomainSocketAddress.of(socket), "reader", TIMEOUT)) {
            writer.declare(TOPIC, Retention.NONE);
            BusSubscription sub = reader.subscribe(TOPIC, SubscriptionMode.BOUNDED, 4, 2, false);
            byte[] meta = ("{\"bytes\":" + size + "}").getBytes(StandardCharsets.UTF_8);
            for (int r = -warmup; r < rounds; r++) {
                long t0 = System.nanoTime();
                ArtifactWriter w = writer.allocate(size, "application/octet-stream");
                long t1 = System.nanoTime();
                try (FileChannel ch = w.channel()) {
                    ByteBuffer b = src.duplicate();
                    while (b.hasRemaining()) {
                        ch.write(b, b.position());
                    }
                }
                long t2 = System.nanoTime();
                writer.publish(TOPIC, meta, w.attachment("blob"));
                long t3 = System.nanoTime();
                w.release();
                Message m = sub.next(TIMEOUT);
                if (m == null) {
                    throw new IllegalStateException("no delivery within " + TIMEOUT + " ms");
                }
                long t4 = System.nanoTime();
                Artifact a = m.artifacts().get(0);
                MappedByteBuffer in = a.map();
                if (ArtifactHandoverBench.sum(in, 0, in.capacity()) != expected) {
                    throw new IllegalStateException("the mapped bytes differ from the written ones");
                }
                long t5 = System.nanoTime();
                m.consume();
                long t6 = System.nanoTime();
                BusStats s = host.stats();
                if (s.sealedArtifacts() != 0 || s.storeBytes() != 0) {
                    throw new IllegalStateException("the store still holds " + s);
                }
                in = null;
                System.gc(); // unmap the reader's mapping before the next round
                if (r >= 0) {
                    t[0][r] = t1 - t0;
                    t[1][r] = t2 - t1;
                    t[2][r] = t3 - t2;
                    t[3][r] = t4 - t3;
                    t[4][r] = t5 - t4;
                    t[5][r] = t6 - t5;
                    t[6][r] = t5 - t0;
                }
            }
        }
        String label = (size >> 20) + " MiB";
        ArtifactHandoverBench.print(label, "bus allocate", t[0], size);
        ArtifactHandoverBench.print(label, "bus write (channel)", t[1], size);
        ArtifactHandoverBench.print(label, "bus publish (seal on send)", t[2], size);
        ArtifactHandoverBench.print(label, "bus delivery after publish", t[3], size);
        ArtifactHandoverBench.print(label, "bus map + read", t[4], size);
        ArtifactHandoverBench.print(label, "bus consume", t[5], size);
        ArtifactHandoverBench.print(label, "bus total (alloc..read)", t[6], size);
    }
}
