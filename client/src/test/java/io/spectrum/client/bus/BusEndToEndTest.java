package io.spectrum.client.bus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.link.local.LocalLink;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.wide.Grants;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.bus.protocol.SubscriptionMode;
import io.spectrum.wire.BusError;
import java.net.UnixDomainSocketAddress;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The host bus end to end: {@link BusClient}s against a running {@link BusHost}, each test over
 * the in-process transport and over the Unix socket (the same frames and server code either way).
 * The state machine's rules are pinned by the bus module's tests; these pin the binding: every
 * operation reaches the bus, every refusal comes back typed, deliveries and artifacts arrive.
 */
class BusEndToEndTest {
    enum Via { IN_PROCESS, UNIX_SOCKET }

    private static final long TIMEOUT = 5_000;
    private static final byte[] NONE = new byte[0];

    @TempDir
    Path tmp;

    private BusHost host;
    private Path socket;
    private final List<BusClient> clients = new ArrayList<>();

    private void start() throws Exception {
        socket = tmp.resolve("bus.sock");
        LocalLink listener = LocalLink.listen(2, UnixDomainSocketAddress.of(socket), BusClient.linkConfig(),
                SystemClock.INSTANCE);
        host = BusHost.start(StoreConfig.builder(tmp.resolve("store")).build(), BusLimits.defaults(),
                name -> Grants.open(), List.of(listener));
    }

    private BusClient client(Via via, String name) throws Exception {
        if (host == null) {
            start();
        }
        BusClient c = via == Via.IN_PROCESS
                ? BusClient.connect(new InProcessTransport(host.connectInProcess(name)), TIMEOUT)
                : BusClient.connect(UnixDomainSocketAddress.of(socket), name, TIMEOUT);
        clients.add(c);
        return c;
    }

