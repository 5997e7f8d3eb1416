package io.spectrum.bench.bus;

import io.spectrum.bench.host.HostVsMosquitto;
import io.spectrum.bus.protocol.ArtifactFiles;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.store.FileArtifactStore;
import io.spectrum.bus.store.StagedArtifact;
import io.spectrum.bus.store.StoreConfig;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Handing one large payload to a reader in the same host, from a producer buffer of the payload's
 * size (in memory, not in a cache): through the bus's file store ({@link FileArtifactStore}:
 * allocate, write the staging file through a channel, seal — copy plus SHA-256 — then map the
 * sealed file read-only and read every byte) against writing the same bytes through a Unix domain
 * socket to a reader thread that receives them into its own buffer of the payload's size and reads
 * every byte (no digest). Each round uses a fresh artifact; the first {@code warmup} rounds of each
 * size are not counted. Prints each phase's median and best over the rounds, in milliseconds and
 * GB/s (10^9 payload bytes per second).
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.bus.ArtifactHandoverBench [sizesMiB=10,1024] [rounds=3] [warmup=2] [readers=1] [dir=&lt;java.io.tmpdir&gt;]</pre>
 *
 * <p>The store and the socket live under {@code dir} (default the JVM's temp dir); a size that does
 * not fit twice (staging plus sealed copy) with 10% to spare in its free space is cut to 512 MiB, and
 * the run says so. With {@code readers=N} the store maps and reads the one sealed object N times and
 * the socket carries the bytes N times (fan-out to N readers, one after the other); GB/s stays per
 * payload (one copy of the bytes). The JVM needs direct memory for two buffers of the largest size.
 */
public final class ArtifactHandoverBench {
    private static final int CHUNK = 1 << 20;

    private ArtifactHandoverBench() {
    }

    /**
     * Runs both handovers for each size and prints the medians and bests; arguments {@code key=value}: {@code
     * sizesMiB} (default 10,1024), {@code rounds} (3), {@code warmup} (2), {@code readers} (1), {@code dir}.
     */
    public static void main(String[] args) throws Exception {
        long[] sizes = Arrays.stream(HostVsMosquitto.arg(args, "sizesMiB", "10,1024").split(","))
                .mapToLong(s -> Long.parseLong(s.trim()) << 20).toArray();
        int rounds = HostVsMosquitto.intArg(args, "rounds", 3);
        int warmup = HostVsMosquitto.intArg(args, "warmup", 2);
        int readers = HostVsMosquitto.intArg(args, "readers", 1);
        Path base = Path.of(HostVsMosquitto.arg(args, "dir", System.getProperty("java.io.tmpdir")));
        Path work = Files.createTempDirectory(base, "artifact-bench");
        long usable = Files.getFileStore(work).getUsableSpace();
        System.out.printf("dir %s (%s), %d MiB usable; java %s; %d cpus; rounds %d (+%d warm-up); readers %d%n", work,
                Files.getFileStore(work).type(), usable >> 20, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), rounds, warmup, readers);
        for (int i = 0; i < sizes.length; i++) {
            if (2.2 * sizes[i] > usable) {
                System.out.printf("%d MiB does not fit twice in %d MiB free; using 512 MiB%n", sizes[i] >> 20,
                        usable >> 20);
                sizes[i] = 512L << 20;
            }
        }
        ByteBuffer source = payload(Arrays.stream(sizes).max().orElse(CHUNK));
        ByteBuffer sink = ByteBuffer.allocateDirect(source.capacity());
        System.out.printf("%-9s %-28s %10s %10s %9s%n", "size", "phase", "median ms", "best ms", "GB/s");
        try {
            for (long size : sizes) {
                ByteBuffer src = source.duplicate().limit((int) size);
                runStore(work.resolve("store-" + (size >> 20)), src, rounds, warmup, readers);
                runSha(src, rounds, warmup);
                runSocket(work.resolve("s-" + (size >> 20) + ".sock"), src, sink, rounds, warmup, readers);
            }
        } finally {
            try (var s = Files.walk(work)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** A direct buffer of {@code size} pseudo-random bytes (one random MiB repeated). */
    static ByteBuffer payload(long size) {
        if (size > Integer.MAX_VALUE - CHUNK) {
            throw new IllegalArgumentException("sizes up to 2047 MiB");
        }
        byte[] random = new byte[CHUNK];
        new Random(42).nextBytes(random);
        ByteBuffer b = ByteBuffer.allocateDirect((int) size);
        while (b.hasRemaining()) {
            b.put(random, 0, Math.min(CHUNK, b.remaining()));
        }
        return b.flip();
    }

    static void runStore(Path dir, ByteBuffer src, int rounds, int warmup, int readers) throws Exception {
        long size = src.remaining();
        long[][] t = new long[5][rounds];
        StoreConfig cfg = StoreConfig.builder(dir).totalLimitBytes(2 * size).perObjectLimitBytes(size).build();
        long expected = sum(src, 0, src.limit());
        try (FileArtifactStore store = FileArtifactStore.open(cfg)) {
            for (int r = -warmup; r < rounds; r++) {
                long t0 = System.nanoTime();
                StagedArtifact a = store.allocate(size, "application/octet-stream");
                long t1 = System.nanoTime();
                try (FileChannel ch = ArtifactFiles.openForWrite(store.root(), a.writeLocation())) {
                    ByteBuffer b = src.duplicate();
                    while (b.hasRemaining()) {
                        ch.write(b, b.position());
                    }
                }
                long t2 = System.nanoTime();
                ArtifactRef ref = store.seal(a.artifactId(), a.generation(), null);
                long t3 = System.nanoTime();
                for (int k = 0; k < readers; k++) {
                    MappedByteBuffer m = ArtifactFiles.mapReadOnly(store.root(), store.readLocation(ref.artifactId()));
                    if (sum(m, 0, m.capacity()) != expected) {
                        throw new IllegalStateException("the mapped bytes differ from the written ones");
                    }
                }
                long t4 = System.nanoTime();
                store.collect(ref.artifactId());
                System.gc(); // unmap the reader mappings before the next round
                if (r >= 0) {
                    t[0][r] = t1 - t0;
                    t[1][r] = t2 - t1;
                    t[2][r] = t3 - t2;
                    t[3][r] = t4 - t3;
                    t[4][r] = t4 - t0;
                }
            }
        }
        String label = (size >> 20) + " MiB";
        print(label, "store allocate", t[0], size);
        print(label, "store write (channel)", t[1], size);
        print(label, "store seal (copy+sha256)", t[2], size);
        print(label, readers == 1 ? "store map + read" : "store map + read x" + readers, t[3], size);
        print(label, "store total", t[4], size);
    }

    /** The floor of a seal: SHA-256 over the same bytes, from memory (no file I/O). */
    static void runSha(ByteBuffer src, int rounds, int warmup) throws Exception {
        long[] t = new long[rounds];
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (int r = -warmup; r < rounds; r++) {
            long t0 = System.nanoTime();
            md.update(src.duplicate());
            md.digest();
            if (r >= 0) {
                t[r] = System.nanoTime() - t0;
            }
        }
        print((src.remaining() >> 20) + " MiB", "sha256 only (seal floor)", t, src.remaining());
    }

    static void runSocket(Path sock, ByteBuffer src, ByteBuffer sink, int rounds, int warmup, int readers)
            throws Exception {
        int size = src.remaining();
        long[] t = new long[rounds];
        long expected = sum(src, 0, src.limit());
        BlockingQueue<long[]> done = new ArrayBlockingQueue<>(1);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(sock));
            Thread reader = new Thread(() -> readRounds(server, sink, size, (rounds + warmup) * readers, done),
                    "uds-reader");
            reader.setDaemon(true);
            reader.start();
            try (SocketChannel out = SocketChannel.open(UnixDomainSocketAddress.of(sock))) {
                for (int r = -warmup; r < rounds; r++) {
                    long t0 = System.nanoTime();
                    long end = 0;
                    for (int k = 0; k < readers; k++) {
                        ByteBuffer b = src.duplicate();
                        while (b.hasRemaining()) {
                            out.write(b);
                        }
                        long[] result = done.take();
                        if (result[1] != expected) {
                            throw new IllegalStateException("the socket reader got other bytes");
                        }
                        end = result[0];
                    }
                    if (r >= 0) {
                        t[r] = end - t0;
                    }
                }
            }
            reader.join();
        } finally {
            Files.deleteIfExists(sock);
        }
        print((size >> 20) + " MiB", readers == 1 ? "unix socket copy + read" : "unix socket copy + read x" + readers,
                t, size);
    }

    /** Receives {@code copies} payloads of {@code size} bytes into {@code sink}, reading every byte of each. */
    private static void readRounds(ServerSocketChannel server, ByteBuffer sink, int size, int copies,
            BlockingQueue<long[]> done) {
        try (SocketChannel ch = server.accept()) {
            for (int r = 0; r < copies; r++) {
                ByteBuffer in = sink.duplicate().clear().limit(size);
                while (in.hasRemaining()) {
                    if (ch.read(in) < 0) {
                        throw new IOException("eof after " + in.position() + " bytes");
                    }
                }
                long sum = sum(in, 0, size);
                done.put(new long[] {System.nanoTime(), sum});
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Touches every byte: the sum of the buffer's bytes in [from, to). */
    static long sum(ByteBuffer b, int from, int to) {
        long s = 0;
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long v = b.getLong(i);
            for (int k = 0; k < 8; k++) {
                s += (byte) (v >>> (8 * k));
            }
        }
        for (; i < to; i++) {
            s += b.get(i);
        }
        return s;
    }

    static void print(String size, String phase, long[] nanos, long bytes) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        long median = s[s.length / 2];
        System.out.printf("%-9s %-28s %10.1f %10.1f %9.2f%n", size, phase, median / 1e6, s[0] / 1e6,
                bytes / (median / 1e9) / 1e9);
    }
}
