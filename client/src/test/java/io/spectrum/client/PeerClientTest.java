package io.spectrum.client;

import io.spectrum.testing.MemoryLink;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Request/reply matching, typed refusals and timeouts against a NarrowNode in this thread. */
class PeerClientTest {
    @Test
    void writeThenReadMatchesTheReplyByItsRoute() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/sensor/temp", 1, 4);
            // a REPLY to another route arrives first: it must not be taken for ours
            f.clientEnd.inject(Requests.fwd(FwdView.OP_REPLY, Requests.path("/t/r/99"), null, Requests.path("/x"),
                    NodeFixture.value(FwdView.KIND_RESULT, 1), NodeFixture.value(9, 1)));
            Reply w = f.client.write("/sensor/temp", NodeFixture.value(1234, 4));
            assertTrue(w.ok(), w.toString());
            assertTrue(w.answered());
            assertNull(w.value(), "a WRITE acknowledgement carries no payload");
            Reply r = f.client.read("/sensor/temp");
            assertTrue(r.ok(), r.toString());
            assertArrayEquals(NodeFixture.value(1234, 4), r.value());
        }
    }

    @Test
    void eachRequestHasItsOwnReplyRoute() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/a", 1, 1);
            List<String> srcs = new ArrayList<>();
            FrameDecoder d = new FrameDecoder();
            TlvIndex x = new TlvIndex(64, 8);
            FwdView v = new FwdView();
            f.client.setTap((out, buf, off, len) -> {
                if (out && d.decode(buf, off, len, x) == WireError.OK && v.wrap(x, 0) == WireError.OK) {
                    srcs.add(io.spectrum.node.api.NodePath.render(buf, x.bodyOffset(v.src()), x.bodyLength(v.src())));
                }
            });
            assertTrue(f.client.read("/a").ok());
            assertTrue(f.client.read("/a").ok());
            assertEquals(List.of("/t/r/1", "/t/r/2"), srcs);
        }
    }

    @Test
    void aRefusalIsTheNodesTypedCode() {
        try (NodeFixture f = new NodeFixture()) {
            Reply r = f.client.read("/nope");
            assertTrue(r.isError());
            assertTrue(r.answered());
            assertEquals(WireError.PATH_NOT_FOUND, r.code());
            Reply w = f.client.write("/nope", NodeFixture.value(1, 1));
            assertEquals(WireError.PATH_NOT_FOUND, w.code(), "a remote write never creates a path");
        }
    }

    @Test
    void silenceIsALocalTimeoutNotAnException() {
        MemoryLink[] p = MemoryLink.pair(); // nobody polls the other end
        PeerClient c = new PeerClient(new LinkTransport(p[1], 0), Duration.ofMillis(20), "/t/r/");
        Reply r = c.read("/x");
        assertEquals(WireError.FLOW_TIMEOUT, r.code());
        assertFalse(r.answered());
        assertFalse(r.isError());
    }

    @Test
    void aClosedTransportIsALocalRefusal() {
        MemoryLink[] p = MemoryLink.pair();
        p[0].close();
        PeerClient c = new PeerClient(new LinkTransport(p[1], 0), Duration.ofMillis(20), "/t/r/");
        Reply r = c.read("/x");
        assertEquals(WireError.TRANSPORT_DOWN, r.code());
        assertFalse(r.answered());
    }

    @Test
    void awaitAnswersTheNextValue() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/v", 1, 1);
            f.client.onPump(() -> {
                f.node.poll();
                f.node.write(io.spectrum.node.api.NodePath.of("/v"), NodeFixture.value(2, 1), 0, 5);
            });
            Reply r = f.client.await("/v", Duration.ofSeconds(1).toNanos());
            assertTrue(r.ok(), r.toString());
            assertArrayEquals(NodeFixture.value(2, 1), r.value());
        }
    }

    @Test
    void deliveriesGoToTheSinkWithTheirStamp() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/v", 1, 1);
            DeliveryLog log = new DeliveryLog();
            f.client.onDelivery(log);
            assertTrue(f.client.subscribe("/v", "/t/s/plain", -1, false).ok());
            assertTrue(f.client.subscribe("/v", "/t/s/stamped", -1, true).ok());
            long t0 = System.nanoTime();
            assertTrue(f.client.write("/v", NodeFixture.value(7, 1)).ok());
            List<Delivery> plain = log.await(f.client, "/t/s/plain", t0, 1, f.client.timeout());
            List<Delivery> stamped = log.await(f.client, "/t/s/stamped", t0, 1, f.client.timeout());
            assertEquals(1, plain.size());
            assertArrayEquals(NodeFixture.value(7, 1), plain.get(0).value());
            assertTrue(plain.get(0).srcEmpty());
            assertFalse(plain.get(0).stamped());
            assertEquals(1, stamped.size());
            assertTrue(stamped.get(0).stamped());
            assertEquals(f.node.sequence(io.spectrum.node.api.NodePath.of("/v")), stamped.get(0).seq());
            assertFalse(stamped.get(0).stale());
            assertFalse(stamped.get(0).deleted());
        }
    }

    @Test
    void aStaleMark_reachesTheDeliveryAndTheStampedRead_withItsReason() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/v", 1, 1);
            DeliveryLog log = new DeliveryLog();
            f.client.onDelivery(log);
            assertTrue(f.client.subscribe("/v", "/t/s/stamped", -1, true).ok());
            Reply fresh = f.client.readStamped("/v");
            assertTrue(fresh.stamped());
            assertEquals(1, fresh.seq());
            assertFalse(fresh.stale());
            assertEquals(null, fresh.staleReason());
            assertFalse(f.client.read("/v").stamped(), "a plain read asks for no stamp");

            long t0 = System.nanoTime();
            assertEquals(0, f.node.markStale(io.spectrum.node.api.NodePath.of("/v"), "sensor: no answer"));
            List<Delivery> d = log.await(f.client, "/t/s/stamped", t0, 1, f.client.timeout());
            assertEquals(1, d.size());
            assertTrue(d.get(0).stale());
            assertEquals("sensor: no answer", d.get(0).reason());
            Reply stale = f.client.readStamped("/v");
            assertArrayEquals(NodeFixture.value(1, 1), stale.value());
            assertTrue(stale.stale());
            assertEquals("sensor: no answer", stale.staleReason());

            f.client.announceExtensions("reader"); // the ask rides in the announcement's SETTINGS
            Reply announced = f.client.readStamped("/v");
            assertTrue(announced.stale());
            assertEquals("sensor: no answer", announced.staleReason());
        }
    }

    @Test
    void aSubtreeSubscriberThatAskedLearnsWhichChildChanged() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/board1/temp", 1, 2);
            f.set("/board1/humidity", 1, 2);
            DeliveryLog log = new DeliveryLog();
            f.client.onDelivery(log);
            int withPath = io.spectrum.wire.Names.TOPIC_STAMP | io.spectrum.wire.Names.TOPIC_WITH_PATH;
            assertTrue(f.client.subscribe("/board1", "/t/s/tree", -1, withPath).ok());
            assertTrue(f.client.subscribe("/board1", "/t/s/stamp", -1, true).ok());
            long t0 = System.nanoTime();
            f.set("/board1/temp", 2328, 2);
            f.set("/board1/humidity", 455, 2);
            List<Delivery> tree = log.await(f.client, "/t/s/tree", t0, 2, f.client.timeout());
            List<Delivery> stamp = log.await(f.client, "/t/s/stamp", t0, 2, f.client.timeout());
            assertEquals(List.of("/board1/temp", "/board1/humidity"), tree.stream().map(Delivery::source).toList());
            assertArrayEquals(NodeFixture.value(2328, 2), tree.get(0).value());
            assertEquals(2, stamp.size());
            assertEquals(null, stamp.get(0).source(), "stamp without the path bit: no source");
            assertTrue(stamp.get(0).stamped());
        }
    }
}
