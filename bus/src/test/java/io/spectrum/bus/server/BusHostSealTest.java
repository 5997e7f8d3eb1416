package io.spectrum.bus.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.spectrum.wide.Grants;
import io.spectrum.bus.state.MemoryArtifactStore;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.spectrum.bus.protocol.ArtifactFiles;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusFrames;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusWire;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.link.local.InProcessLink;

/**
 * A {@link BusHost} with real threads whose sealing executor is held by a latch: the seal is
 * begun (its quota hold shows in the stats) and its job waits behind the latch, so what the test
 * does meanwhile happens while the seal is in progress.
 */
class BusHostSealTest {
    private static final int LENGTH = 4 << 20;

    @TempDir
    Path tmp;

    private final CountDownLatch gate = new CountDownLatch(1);
    private final ExecutorService sealer = Executors.newSingleThreadExecutor();
    private BusHost host;

    /** Waits (bounded) for {@code done}; the wait is not what is asserted. */
    private static void await(BooleanSupplier done, String what) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - until > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            LockSupport.parkNanos(100_000);
        }
    }

    /** Sends one request and returns the frames that came until its reply (the reply last). */
    private static List<BusFrames.Decoded> request(InProcessLink.End end, String route, String command, BusFields f)
            throws BusException {
        byte[] frame = BusFrames.request(command, route, f);
        assertEquals(0, end.send(frame, 0, frame.length));
        return until(end, route);
    }

    private static List<BusFrames.Decoded> until(InProcessLink.End end, String route) throws BusException {
        List<BusFrames.Decoded> got = new ArrayList<>();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() - until < 0) {
            byte[] b = end.poll();
            if (b == null) {
                LockSupport.parkNanos(100_000);
                continue;
            }
            BusFrames.Decoded d = BusFrames.decode(b, 0, b.length);
            got.add(d);
            if (d.isReply() && d.dst().equals(route)) {
                return got;
            }
        }
        throw new AssertionError("no reply to " + route);
    }

    private static BusFields ok(List<BusFrames.Decoded> frames) throws BusException {
        BusFrames.Decoded d = frames.get(frames.size() - 1);
        if (d.error() != null) {
            throw d.error();
        }
        return d.fields();
    }

    /** Starts the host with its sealer held behind the gate. */
    private void startHeld() throws BusException {
        sealer.execute(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        host = BusHost.start(StoreConfig.builder(tmp.resolve("store")).build(), BusLimits.defaults(),
                n -> Grants.open(), List.of(), sealer);
    }

    /** Allocates and writes LENGTH bytes on {@code writer}, sends its seal (route /w/2) and waits until it has begun. */
    private String beginOn(InProcessLink.End writer) throws Exception {
        BusFields a = ok(request(writer, "/w/1", "artifact.allocate", BusFields.of().put("byteLength", LENGTH)
                .put("contentType", "application/octet-stream")));
        byte[] data = new byte[LENGTH];
        new Random(5).nextBytes(data);
        try (FileChannel ch = ArtifactFiles.openForWrite(host.storeRoot(), a.string("writeLocation"))) {
            ByteBuffer b = ByteBuffer.wrap(data);
            while (b.hasRemaining()) {
                ch.write(b, b.position());
            }
        }
        byte[] seal = BusFrames.request("artifact.seal", "/w/2", BusFields.of().put("artifactId", a.u64("artifactId"))
                .put("generation", 1).put("ownerId", a.string("ownerId")));
        assertEquals(0, writer.send(seal, 0, seal.length));
        await(() -> host.stats().storeBytes() == 2L * LENGTH, "the seal to begin (the copy's hold)");
        return MemoryArtifactStore.sha256(data);
    }

    @AfterEach
    void stop() {
        gate.countDown();
        if (host != null) {
            host.close();
        }
        sealer.shutdownNow();
    }

    @Test
    void anotherClientIsAnsweredWhileTheSealWaits_thenTheSealIsAnswered() throws Exception {
        startHeld();
        InProcessLink.End writer = host.connectInProcess("writer");
        String digest = beginOn(writer);
        InProcessLink.End other = host.connectInProcess("other");
        BusFields stats = ok(request(other, "/o/1", "bus.stats", BusFields.of()));
        assertEquals(2L * LENGTH, stats.u64("storeBytes"), "answered while the seal is in progress");
        assertNull(writer.poll(), "the writer's seal is not answered while its job waits");
        gate.countDown();
        BusFields sealed = ok(until(writer, "/w/2"));
        assertEquals(digest, BusWire.ref(sealed.record("ref")).digest());
        assertEquals(LENGTH, host.stats().storeBytes());
    }

    @Test
    void closingTheHostMidSealLeavesNoFiles() throws Exception {
        startHeld();
        InProcessLink.End writer = host.connectInProcess("writer");
        beginOn(writer);
        Path root = host.storeRoot();
        host.close();
        host = null;
        assertTrue(sealer.isTerminated(), "close stopped the sealing executor");
        List<Path> left = new ArrayList<>();
        for (String d : List.of(ArtifactFiles.STAGING_DIR, ArtifactFiles.SEALED_DIR)) {
            if (Files.isDirectory(root.resolve(d))) {
                try (Stream<Path> s = Files.list(root.resolve(d))) {
                    s.forEach(left::add);
                }
            }
        }
        assertEquals(List.of(), left);
    }

    @Test
    void theHostsSealerRunsOnDaemonThreadsNamedSpectrumBusSeal() throws Exception {
        ExecutorService e = BusHost.sealingExecutor();
        try {
            Thread t = e.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
            assertTrue(t.getName().startsWith("spectrum-bus-seal-"), t.getName());
            assertTrue(t.isDaemon());
        } finally {
            e.shutdownNow();
        }
    }
}