    @AfterEach
    void stop() {
        clients.forEach(BusClient::close);
        if (host != null) {
            host.close();
        }
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void boundedCreditsReturnOnlyOnConsume(Via via) throws Exception {
        BusClient pub = client(via, "pub");
        BusClient sub = client(via, "sub");
        assertTrue(pub.declare("t.values", Retention.NONE).bool("declared"));
        BusSubscription s = sub.subscribe("t.values", SubscriptionMode.BOUNDED, 4, 1, false);
        for (int i = 1; i <= 3; i++) {
            BusFields r = pub.publish("t.values", text("v" + i));
            assertEquals(i, r.u64("topicSequence"));
            assertEquals(1, r.u64("subscribers"));
        }
        Message m1 = s.next(TIMEOUT);
        assertEquals("v1", text(m1.payload()));
        assertEquals(1, m1.topicSequence());
        assertNull(s.next(150), "one credit: the second waits for a consume");
        assertEquals(1, m1.consume());
        Message m2 = s.next(TIMEOUT);
        assertEquals("v2", text(m2.payload()));
        assertEquals(s.topicIncarnation(), m2.topicIncarnation());
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void refusalsArriveTypedAndTheConnectionStaysUsable(Via via) throws Exception {
        BusClient c = client(via, "app");
        BusException e = assertThrows(BusException.class, () -> c.publish("t.missing", NONE));
        assertEquals(BusError.NO_TOPIC, e.code());
        assertEquals(BusError.INVALID_ENVELOPE,
                assertThrows(BusException.class, () -> c.declare("T.upper", Retention.NONE)).code());
        assertEquals(BusError.INVALID_ENVELOPE,
                assertThrows(BusException.class, () -> c.call("topic.declare", BusFields.of().put("name", "t")
                        .put("retained", "none").put("colour", "red"))).code());
        assertEquals(BusError.INVALID_ENVELOPE,
                assertThrows(BusException.class, () -> c.call("no.such.command", BusFields.of())).code());
        assertTrue(c.declare("t.ok", Retention.LATEST).bool("declared"));
        assertEquals("app", c.clientId());
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aTenMegabyteArtifactIsHandedOverByReference(Via via) throws Exception {
        BusClient writer = client(via, "camera");
        BusClient reader = client(via, "viewer");
        writer.declare("camera.frames", Retention.NONE);
        BusSubscription frames = reader.subscribe("camera.frames", SubscriptionMode.BOUNDED, 4, 2, false);
        int size = 10 << 20;
        ArtifactWriter w = writer.allocate(size, "image/raw");
        MappedByteBuffer out = w.map();
        for (int i = 0; i < size; i++) {
            out.put(i, (byte) (i * 31 + 7));
        }
        out.force();
        // published unsealed: the bus seals it on send and the writer becomes a hold
        BusFields r = writer.publish("camera.frames", text("{\"frame\":1}"), w.attachment("frame"));
        assertEquals(1, r.u64("topicSequence"));
        Message m = frames.next(TIMEOUT);
        assertNotNull(m);
        assertEquals(1, m.artifacts().size());
        Artifact a = m.artifacts().get(0);
        assertEquals("frame", a.name());
        assertEquals(size, a.length());
        MappedByteBuffer in = a.map();
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] chunk = new byte[1 << 16];
        boolean same = true;
        for (int off = 0; off < size; off += chunk.length) {
            in.get(off, chunk);
            sha.update(chunk);
            for (int k = 0; k < chunk.length && same; k++) {
                same = chunk[k] == (byte) ((off + k) * 31 + 7);
            }
        }
        assertTrue(same, "the reader maps the writer's bytes");
        assertEquals(HexFormat.of().formatHex(sha.digest()), a.ref().digest());
        BusFields held = writer.stats();
        assertEquals(1, held.u64("sealedArtifacts"), "one object while both hold it");
        assertEquals(2, held.u64("roots"), "the writer's hold and the reader's delivery");
        assertEquals(1, writer.artifacts().size());
        assertEquals(1, writer.release(w.ownerId()));
        assertEquals(1, writer.stats().u64("sealedArtifacts"), "the reader's delivery still holds it");
        assertEquals(1, m.consume());
        BusFields after = writer.stats();
        assertEquals(0, after.u64("sealedArtifacts"));
        assertEquals(0, after.u64("storeBytes"));
        assertEquals((byte) 7, in.get(0), "a mapping outlives the collection");
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void callsCancelsAndAServiceThatDiesMidCall(Via via) throws Exception {
        BusClient service = client(via, "calc");
        BusClient caller = client(via, "ui");
        List<Request> parked = new java.util.concurrent.CopyOnWriteArrayList<>();
        String inc1 = service.serve("calc.add", 4, 4, rq -> {
            try {
                String body = text(rq.payload());
                if (body.equals("hold")) {
                    parked.add(rq); // never answered
                    return;
                }
                String[] ab = body.split("\\+");
                rq.reply(text(String.valueOf(Integer.parseInt(ab[0]) + Integer.parseInt(ab[1]))));
                rq.consume();
            } catch (BusException e) {
                throw new IllegalStateException(e);
            }
        });
        BusClient.PendingCall c1 = caller.call("calc.add", "add", text("2+3"), null);
        assertEquals(inc1, c1.serviceIncarnation());
        CallResult r1 = c1.result().get(TIMEOUT, TimeUnit.MILLISECONDS);
        assertNull(r1.failure());
        assertEquals("5", text(r1.outcome()));
        assertEquals("calc", r1.responder());
        assertEquals("completed", c1.cancel(), "a result was admitted");
        r1.consume();
        assertEquals("call-gone", c1.cancel(), "consumed: the correlation is retired");
        assertEquals(BusError.NO_SERVICE,
                assertThrows(BusException.class, () -> caller.call("calc.mul", "mul", NONE, null)).code());
        assertEquals(BusError.TARGET_CHANGED,
                assertThrows(BusException.class, () -> caller.call("calc.add", "add", text("1+1"), "svc-999")).code());

        // dispatched and never answered, then the service's process goes away
        BusClient.PendingCall c2 = caller.call("calc.add", "add", text("hold"), inc1);
        for (int i = 0; i < 100 && parked.isEmpty(); i++) {
            Thread.sleep(10);
        }
        assertEquals(1, parked.size());
        assertEquals("execution-unknown", c2.cancel(), "dispatched: cancelling cannot undo it");
        service.close();
        BusClient.PendingCall c3;
        BusClient again = client(via, "calc2");
        String inc2 = again.serve("calc.add", 4, 4, rq -> {
            try {
                rq.reply(text("again"));
            } catch (BusException e) {
                throw new IllegalStateException(e);
            }
        });
        assertNotEquals(inc1, inc2, "a new registration is a new incarnation");
        c3 = caller.call("calc.add", "add", text("1+2"), null);
        assertEquals("again", text(c3.result().get(TIMEOUT, TimeUnit.MILLISECONDS).outcome()));
        assertEquals(BusError.TARGET_CHANGED,
                assertThrows(BusException.class, () -> caller.call("calc.add", "add", NONE, inc1)).code());
        List<String> services = new ArrayList<>();
        for (BusFields f : caller.services()) {
            services.add(f.string("name") + "@" + f.string("serviceIncarnation") + " " + f.string("holder"));
        }
        assertEquals(List.of("calc.add@" + inc2 + " calc2"), services);
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aCallQueuedBehindAFullServiceIsCancelledBeforeDispatch(Via via) throws Exception {
        BusClient service = client(via, "slow");
        BusClient caller = client(via, "impatient");
        List<Request> got = new java.util.concurrent.CopyOnWriteArrayList<>();
        service.serve("slow.op", 4, 1, got::add); // one in flight: the second call waits in the queue
        BusClient.PendingCall first = caller.call("slow.op", "op", text("1"), null);
        for (int i = 0; i < 200 && got.isEmpty(); i++) {
            Thread.sleep(10);
        }
        assertEquals(1, got.size());
        BusClient.PendingCall second = caller.call("slow.op", "op", text("2"), null);
        assertEquals("cancelled-before-dispatch", second.cancel(), "queued: no invocation happened");
        assertEquals("execution-unknown", first.cancel(), "dispatched: cancelling cannot undo it");
        CallResult cancelled = second.result().get(TIMEOUT, TimeUnit.MILLISECONDS);
        assertEquals(BusError.CALL_GONE, cancelled.failure().code(), "nobody is left waiting for a cancelled call");
        assertEquals(io.spectrum.wire.Dispatch.NOT_DISPATCHED, cancelled.failure().dispatch());
        assertEquals(io.spectrum.wire.Dispatch.UNKNOWN,
                first.result().get(TIMEOUT, TimeUnit.MILLISECONDS).failure().dispatch());
        Thread.sleep(100);
        assertEquals(1, got.size(), "the cancelled call never reached the service");
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void theServiceDyingMidCallFailsTheCallWithTheLostIncarnation(Via via) throws Exception {
        BusClient service = client(via, "worker");
        BusClient caller = client(via, "boss");
        List<Request> got = new java.util.concurrent.CopyOnWriteArrayList<>();
        String inc = service.serve("work.run", 4, 4, got::add);
        BusClient.PendingCall c = caller.call("work.run", "run", text("job"), inc);
        for (int i = 0; i < 200 && got.isEmpty(); i++) {
            Thread.sleep(10);
        }
        assertEquals(1, got.size(), "dispatched to the service");
        service.close();
        CallResult r = c.result().get(TIMEOUT, TimeUnit.MILLISECONDS);
        assertNotNull(r.failure(), "the caller is told");
        assertEquals(inc, r.serviceIncarnation(), "naming the incarnation that died");
        assertEquals(io.spectrum.wire.Dispatch.UNKNOWN, r.failure().dispatch(), "it may have run");
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void shutdownClosesEverySubscriptionThenTheConnection(Via via) throws Exception {
        BusClient pub = client(via, "pub");
        pub.declare("t.a", Retention.LATEST);
        BusSubscription s = pub.subscribe("t.a", SubscriptionMode.LATEST, 1, 1, false);
        host.close();
        host = null;
        for (int i = 0; i < 200 && s.closedReason() == null; i++) {
            Thread.sleep(10);
        }
        assertEquals("router-stopping", s.closedReason());
        boolean closing = false;
        for (int i = 0; i < 200 && !closing; i++) {
            closing = pub.notices().stream().anyMatch(f -> f.has("code") && !f.has("callId"));
            Thread.sleep(10);
        }
        assertTrue(closing, "connection.closing arrives after the subscription notices");
        assertEquals(BusError.ROUTER_LOST, assertThrows(BusException.class, () -> pub.stats()).code());
    }

    /** Publishes one 64-byte artifact filled with {@code fill} as attachment {@code frame}; returns the writer's hold. */
    private static String publishFrame(BusClient pub, String topic, int fill) throws Exception {
        ArtifactWriter w = pub.allocate(64, "image/raw");
        MappedByteBuffer out = w.map();
        for (int i = 0; i < 64; i++) {
            out.put(i, (byte) fill);
        }
        out.force();
        pub.publish(topic, text("{\"fill\":" + fill + "}"), w.attachment("frame"));
        return w.ownerId();
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void deliveryGuard_anExtractedArtifactHoldsTheCreditAfterTheMessageIsClosed(Via via) throws Exception {
        BusClient pub = client(via, "camera");
        BusClient sub = client(via, "viewer");
        pub.declare("t.frames", Retention.NONE);
        BusSubscription s = sub.subscribe("t.frames", SubscriptionMode.BOUNDED, 4, 1, false);
        pub.release(publishFrame(pub, "t.frames", 7), publishFrame(pub, "t.frames", 9));
        Message m1 = s.next(TIMEOUT);
        Artifact frame = m1.extract("frame");
        assertEquals(0, m1.consume(), "the extracted frame still uses the delivery: nothing is released");
        assertFalse(m1.isConsumed());
        assertNull(s.next(150), "the one credit stays out while the extracted frame is open");
        assertEquals(2, pub.stats().u64("sealedArtifacts"), "frame 1 lives on through its delivery");
        assertEquals((byte) 7, frame.map().get(63), "the extracted frame reads after its message was closed");
        assertEquals(1, frame.release(), "closing the last use consumes the delivery: its root goes");
        assertTrue(m1.isConsumed());
        assertEquals(0, frame.release(), "closing twice changes nothing");
        Message m2 = s.next(TIMEOUT);
        assertNotNull(m2, "the credit came back with the consume");
        assertEquals(2, m2.topicSequence());
        assertEquals(1, pub.stats().u64("sealedArtifacts"), "frame 1 was collected");
        m2.close();
        assertEquals(0, pub.stats().u64("sealedArtifacts"));
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void deliveryGuard_aRetainHoldNeitherHoldsTheCreditNorGoesWithTheDelivery(Via via) throws Exception {
        BusClient pub = client(via, "camera");
        BusClient sub = client(via, "viewer");
        pub.declare("t.frames", Retention.NONE);
        BusSubscription s = sub.subscribe("t.frames", SubscriptionMode.BOUNDED, 4, 1, false);
        pub.release(publishFrame(pub, "t.frames", 7), publishFrame(pub, "t.frames", 9));
        Message m1 = s.next(TIMEOUT);
        Artifact hold = m1.artifacts().get(0).retain();
        assertEquals(1, m1.consume(), "the hold is no share of the guard: closing the message consumes the delivery");
        assertTrue(m1.isConsumed());
        Message m2 = s.next(TIMEOUT);
        assertNotNull(m2, "the credit came back although the hold is open");
        assertEquals(2, pub.stats().u64("sealedArtifacts"), "frame 1 lives on through the hold alone");
        assertEquals((byte) 7, hold.map().get(0));
        assertEquals(1, hold.release(), "the hold goes by its own release");
        assertEquals(1, pub.stats().u64("sealedArtifacts"));
        m2.consume();
        assertEquals(0, pub.stats().u64("sealedArtifacts"));
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void latestReplacesTheUndeliveredValueAndCountsIt(Via via) throws Exception {
        BusClient pub = client(via, "pub");
        BusClient sub = client(via, "sub");
        pub.declare("t.pose", Retention.LATEST);
        pub.publish("t.pose", text("p0"));
        BusSubscription s = sub.subscribe("t.pose", SubscriptionMode.LATEST, 1, 1, true);
        Message first = s.next(TIMEOUT);
        assertEquals("p0", text(first.payload()), "the retained value replays");
        for (int i = 1; i <= 4; i++) {
            pub.publish("t.pose", text("p" + i));
        }
        first.consume();
        Message next = s.next(TIMEOUT);
        assertEquals("p4", text(next.payload()));
        assertEquals(3, next.replaced());
        assertArrayEquals(text("p4"), next.payload());
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void callsFromSeveralThreadsOfOneClientAreAllAdmitted(Via via) throws Exception {
        BusClient service = client(via, "echo");
        BusClient caller = client(via, "many");
        service.serve("t.echo", 16, 16, rq -> {
            try {
                rq.reply(rq.payload());
                rq.consume();
            } catch (BusException e) {
                throw new IllegalStateException(e);
            }
        });
        // the bus refuses a call id at or below the highest it saw; ids must leave in order
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger answered = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            String me = "t" + t;
            Thread th = new Thread(() -> {
                try {
                    for (int k = 0; k < 50; k++) {
                        CallResult r = caller.call("t.echo", "echo", text(me + "/" + k), null).result()
                                .get(TIMEOUT, TimeUnit.MILLISECONDS);
                        if (r.failure() != null) {
                            throw r.failure();
                        }
                        assertEquals(me + "/" + k, text(r.outcome()));
                        r.consume();
                        answered.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join(30_000);
        }
        assertEquals(List.of(), failures);
        assertEquals(400, answered.get());
    }
}
