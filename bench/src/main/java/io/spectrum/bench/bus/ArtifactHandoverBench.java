package io.spectrum.bench.bus;

import io.spectrum.bench.host.HostVsMosquitto;
import io.spectrum.wide.bus.ArtifactFiles;
import io.spectrum.wide.bus.ArtifactRef;
import io.spectrum.wide.bus.FileArtifactStore;
import io.spectrum.wide.bus.StagedArtifact;
import io.spectrum.wide.bus.StoreConfig;

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
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Handing one large payload to a reader in the same host: through the bus's file store
 * ({@link FileArtifactStore}: allocate, write the staging file through a channel, seal — copy plus
 * SHA-256 — then map the sealed file read-only and read every byte) against copying the same bytes
 * through a Unix domain socket to a reader thread that reads every byte (no digest). Each round uses
 * a fresh artifact; the first {@code warmup} rounds of each size are not counted. Prints each phase's
 * median and best over the rounds, in milliseconds and GB/s (10^9 bytes per second of the payload).
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.bus.ArtifactHandoverBench [sizesMiB=10,1024] [rounds=3] [warmup=2] [dir=&lt;java.io.tmpdir&gt;]</pre>
 *
 * <p>The store and the socket live under {@code dir} (default the JVM's temp dir); a size that does
 * not fit twice (staging plus sealed copy) with 10% to spare in its free space is cut to 512 MiB, and
 * the run says so.
 */
public final class ArtifactHandoverBench {
    private static final int CHUNK = 1 << 20;

    private ArtifactHandoverBench() {
    }

    public static void main(String[] args) throws Exception {
        long[] sizes = Arrays.stream(HostVsMosquitto.arg(args, "sizesMiB", "10,1024").split(","))
                .mapToLong(s -> Long.parseLong(s.trim()) << 20).toArray();
        int rounds = HostVsMosquitto.intArg(args, "rounds", 3);
        int warmup = HostVsMosquitto.intArg(args, "warmup", 2);
        Path base = Path.of(HostVsMosquitto.arg(args, "dir", System.getProperty("java.io.tmpdir")));
        Path work = Files.createTempDirectory(base, "artifact-bench");
        ByteBuffer pattern = ByteBuffer.allocateDirect(CHUNK);
        byte[] random = new byte[CHUNK];
        new Random(42).nextBytes(random);
        pattern.put(random).flip();
        long usable = Files.getFileStore(work).getUsableSpace();
        System.out.printf("dir %s (%s), %d MiB usable; java %s; %d cpus; rounds %d (+%d warm-up)%n", work,
                Files.getFileStore(work).type(), usable >> 20, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), rounds, warmup);
        System.out.printf("%-9s %-26s %10s %10s %9s%n", "size", "phase", "median ms", "best ms", "GB/s");
        try {
            for (long size : sizes) {
                long n = size;
                if (2.2 * n > usable) {
                    n = 512L << 20;
                    System.out.printf("%d MiB does not fit twice in %d MiB free; using 512 MiB%n", size >> 20,
                            usable >> 20);
                }
                runStore(work.resolve("store-" + (n >> 20)), n, rounds, warmup, pattern);
                runSha(n, rounds, warmup, pattern);
                runSocket(work.resolve("s-" + (n >> 20) + ".sock"), n, rounds, warmup, pattern);
            }
        } finally {
            try (var s = Files.walk(work)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    static void runStore(Path dir, long size, int rounds, int warmup, ByteBuffer pattern) throws Exception {
        long[][] t = new long[5][rounds];
        StoreConfig cfg = StoreConfig.builder(dir).totalLimitBytes(2 * size).perObjectLimitBytes(size).build();
        long expected = expectedSum(size, pattern);
        try (FileArtifactStore store = FileArtifactStore.open(cfg)) {
            for (int r = -warmup; r < rounds; r++) {
                long t0 = System.nanoTime();
                StagedArtifact a = store.allocate(size, "application/octet-stream");
                long t1 = System.nanoTime();
                try (FileChannel ch = ArtifactFiles.openForWrite(store.root(), a.writeLocation())) {
                    long pos = 0;
                    while (pos < size) {
                        ByteBuffer b = pattern.duplicate();
                        b.limit((int) Math.min(CHUNK, size - pos));
                        while (b.hasRemaining()) {
                            pos += ch.write(b, pos);
                        }
                    }
                }
                long t2 = System.nanoTime();
                ArtifactRef ref = store.seal(a.artifactId(), a.generation(), null);
                long t3 = System.nanoTime();
                MappedByteBuffer m = ArtifactFiles.mapReadOnly(store.root(), store.readLocation(ref.artifactId()));
                long sum = sum(m, 0, m.capacity());
                long t4 = System.nanoTime();
                if (sum != expected) {
                    throw new IllegalStateException("the mapped bytes differ from the written ones");
                }
                store.collect(ref.artifactId());
                m = null;
                System.gc(); // unmap the 1 GB reader mapping before the next round
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
        print(label, "store map + read", t[3], size);
        print(label, "store total", t[4], size);
    }

    static void runSocket(Path sock, long size, int rounds, int warmup, ByteBuffer pattern) throws Exception {
        long[] t = new long[rounds];
        long expected = expectedSum(size, pattern);
        BlockingQueue<long[]> done = new ArrayBlockingQueue<>(1);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(sock));
            Thread reader = new Thread(() -> readRounds(server, size, rounds + warmup, done), "uds-reader");
            reader.setDaemon(true);
            reader.start();
            try (SocketChannel out = SocketChannel.open(UnixDomainSocketAddress.of(sock))) {
                for (int r = -warmup; r < rounds; r++) {
                    long t0 = System.nanoTime();
                    long sent = 0;
                    while (sent < size) {
                        ByteBuffer b = pattern.duplicate();
                        b.limit((int) Math.min(CHUNK, size - sent));
                        while (b.hasRemaining()) {
                            sent += out.write(b);
                        }
                    }
                    long[] result = done.take();
                    if (result[1] != expected) {
                        throw new IllegalStateException("the socket reader got other bytes");
                    }
                    if (r >= 0) {
                        t[r] = result[0] - t0;
                    }
                }
            }
            reader.join();
        } finally {
            Files.deleteIfExists(sock);
        }
        print((size >> 20) + " MiB", "unix socket copy + read", t, size);
    }

    /** The floor of a seal: SHA-256 over the same number of bytes, from memory (no file I/O). */
    static void runSha(long size, int rounds, int warmup, ByteBuffer pattern) throws Exception {
        long[] t = new long[rounds];
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (int r = -warmup; r < rounds; r++) {
            long t0 = System.nanoTime();
            for (long done = 0; done < size; done += CHUNK) {
                ByteBuffer b = pattern.duplicate();
                b.limit((int) Math.min(CHUNK, size - done));
                md.update(b);
            }
            md.digest();
            if (r >= 0) {
                t[r] = System.nanoTime() - t0;
            }
        }
        print((size >> 20) + " MiB", "sha256 only (seal floor)", t, size);
    }

    private static void readRounds(ServerSocketChannel server, long size, int rounds, BlockingQueue<long[]> done) {
        ByteBuffer in = ByteBuffer.allocateDirect(CHUNK);
        try (SocketChannel ch = server.accept()) {
            for (int r = 0; r < rounds; r++) {
                long got = 0;
                long sum = 0;
                while (got < size) {
                    in.clear().limit((int) Math.min(CHUNK, size - got));
                    int n = ch.read(in);
                    if (n < 0) {
                        throw new IOException("eof after " + got + " bytes");
                    }
                    sum += sum(in, 0, in.position());
                    got += n;
                }
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

    private static long expectedSum(long size, ByteBuffer pattern) {
        long full = sum(pattern, 0, CHUNK);
        long chunks = size / CHUNK;
        return chunks * full + sum(pattern, 0, (int) (size % CHUNK));
    }

    private static void print(String size, String phase, long[] nanos, long bytes) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        long median = s[s.length / 2];
        System.out.printf("%-9s %-26s %10.1f %10.1f %9.2f%n", size, phase, median / 1e6, s[0] / 1e6,
                bytes / (median / 1e9) / 1e9);
    }
}
