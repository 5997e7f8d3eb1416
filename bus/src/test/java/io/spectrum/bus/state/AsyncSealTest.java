package io.spectrum.bus.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import io.spectrum.wide.Grants;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.time.ManualClock;
import io.spectrum.wire.BusError;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.spectrum.bus.protocol.ArtifactFiles;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusFrames;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.bus.protocol.BusWire;
import io.spectrum.bus.server.BusServer;
import io.spectrum.bus.store.FileArtifactStore;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.link.local.InProcessLink;

/**
 * Seals off the bus thread (BusServer with a held executor, over the in-process link, on a real
 * FileArtifactStore): the seal's job is captured and runs only when the test says, so everything
 * asserted "while the seal runs" is deterministic and single-threaded.
 */
class AsyncSealTest {
    private static final int LARGE = 8 << 20;

    @TempDir
    Path tmp;

    /** The seal jobs handed to the sealer, not yet run. */
    private final ArrayDeque<Runnable> held = new ArrayDeque<>();
    private FileArtifactStore store;
    private HostBus bus;
    private BusServer server;
    private InProcessLink link;
    private final List<Raw> clients = new ArrayList<>();

    /** A client speaking raw frames: requests go out without waiting, frames are collected each turn. */
    final class Raw {
        final InProcessLink.End end;
        final List<BusFrames.Decoded> got = new ArrayList<>();
        private int n;

        Raw(String name) {
            end = link.connect(name);
            clients.add(this);
        }

        String send(String command, BusFields f) {
            String route = "/t/r/" + (++n);
            assertEquals(0, end.send(BusFrames.request(command, route, f), 0,
                    BusFrames.request(command, route, f).length));
            return route;
        }

        void collect() throws BusException {
            for (byte[] b; (b = end.poll()) != null; ) {
                got.add(BusFrames.decode(b, 0, b.length));
            }
        }

        /** The reply to {@code route}, or null when none came yet. */
        BusFrames.Decoded reply(String route) {
            for (BusFrames.Decoded d : got) {
                if (d.isReply() && d.dst().equals(route)) {
                    return d;
                }
            }
            return null;
        }

        int indexOf(String route) {
            for (int i = 0; i < got.size(); i++) {
                if (got.get(i).isReply() && got.get(i).dst().equals(route)) {
                    return i;
                }
            }
            return -1;
        }

        /** The reply's fields; fails on a refusal or no reply. */
        BusFields ok(String route) throws BusException {
            BusFrames.Decoded d = reply(route);
            assertNotNull(d, "no reply to " + route);
            if (d.error() != null) {
                throw d.error();
            }
            return d.fields();
        }

        BusError refused(String route) {
            BusFrames.Decoded d = reply(route);
            assertNotNull(d, "no reply to " + route);
            assertNotNull(d.error(), "expected a refusal for " + route);
            return d.error().code();
        }

        /** Sends, runs the server and returns the reply's fields. */
        BusFields call(String command, BusFields f) throws BusException {
            String r = send(command, f);
            turn();
            return ok(r);
        }

        List<BusFrames.Decoded> events(String kind) {
            List<BusFrames.Decoded> out = new ArrayList<>();
            for (BusFrames.Decoded d : got) {
                if (!d.isReply() && kind.equals(d.command())) {
                    out.add(d);
                }
            }
            return out;
        }
    }

    /** A writer's staging, written. */
    record Staged(long artifactId, String ownerId, byte[] data) {
    }

    void start() throws BusException {
        start(BusLimits.defaults());
    }

    void start(BusLimits limits) throws BusException {
        store = FileArtifactStore.open(StoreConfig.builder(tmp.resolve("store")).build());
        bus = new HostBus(store, new ManualClock(0), limits);
        server = new BusServer(bus, store, id -> Grants.open(), held::add);
        link = BusServer.inProcessLink(1, 64, limits);
        server.attach(link);
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    /** One server turn, then every client collects what arrived. */
    void turn() throws BusException {
        server.doWork();
        for (Raw c : clients) {
            c.collect();
        }
    }

    /** Runs the oldest held seal job (on this thread) and one server turn. */
    void runHeldJob() throws BusException {
        Runnable r = held.poll();
        assertNotNull(r, "no seal job was handed to the sealer");
        r.run();
        turn();
    }

    Staged staged(Raw c, int length, long seed) throws Exception {
        BusFields a = c.call("artifact.allocate", BusFields.of().put("byteLength", length)
                .put("contentType", "application/octet-stream"));
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        try (FileChannel ch = ArtifactFiles.openForWrite(store.root(), a.string("writeLocation"))) {
            ByteBuffer b = ByteBuffer.wrap(data);
            while (b.hasRemaining()) {
                ch.write(b, b.position());
            }
        }
        return new Staged(a.u64("artifactId"), a.string("ownerId"), data);
    }

    static BusFields sealFields(Staged s, String digest) {
        BusFields f = BusFields.of().put("artifactId", s.artifactId()).put("generation", 1).put("ownerId", s.ownerId());
        return digest == null ? f : f.put("digest", digest);
    }

    /** A publish naming the writer itself (empty digest): sealed on send. */
    BusFields publishWriter(String topic, String payload, Staged s, String digest) {
        ArtifactRef ref = new ArtifactRef(store.storeId(), s.artifactId(), 1, s.data().length, digest);
        return BusFields.of().put("topic", topic).putBytes("payload", payload.getBytes(StandardCharsets.UTF_8))
                .putRecords("attachments", List.of(BusWire.attachment("frame", ref, s.ownerId())));
    }

    static BusFields publishText(String topic, String payload) {
        return BusFields.of().put("topic", topic).putBytes("payload", payload.getBytes(StandardCharsets.UTF_8));
    }

    static BusFields subscribe(String topic) {
        return BusFields.of().put("topic", topic).put("mode", "bounded").put("maxQueued", 8).put("maxInFlight", 8)
                .put("replayLatest", false);
    }

    List<Path> storeFiles() throws Exception {
        List<Path> out = new ArrayList<>();
        for (String d : List.of(ArtifactFiles.STAGING_DIR, ArtifactFiles.SEALED_DIR)) {
            Path dir = store.root().resolve(d);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> s = Files.list(dir)) {
                    s.forEach(out::add);
                }
            }
        }
        return out;
    }

    void assertNothingLeft() throws Exception {
        assertEquals(List.of(), storeFiles());
        assertEquals(0, store.inUse());
        assertEquals(0, store.objects());
        BusStats st = bus.stats();
        assertEquals(0, st.storeBytes());
        assertEquals(0, st.owners());
        assertEquals(0, st.sealedArtifacts());
        assertEquals(0, st.roots());
    }

    @Test
    void otherConnectionsAreServedWhileALargeSealRuns() throws Exception {
        start();
        Raw writer = new Raw("writer");
        Raw other = new Raw("other");
        Raw viewer = new Raw("viewer");
        Raw service = new Raw("calc");
        Staged s = staged(writer, LARGE, 1);
        String seal = writer.send("artifact.seal", sealFields(s, null));
        turn();
        assertNull(writer.reply(seal), "the seal is answered only once its job has run");
        assertEquals(1, held.size());
        assertEquals(2L * LARGE, store.inUse(), "the staging and the copy's hold");

        other.call("topic.declare", BusFields.of().put("name", "news").put("retained", "none"));
        viewer.call("subscribe", subscribe("news"));
        assertEquals(1, other.call("publish", publishText("news", "hello")).u64("topicSequence"));
        turn();
        assertEquals(1, viewer.events("topic.message").size());
        service.call("service.register", BusFields.of().put("name", "calc.add").put("maxQueued", 4)
                .put("maxInFlight", 4));
        other.call("rpc.call", BusFields.of().put("callId", "call-1").put("target", "calc.add").put("method", "call")
                .putBytes("payload", "2+3".getBytes(StandardCharsets.UTF_8)));
        turn();
        BusFrames.Decoded req = service.events("rpc.request").get(0);
        service.call("rpc.reply", BusFields.of().put("callId", "call-1")
                .put("requestDeliveryId", req.fields().string("deliveryId"))
                .putBytes("outcome", "5".getBytes(StandardCharsets.UTF_8)));
        turn();
        assertEquals("5", new String(other.events("rpc.result").get(0).fields().bytes("outcome"), StandardCharsets.UTF_8));
        assertNull(writer.reply(seal), "still parked: its job has not run");

        runHeldJob();
        ArtifactRef ref = BusWire.ref(writer.ok(seal).record("ref"));
        assertEquals(MemoryArtifactStore.sha256(s.data()), ref.digest());
        assertEquals(s.ownerId(), writer.ok(seal).string("ownerId"));
        assertEquals(LARGE, store.inUse());
        assertEquals(1, store.objects());
        assertTrue(Files.notExists(store.root().resolve(ArtifactFiles.stagingLocation(s.artifactId(), 1))));
    }

    @Test
    void theSealingConnectionsNextCommandIsAnsweredAfterTheSeal() throws Exception {
        start();
        Raw writer = new Raw("writer");
        Staged s = staged(writer, LARGE, 2);
        String seal = writer.send("artifact.seal", sealFields(s, MemoryArtifactStore.sha256(s.data())));
        String stats = writer.send("bus.stats", BusFields.of());
        turn();
        assertNull(writer.reply(seal));
        assertNull(writer.reply(stats), "a command behind a running seal waits for it");

        runHeldJob();
        assertTrue(writer.indexOf(seal) >= 0);
        assertTrue(writer.indexOf(seal) < writer.indexOf(stats), "answered in the order sent");
        assertEquals(1, writer.ok(stats).u64("sealedArtifacts"), "the parked command ran after the seal");
    }

    @Test
    void sealOnSendKeepsTheSendersTopicOrder() throws Exception {
        start();
        Raw writer = new Raw("writer");
        Raw other = new Raw("other");
        Raw viewer = new Raw("viewer");
        writer.call("topic.declare", BusFields.of().put("name", "frames").put("retained", "latest"));
        viewer.call("subscribe", subscribe("frames"));
        Staged s = staged(writer, LARGE, 3);
        String first = writer.send("publish", publishWriter("frames", "first", s, ""));
        String second = writer.send("publish", publishText("frames", "second"));
        turn();
        assertNull(writer.reply(first));
        assertNull(writer.reply(second));
        assertEquals(1, other.call("publish", publishText("frames", "between")).u64("topicSequence"),
                "another connection publishes while the seal runs");

        runHeldJob();
        assertEquals(2, writer.ok(first).u64("topicSequence"));
        assertEquals(3, writer.ok(second).u64("topicSequence"));
        turn();
        List<String> seen = new ArrayList<>();
        for (BusFrames.Decoded d : viewer.events("topic.message")) {
            seen.add(d.fields().u64("topicSequence") + ":" + new String(d.fields().bytes("payload"), StandardCharsets.UTF_8));
        }
        assertEquals(List.of("1:between", "2:first", "3:second"), seen);
        assertEquals(1, store.objects());
        assertEquals(4, bus.stats().owners(), "the writer became a hold, beside the viewer's three deliveries");
    }

    @Test
    void theConnectionClosingBeforeItsJobRunsLeavesNothing() throws Exception {
        start();
        Raw writer = new Raw("writer");
        Staged s = staged(writer, LARGE, 4);
        writer.send("artifact.seal", sealFields(s, null));
        turn();
        writer.end.close();
        turn();
        assertEquals(0, bus.stats().connections());
        runHeldJob();
        assertNothingLeft();
    }

    @Test
    void theConnectionClosingAfterItsJobRanLeavesNothing() throws Exception {
        start();
        Raw writer = new Raw("writer");
        Staged s = staged(writer, LARGE, 5);
        writer.send("publish", publishWriter("nowhere", "x", s, "")); // NO_TOPIC: refused before any seal
        turn();
        writer.call("topic.declare", BusFields.of().put("name", "t").put("retained", "latest"));
        writer.send("publish", publishWriter("t", "x", s, ""));
        turn();
        held.poll().run();
        assertTrue(Files.exists(store.root().resolve(ArtifactFiles.sealedLocation(s.artifactId(), 1))),
                "the job made its copy");
        writer.end.close();
        turn();
        assertTrue(held.isEmpty());
        assertNothingLeft();
    }

    @Test
    void theBusShuttingDownMidSealLeavesNothing() throws Exception {
        start();
        Raw writer = new Raw("writer");
        Staged s = staged(writer, LARGE, 6);
        String seal = writer.send("artifact.seal", sealFields(s, null));
        turn();
        server.shutdown();
        runHeldJob();
        assertNull(writer.reply(seal), "the bus stopped: no answer after its closing notices");
        assertEquals(1, writer.events("connection.closing").size());
        assertNothingLeft();
    }

    @Test
    void aDigestMismatchReachedAsynchronouslyIsArtifactMismatch() throws Exception {
        start();
        Raw writer = new Raw("writer");
        Staged s = staged(writer, LARGE, 7);
        String seal = writer.send("artifact.seal", sealFields(s, "00".repeat(32)));
        turn();
        assertNull(writer.reply(seal));
        runHeldJob();
        assertEquals(BusError.ARTIFACT_MISMATCH, writer.refused(seal));
        assertEquals(0, writer.call("artifact.release", BusFields.of().putStrings("ownerIds", List.of(s.ownerId())))
                .u64("released"), "the writer was retired with its staging");
        assertNothingLeft();

        writer.call("topic.declare", BusFields.of().put("name", "t").put("retained", "none"));
        Staged s2 = staged(writer, 1 << 20, 8);
        String pub = writer.send("publish", publishWriter("t", "x", s2, "11".repeat(32)));
        turn();
        runHeldJob();
        assertEquals(BusError.ARTIFACT_MISMATCH, writer.refused(pub));
        assertEquals(1, writer.call("publish", publishText("t", "y")).u64("topicSequence"),
                "the refused publish took no sequence number");
        assertNothingLeft();
    }

    @Test
    void aPublishRefusedWhenItsSealEndsLeavesTheWriterUnsealed() throws Exception {
        start();
        Raw writer = new Raw("writer");
        Raw other = new Raw("other");
        Raw viewer = new Raw("viewer");
        other.call("topic.declare", BusFields.of().put("name", "t").put("retained", "none"));
        viewer.call("subscribe", BusFields.of().put("topic", "t").put("mode", "bounded").put("maxQueued", 1)
                .put("maxInFlight", 1).put("replayLatest", false));
        Staged s = staged(writer, LARGE, 9);
        String pub = writer.send("publish", publishWriter("t", "x", s, ""));
        turn();
        other.call("publish", publishText("t", "takes the credit"));
        other.call("publish", publishText("t", "fills the queue"));
        runHeldJob();
        assertEquals(BusError.BACKPRESSURE, writer.refused(pub), "the publish is re-checked when its seal ends");
        assertEquals(0, store.objects());
        assertEquals(LARGE, store.inUse(), "only the staging: the copy went");
        assertTrue(Files.notExists(store.root().resolve(ArtifactFiles.sealedLocation(s.artifactId(), 1))));

        String seal = writer.send("artifact.seal", sealFields(s, null));
        turn();
        runHeldJob();
        assertEquals(MemoryArtifactStore.sha256(s.data()), BusWire.ref(writer.ok(seal).record("ref")).digest(),
                "the writer was still an unsealed writer");
    }

    @Test
    void tooManyFramesBehindARunningSealCloseTheConnection() throws Exception {
        start();
        Raw writer = new Raw("writer");
        Staged s = staged(writer, 4096, 10);
        writer.send("artifact.seal", sealFields(s, null));
        turn();
        for (int i = 0; i <= BusServer.MAX_PARKED_FRAMES; i++) {
            writer.send("bus.stats", BusFields.of());
        }
        for (int i = 0; i < 20; i++) {
            turn();
        }
        List<BusFrames.Decoded> closing = writer.events("connection.closing");
        assertEquals(1, closing.size());
        assertEquals(BusError.BACKPRESSURE, BusWire.code(closing.get(0).fields()));
        runHeldJob();
        assertNothingLeft();
    }

    @Test
    void requestsWaitingBehindSealsAreBoundedAcrossConnections_theOneOverTheBudgetIsRefusedAndNoneWaitingIsLost()
            throws Exception {
        BusLimits limits = BusLimits.builder().maxReceiveBytes(BusLimits.defaults().maxFrameBytes()).build();
        start(limits);
        Raw a = new Raw("writer.a");
        Raw b = new Raw("writer.b");
        a.call("topic.declare", BusFields.of().put("name", "t.wait").put("retained", "none"));
        Staged sa = staged(a, 4096, 1);
        Staged sb = staged(b, 4096, 2);
        a.send("artifact.seal", sealFields(sa, null));
        b.send("artifact.seal", sealFields(sb, null));
        turn();
        byte[] third = new byte[limits.maxFrameBytes() / 3];
        String a1 = a.send("publish", BusFields.of().put("topic", "t.wait").putBytes("payload", third));
        String b1 = b.send("publish", BusFields.of().put("topic", "t.wait").putBytes("payload", third));
        turn();
        String b2 = b.send("publish", BusFields.of().put("topic", "t.wait").putBytes("payload", third));
        turn();
        assertEquals(BusError.BACKPRESSURE, b.refused(b2), "over the budget of both connections' waiting requests");
        assertNull(a.reply(a1));
        assertNull(b.reply(b1));
        assertTrue(a.events("connection.closing").isEmpty() && b.events("connection.closing").isEmpty());
        runHeldJob();
        runHeldJob();
        a.ok(a1);
        b.ok(b1);
        String b3 = b.send("publish", BusFields.of().put("topic", "t.wait").putBytes("payload", third));
        turn();
        b.ok(b3);
    }

    @Test
    void aRefusedBeginIsAnsweredAtOnceAsBefore() throws Exception {
        start();
        Raw writer = new Raw("writer");
        Staged s = staged(writer, 4096, 11);
        String bad = writer.send("artifact.seal", sealFields(s, "NOT-HEX"));
        turn();
        assertEquals(BusError.INVALID_ENVELOPE, writer.refused(bad));
        assertTrue(held.isEmpty());
        assertEquals(4096, store.inUse());
        assertFalse(Files.exists(store.root().resolve(ArtifactFiles.sealedLocation(s.artifactId(), 1))));
    }
}
