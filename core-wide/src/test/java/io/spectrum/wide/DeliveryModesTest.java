package io.spectrum.wide;

import static io.spectrum.wide.ModeWire.appendField;
import static io.spectrum.wide.ModeWire.consumed;
import static io.spectrum.wide.ModeWire.fwd;
import static io.spectrum.wide.ModeWire.inflight;
import static io.spectrum.wide.ModeWire.mode;
import static io.spectrum.wide.ModeWire.policy;
import static io.spectrum.wide.ModeWire.queue;
import static io.spectrum.wide.ModeWire.record;
import static io.spectrum.wide.ModeWire.slotField;
import static io.spectrum.wide.ModeWire.topic;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.ModeWire.Frame;
import io.spectrum.wide.ModeWire.Pair;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Delivery modes on a {@link WideNode}'s ordinary FWD subscriptions (docs/extensions.md "Delivery
 * modes"): a remote peer appends a SUBSCRIBER whose qos says {@code spectrum.mode} latest or bounded
 * over a link, the owner (or a remote publisher) writes, and the test reads what the link carried.
 * Subscribers are told apart by their routes; each peer is a handle on one {@link MemoryLink}.
 */
class DeliveryModesTest {
    static final int SUB = 1;
    static final int OTHER = 2;
    static final int PUB = 3;
    static final byte[] ROUTE = NodePath.of("/sub/a").tlv();
    static final byte[] ROUTE_B = NodePath.of("/sub/b").tlv();
    static final byte[] PLAIN = NodePath.of("/sub/plain").tlv();
    static final byte[] PUB_EP = NodePath.of("/pub/ep").tlv();

    final ManualClock clock = new ManualClock(0);
    final WideNode node = new WideNode(WideNode.hostConfig().clock(clock).peerDeliveriesPerSecond(0).build());
    final MemoryLink link = MemoryLink.pair()[0];
    final NodePath t = NodePath.of("/sensor/temp");
    int seen;
    /** Every frame the last {@link #request} made the node send (its reply and any deliveries). */
    List<Frame> last = List.of();

    DeliveryModesTest() {
        assertEquals(WireError.OK, node.attach(link));
        assertEquals(WireError.OK, node.write(t, Tlv.value(0, 1), 0, 5)); // the vertex exists (seq 1, retained 0)
    }

    /** The frames sent since the last call. */
    List<Frame> fresh() {
        List<Frame> out = new ArrayList<>();
        List<byte[]> sent = link.sent();
        for (; seen < sent.size(); seen++) {
            out.add(new Frame(sent.get(seen)));
        }
        return out;
    }

    /** The deliveries among {@code fs} at route {@code r}. */
    static List<Frame> to(List<Frame> fs, byte[] r) {
        List<Frame> out = new ArrayList<>();
        for (Frame f : fs) {
            if (f.isDelivery() && Arrays.equals(f.dst, r)) {
                out.add(f);
            }
        }
        return out;
    }

    /** Sends one request from {@code peer} and answers the status of its reply (at {@code src}). */
    int request(int peer, NodePath dst, byte[] field, byte[] src, byte[] payload) {
        fresh();
        link.inject(peer, fwd(FwdView.OP_WRITE, dst.tlv(), field, src, payload));
        node.poll();
        last = fresh();
        for (Frame f : last) {
            if (f.opcode == FwdView.OP_REPLY && Arrays.equals(f.dst, src)) {
                return f.status;
            }
        }
        throw new AssertionError("no reply at the request's src");
    }

    int append(int peer, byte[] route, Pair... qos) {
        return request(peer, t, appendField(), route, record(route, qos));
    }

    int consume(int peer, byte[] route, int slot, long upTo) {
        return request(peer, t, slotField(slot), route, consumed(upTo));
    }

    /** The owner's write of VALUE u8 n; the deliveries it made at {@code route}. */
    List<Frame> publish(int n, byte[] route) {
        fresh();
        assertEquals(WireError.OK, node.write(t, Tlv.value(n, 1), 0, 5), "publish " + n);
        return to(fresh(), route);
    }

    static List<Long> numbers(List<Frame> fs) {
        List<Long> out = new ArrayList<>();
        for (Frame f : fs) {
            out.add(f.number());
        }
        return out;
    }

    static List<Long> dlvs(List<Frame> fs) {
        List<Long> out = new ArrayList<>();
        for (Frame f : fs) {
            out.add(f.dlv);
        }
        return out;
    }

    byte[] retained() {
        byte[] b = new byte[16];
        int n = node.read(t, b, 0, b.length);
        return Arrays.copyOf(b, n);
    }

    // ------------------------------------------------------------------ latest

    @Test
    void latest_coalescesUndeliveredValues_andReportsTheReplacedCountOnItsDelivery() {
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(DeliveryMode.LATEST), inflight(1)));
        List<Frame> first = publish(1, ROUTE);
        assertEquals(List.of(1L), numbers(first), "a free credit: sent at once");
        assertEquals(1, first.get(0).dlv, "the edge's first delivery number");
        assertEquals(0, first.get(0).replaced);
        for (int n = 2; n <= 5; n++) {
            assertEquals(List.of(), publish(n, ROUTE), "in flight 1 of 1: value " + n + " waits (and is never refused)");
            assertEquals(1, AbpProfileTest.inUse(node, "wide.modeQueued"), "one undelivered value, replaced");
        }
        assertEquals(WireError.OK, consume(SUB, ROUTE, 0, 1));
        List<Frame> all = to(last, ROUTE);
        assertEquals(1, all.size(), "the credit came back: the one undelivered value goes out");
        Frame f = all.get(0);
        assertEquals(5, f.number(), "only the newest of 2..5 was kept");
        assertEquals(2, f.dlv);
        assertEquals(3, f.replaced, "2, 3 and 4 were replaced since the previous delivery");
        assertEquals(6, f.seq, "its own publish's sequence number");
        List<Frame> after = publish(6, ROUTE);
        assertEquals(List.of(), after, "in flight again");
        assertEquals(WireError.OK, consume(SUB, ROUTE, 0, 2));
        assertEquals(0, node.modeRefused(), "a latest subscriber never refuses a publish");
    }

    // ------------------------------------------------------------------ bounded

    @Test
    void bounded_deliversInFifoOrder_andCreditsComeBackOnlyOnConsumed() {
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(DeliveryMode.BOUNDED), queue(2), inflight(1)));
        assertEquals(List.of(1L), numbers(publish(1, ROUTE)));
        assertEquals(List.of(), publish(2, ROUTE));
        assertEquals(List.of(), publish(3, ROUTE));
        for (int i = 0; i < 5; i++) {
            node.poll();
            node.tick();
            clock.advanceMillis(1000);
        }
        assertEquals(List.of(), to(fresh(), ROUTE), "sending is not consuming: no credit comes back by itself");
        fresh();
        link.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), ROUTE, consumed(1)));
        node.poll();
        List<Frame> fs = fresh();
        assertEquals(List.of(2L), numbers(to(fs, ROUTE)), "consumed 1: the next in FIFO order");
        assertEquals(List.of(2L), dlvs(to(fs, ROUTE)));
        link.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), ROUTE, consumed(2)));
        node.poll();
        fs = fresh();
        assertEquals(List.of(3L), numbers(to(fs, ROUTE)));
        assertEquals(0, to(fs, ROUTE).get(0).replaced, "a bounded edge replaces nothing");
    }

    @Test
    void bounded_overflowRefusesTheWholePublish_nothingDeliveredRetainedOrNumbered() {
        assertEquals(WireError.OK, node.declare(t, io.spectrum.node.api.VertexSchema.value(1, false).writable().build()));
        assertEquals(WireError.OK, append(OTHER, PLAIN)); // a plain v1 subscriber on the same vertex
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(DeliveryMode.BOUNDED), queue(2), inflight(1)));
        assertEquals(WireError.OK, append(SUB, ROUTE_B, mode(DeliveryMode.LATEST)));
        for (int n = 1; n <= 3; n++) {
            publish(n, ROUTE); // 1 in flight, 2 and 3 queued: the reference's queued 2 / in flight 1 holds three
        }
        final long seq = node.sequence(t);
        fresh();
        assertEquals(WireError.FLOW_BACKPRESSURE, node.write(t, Tlv.value(4, 1), 0, 5), "the owner's write refused");
        assertEquals(WireError.FLOW_BACKPRESSURE, request(PUB, t, null, PUB_EP, Tlv.value(5, 1)),
                "a remote publisher's FWD WRITE refused with tr::flow::backpressure");
        List<Frame> fs = fresh();
        assertEquals(List.of(), to(fs, PLAIN), "the plain subscriber got nothing");
        assertEquals(List.of(), to(fs, ROUTE_B), "nor the latest one");
        assertArrayEquals(Tlv.value(3, 1), retained(), "the retained value is unchanged");
        assertEquals(seq, node.sequence(t), "no sequence number spent");
        link.inject(PUB, fwd(FwdView.OP_READ, t.tlv(), null, PUB_EP, null));
        node.poll();
        List<Frame> read = fresh();
        assertEquals(1, read.size());
        assertEquals(WireError.OK, read.get(0).status);
        assertArrayEquals(Tlv.value(3, 1), read.get(0).value, "a remote READ answers the value before the refused writes");
        assertEquals(2, node.modeRefused(), "both refusals counted");
        io.spectrum.stats.BoundedResource queued = java.util.Arrays.stream(node.resources())
                .filter(r -> r.resourceName().equals("wide.modeQueued")).findFirst().orElseThrow();
        assertEquals(2, queued.refused());
        assertEquals("a bounded subscription's own queue (its spectrum.queue)", queued.ceiling(),
                "the overload warning names the limit that applied, not the counter's unbounded capacity");
        assertEquals(WireError.FLOW_BACKPRESSURE, node.clear(t, true), "a notifying clear is a publish too");
        assertArrayEquals(Tlv.value(3, 1), retained());

        assertEquals(WireError.OK, consume(SUB, ROUTE, 1, 1), "a credit back: 2 goes out, one queue entry is free");
        fs = publishAll(6);
        assertEquals(List.of(6L), numbers(to(fs, PLAIN)), "accepted again: everyone gets it");
        assertEquals(seq + 1, node.sequence(t));
    }

    List<Frame> publishAll(int n) {
        fresh();
        assertEquals(WireError.OK, node.write(t, Tlv.value(n, 1), 0, 5));
        return fresh();
    }

    @Test
    void bounded_subscriberOfAnAncestorWithoutRoomRefusesAWriteBelowIt() {
        NodePath parent = NodePath.of("/sensor");
        assertEquals(WireError.OK, request(SUB, parent, appendField(), ROUTE,
                record(ROUTE, mode(DeliveryMode.BOUNDED), queue(1), inflight(1))));
        assertEquals(WireError.OK, node.write(t, Tlv.value(1, 1), 0, 5)); // in flight
        assertEquals(WireError.OK, node.write(t, Tlv.value(2, 1), 0, 5)); // queued
        assertEquals(WireError.FLOW_BACKPRESSURE, node.write(t, Tlv.value(3, 1), 0, 5));
        assertEquals(WireError.FLOW_BACKPRESSURE, node.write(NodePath.of("/sensor/other"), Tlv.value(3, 1), 0, 5),
                "a new child of the full subscriber's vertex too");
        assertTrue(!node.exists(NodePath.of("/sensor/other")), "and the refused write created nothing");
        assertEquals(WireError.OK, node.write(NodePath.of("/elsewhere"), Tlv.value(3, 1), 0, 5),
                "a vertex it does not see is not held back");
    }

    // ------------------------------------------------------------------ consumed

    @Test
    void consumed_isCumulative_aLostOneIsRepairedByTheNext() {
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(DeliveryMode.BOUNDED), queue(4), inflight(2)));
        assertEquals(List.of(1L), dlvs(publish(1, ROUTE)));
        assertEquals(List.of(2L), dlvs(publish(2, ROUTE)));
        assertEquals(List.of(), publish(3, ROUTE));
        assertEquals(List.of(), publish(4, ROUTE));
        // "consumed 1" was lost on the way; "consumed 2" gives back both credits
        fresh();
        link.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), ROUTE, consumed(2)));
        node.poll();
        List<Frame> fs = fresh();
        assertEquals(List.of(3L, 4L), numbers(to(fs, ROUTE)), "two credits back: both queued values out");
        assertEquals(List.of(3L, 4L), dlvs(to(fs, ROUTE)));
        assertEquals(0, AbpProfileTest.inUse(node, "wide.modeQueued"), "nothing waits");
    }

    @Test
    void consumed_repeatedOrLowerChangesNothing() {
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(DeliveryMode.BOUNDED), queue(4), inflight(1)));
        publish(1, ROUTE);
        publish(2, ROUTE);
        assertEquals(WireError.OK, consume(SUB, ROUTE, 0, 1)); // 2 goes out as dlv 2
        publish(3, ROUTE);
        publish(4, ROUTE);
        fresh();
        link.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), ROUTE, consumed(1)));
        link.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), ROUTE, consumed(1)));
        link.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), ROUTE, consumed(0)));
        node.poll();
        List<Frame> fs = fresh();
        assertEquals(3, fs.size(), "three answers");
        for (Frame f : fs) {
            assertEquals(WireError.OK, f.status, "a repeat or a lower number is accepted: " + f);
        }
        assertEquals(List.of(), to(fs, ROUTE), "and returns no credit: dlv 2 is still in flight");
        link.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), ROUTE, consumed(2)));
        node.poll();
        assertEquals(List.of(3L), numbers(to(fresh(), ROUTE)), "exactly one credit back, one value out");
    }

    @Test
    void consumed_aboveTheLastDeliveredIsRefused_andChangesNothing() {
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(DeliveryMode.BOUNDED), queue(4), inflight(1)));
        publish(1, ROUTE);
        publish(2, ROUTE);
        assertEquals(WireError.PATH_INVALID, consume(SUB, ROUTE, 0, 2), "dlv 2 was never sent");
        assertEquals(WireError.PATH_INVALID, consume(SUB, ROUTE, 0, -1L), "a u64 with its top bit set likewise");
        assertEquals(List.of(), to(fresh(), ROUTE), "nothing sent");
        assertEquals(WireError.OK, consume(SUB, ROUTE, 0, 1));
        assertEquals(List.of(2L), dlvs(to(last, ROUTE)), "the state was as before the refusals");
    }

    /** The consumed answer's {@code spectrum.delivered}, from the last request's reply at {@code route}. */
    long delivered(byte[] route) {
        for (Frame f : last) {
            if (f.opcode == FwdView.OP_REPLY && Arrays.equals(f.dst, route) && f.value != null) {
                io.spectrum.wire.TlvIndex x = new io.spectrum.wire.TlvIndex();
                assertEquals(WireError.OK, new io.spectrum.wire.FrameDecoder().decode(f.value, 0, f.value.length, x));
                return DeliveryMode.delivered(x, 0);
            }
        }
        throw new AssertionError("no consumed answer");
    }

    @Test
    void consumedAnswer_namesTheLastDeliveredNumber_soALostDeliveryIsConsumedToo() {
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(DeliveryMode.BOUNDED), queue(4), inflight(1)));
        assertEquals(WireError.OK, consume(SUB, ROUTE, 0, 0), "consumed 0 before any delivery: nothing to give back");
        assertEquals(0, delivered(ROUTE));
        publish(1, ROUTE); // dlv 1 is lost on the way: the subscriber has seen nothing
        publish(2, ROUTE);
        assertEquals(WireError.OK, consume(SUB, ROUTE, 0, 0), "what it has seen (nothing) is always a valid number");
        assertEquals(1, delivered(ROUTE), "the answer says one delivery is out");
        assertEquals(List.of(), to(last, ROUTE));
        assertEquals(WireError.OK, consume(SUB, ROUTE, 0, 1), "so it consumes the one it lost");
        assertEquals(List.of(2L), dlvs(to(last, ROUTE)), "and the queue moves again");
        assertEquals(2, delivered(ROUTE), "the answer counts the delivery the consumed released");
    }

    @Test
    void consumed_passesTheHolderGate_onlyTheHolderOrTheOwner() {
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(DeliveryMode.BOUNDED), queue(4), inflight(1)));
        publish(1, ROUTE);
        publish(2, ROUTE);
        assertEquals(WireError.ACCESS_DENIED, consume(OTHER, ROUTE_B, 0, 1), "another peer's slot");
        assertEquals(List.of(), to(fresh(), ROUTE), "nothing released");
        byte[] req = fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), PUB_EP, consumed(1));
        byte[] reply = new byte[256];
        int n = node.handleOwnerRequest(req, 0, req.length, reply, 0, reply.length);
        assertTrue(n > 0);
        assertEquals(WireError.OK, new Frame(Arrays.copyOf(reply, n)).status, "the owner may");
        assertEquals(List.of(2L), numbers(to(fresh(), ROUTE)));
    }

    @Test
    void consumed_toAPlainSlotIsArm4TypeMismatch_asInV1() {
        assertEquals(WireError.OK, append(SUB, ROUTE));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, consume(SUB, ROUTE, 0, 1));
        assertEquals(WireError.OK, append(SUB, ROUTE_B, mode(DeliveryMode.LATEST)));
        publish(1, ROUTE_B);
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, request(SUB, t, slotField(1), ROUTE_B,
                settings(Names.CONSUMED, Tlv.value(1, 1))), "upTo must be a u64");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, request(SUB, t, slotField(1), ROUTE_B,
                settings(Names.TOPIC, Tlv.value(1, 8))), "any other SETTINGS is no consumed message");
        assertEquals(WireError.OK, consume(SUB, ROUTE_B, 1, 1), "the slot is as it was");
    }

    static byte[] settings(io.spectrum.wire.Spelling key, byte[] value) {
        byte[] b = new byte[128];
        io.spectrum.wire.TlvWriter w = new io.spectrum.wire.TlvWriter().wrap(b, 0, b.length);
        w.begin(io.spectrum.wire.TlvType.SETTINGS).leaf(io.spectrum.wire.TlvType.NAME, key).raw(value).end();
        return Arrays.copyOf(b, w.length());
    }

    // ------------------------------------------------------------------ keys

    @Test
    void modeKeys_badValuesAreRefusedTyped_andCreateNothing() {
        final long edges = AbpProfileTest.inUse(node, "wide.edges");
        Object[][] bad = {
            {WireError.SCHEMA_TYPE_MISMATCH, new Pair[] {mode(3)}, "unknown mode"},
            {WireError.SCHEMA_TYPE_MISMATCH, new Pair[] {mode(0)}, "mode 0"},
            {WireError.SCHEMA_TYPE_MISMATCH, new Pair[] {ModeWire.u16(Names.MODE, 1)}, "mode not a u8"},
            {WireError.SCHEMA_TYPE_MISMATCH, new Pair[] {mode(2), ModeWire.u8(Names.MODE_QUEUE, 4)}, "queue not a u16"},
            {WireError.SCHEMA_TYPE_MISMATCH, new Pair[] {mode(2), queue(0)}, "queue 0"},
            {WireError.SCHEMA_TYPE_MISMATCH, new Pair[] {mode(2), inflight(0)}, "in flight 0"},
            {WireError.SCHEMA_TYPE_MISMATCH, new Pair[] {mode(1), queue(2)}, "latest holds exactly one"},
            {WireError.SCHEMA_TYPE_MISMATCH, new Pair[] {mode(1), mode(1)}, "a repeated key"},
            {WireError.SCHEMA_TYPE_MISMATCH, new Pair[] {queue(4)}, "a queue without a mode"},
            {WireError.SCHEMA_TYPE_MISMATCH, new Pair[] {new Pair(Names.MODE, Names.EMPTY_STATUS.copy())}, "not a VALUE"},
            {WireError.FLOW_BACKPRESSURE, new Pair[] {mode(1), inflight(3)}, "latest in flight above 2"},
            {WireError.FLOW_BACKPRESSURE, new Pair[] {mode(2), queue(65)}, "bounded queue above 64"},
            {WireError.FLOW_BACKPRESSURE, new Pair[] {mode(2), inflight(17)}, "bounded in flight above 16"},
            {WireError.FLOW_BACKPRESSURE, new Pair[] {mode(2), queue(65535)}, "the u16 top"},
        };
        for (Object[] c : bad) {
            assertEquals((int) c[0], append(SUB, ROUTE, (Pair[]) c[1]), (String) c[2]);
        }
        assertEquals(edges, AbpProfileTest.inUse(node, "wide.edges"), "no edge created");
        assertEquals(0, node.listenerCount(t));
        assertEquals(0, node.server().slotsHeldBy(node.server().linkIndex(link), SUB), "no share taken");
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(2), queue(64), inflight(16)), "the limits themselves");
        assertEquals(WireError.OK, append(SUB, ROUTE_B, policy(0), mode(1), inflight(2), topic(3)));
    }

    @Test
    void modeKeys_inTheOwnersLocalAppendAreRefused_aLocalTargetTakesNoCredits() {
        byte[] req = fwd(FwdView.OP_WRITE, t.tlv(), appendField(), PUB_EP,
                record(NodePath.of("/mirror").tlv(), mode(DeliveryMode.LATEST)));
        byte[] reply = new byte[256];
        int n = node.handleOwnerRequest(req, 0, req.length, reply, 0, reply.length);
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, new Frame(Arrays.copyOf(reply, n)).status);
        assertEquals(0, node.listenerCount(t));
    }

    // ------------------------------------------------------------------ plain v1 unchanged

    @Test
    void plainV1Subscriber_seesTheSameBytesAsOnAVertexWithoutModeSubscribers() {
        NodePath other = NodePath.of("/sensor/twin");
        assertEquals(WireError.OK, node.write(other, Tlv.value(0, 1), 0, 5));
        assertEquals(WireError.OK, append(OTHER, PLAIN)); // plain on t
        assertEquals(WireError.OK, append(SUB, ROUTE_B, topic(1))); // stamped on t
        assertEquals(WireError.OK, request(OTHER, other, appendField(), PLAIN, record(PLAIN)));
        assertEquals(WireError.OK, request(SUB, other, appendField(), ROUTE_B, record(ROUTE_B, topic(1))));
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(DeliveryMode.BOUNDED), queue(8), inflight(1)));
        assertEquals(WireError.OK, append(PUB, PUB_EP, mode(DeliveryMode.LATEST)));
        for (int n = 1; n <= 4; n++) {
            List<Frame> a = publishAll(n);
            fresh();
            assertEquals(WireError.OK, node.write(other, Tlv.value(n, 1), 0, 5));
            List<Frame> b = fresh();
            assertArrayEquals(to(b, PLAIN).get(0).bytes, to(a, PLAIN).get(0).bytes, "plain v1, write " + n);
            assertArrayEquals(to(b, ROUTE_B).get(0).bytes, to(a, ROUTE_B).get(0).bytes, "stamp-only, write " + n);
            assertEquals(-1, to(a, ROUTE_B).get(0).dlv, "no dlv for a subscriber without a mode");
        }
        // the append answer to a plain (non-announcing) peer is libtracer's RESULT with no payload, mode or not
        link.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), appendField(), NodePath.of("/sub/c").tlv(),
                record(NodePath.of("/sub/c").tlv(), mode(DeliveryMode.LATEST))));
        fresh();
        node.poll();
        byte[] answer = fresh().get(0).bytes;
        byte[] b = new byte[128];
        io.spectrum.wire.TlvWriter w = new io.spectrum.wire.TlvWriter().wrap(b, 0, b.length);
        w.begin(io.spectrum.wire.TlvType.FWD).value(FwdView.OP_REPLY, 1).raw(NodePath.of("/sub/c").tlv()).raw(t.tlv())
                .value(FwdView.KIND_RESULT, 1).end();
        assertEquals(Tlv.hex(Arrays.copyOf(b, w.length())), Tlv.hex(answer), "RESULT, dst = src, src = dst, no payload");
    }

    // ------------------------------------------------------------------ suspend, reap

    @Test
    void suspendedModeEdge_holdsNothing_andIsNotAReasonToRefuse() {
        assertEquals(WireError.OK, append(SUB, ROUTE, policy(0), mode(DeliveryMode.BOUNDED), queue(1), inflight(1)));
        publish(1, ROUTE);
        publish(2, ROUTE); // queued; the next would be refused
        byte[] suspended = record(ROUTE, policy(DeliveryPolicy.SUSPENDED), mode(DeliveryMode.BOUNDED), queue(1),
                inflight(1));
        assertEquals(WireError.OK, request(SUB, t, slotField(0), ROUTE, suspended), "arm 2: the toggle");
        assertEquals(0, AbpProfileTest.inUse(node, "wide.modeQueued"), "suspending dropped the queued value");
        assertEquals(List.of(), publish(3, ROUTE), "suspended: nothing delivered, and the write is not refused");
        assertEquals(WireError.OK, consume(SUB, ROUTE, 0, 1), "credits still come back");
        assertEquals(List.of(), to(fresh(), ROUTE), "nothing was held to send");
        byte[] resumed = record(ROUTE, policy(0), mode(DeliveryMode.BOUNDED), queue(1), inflight(1));
        assertEquals(WireError.OK, request(SUB, t, slotField(0), ROUTE, resumed));
        assertEquals(List.of(), to(fresh(), ROUTE), "no replay on resume");
        List<Frame> fs = publish(4, ROUTE);
        assertEquals(List.of(4L), numbers(fs));
        assertEquals(List.of(2L), dlvs(fs), "numbering goes on");
    }

    @Test
    void reapedModeEdge_dropsItsQueue_andHoldsNoPublishBack() {
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(DeliveryMode.BOUNDED), queue(1), inflight(1)));
        publish(1, ROUTE);
        publish(2, ROUTE);
        assertEquals(WireError.FLOW_BACKPRESSURE, node.write(t, Tlv.value(3, 1), 0, 5));
        assertEquals(1, AbpProfileTest.inUse(node, "wide.modeQueued"));
        node.onPeerDown(link, SUB);
        assertEquals(0, node.listenerCount(t), "reaped (RFC-0035 trigger 4)");
        assertEquals(0, AbpProfileTest.inUse(node, "wide.modeQueued"), "its queue dropped");
        assertEquals(WireError.OK, node.write(t, Tlv.value(3, 1), 0, 5), "its queue went with it");
        assertEquals(List.of(), to(fresh(), ROUTE));
        assertEquals(WireError.OK, append(SUB, ROUTE, mode(DeliveryMode.BOUNDED), queue(1), inflight(1)));
        publish(4, ROUTE);
        publish(5, ROUTE);
        assertEquals(1, AbpProfileTest.inUse(node, "wide.modeQueued"));
        assertEquals(WireError.OK, request(SUB, t, slotField(0), ROUTE, ModeWire.record(ROUTE)), "arm 3 replaces");
        assertEquals(0, AbpProfileTest.inUse(node, "wide.modeQueued"), "the replaced edge's queue went with it");
        publish(6, ROUTE);
        publish(7, ROUTE);
        assertEquals(WireError.OK, node.write(t, Tlv.value(8, 1), 0, 5), "the replacing plain record has no mode");
        assertEquals(WireError.OK, request(SUB, t, slotField(0), ROUTE,
                record(ROUTE, mode(DeliveryMode.BOUNDED), queue(1), inflight(1))), "arm 3 back to bounded");
        publish(9, ROUTE);
        publish(10, ROUTE);
        assertEquals(1, AbpProfileTest.inUse(node, "wide.modeQueued"));
        assertEquals(WireError.OK, request(SUB, t, slotField(0), ROUTE, Names.EMPTY_STATUS.copy()), "arm 1 clears");
        assertEquals(0, AbpProfileTest.inUse(node, "wide.modeQueued"), "and drops the queue");
        assertEquals(WireError.OK, node.write(t, Tlv.value(11, 1), 0, 5));
    }

    @Test
    void durabilityReplay_isTheModeEdgesFirstNumberedDelivery() {
        fresh();
        assertEquals(WireError.OK, append(SUB, ROUTE, policy(DeliveryPolicy.DURABILITY_REQUEST),
                mode(DeliveryMode.BOUNDED), queue(1), inflight(1)));
        List<Frame> replay = to(link.sent().stream().map(Frame::new).toList(), ROUTE);
        assertEquals(1, replay.size(), "the retained value replayed");
        assertEquals(1, replay.get(0).dlv);
        assertEquals(1, replay.get(0).seq, "with its own sequence number");
        assertEquals(List.of(), publish(1, ROUTE), "the replay holds the one credit");
    }

    @Test
    void aSendTheHoldersRateRefuses_staysQueuedUnnumbered_andGoesOutInOrderLater() {
        WideNode metered = new WideNode(WideNode.hostConfig().clock(clock).peerDeliveriesPerSecond(1)
                .peerDeliveryBurst(1).build());
        MemoryLink l = MemoryLink.pair()[0];
        assertEquals(WireError.OK, metered.attach(l));
        assertEquals(WireError.OK, metered.write(t, Tlv.value(0, 1), 0, 5));
        l.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), appendField(), ROUTE,
                record(ROUTE, mode(DeliveryMode.BOUNDED), queue(4), inflight(4))));
        metered.poll();
        for (int n = 1; n <= 3; n++) {
            assertEquals(WireError.OK, metered.write(t, Tlv.value(n, 1), 0, 5));
        }
        java.util.function.Supplier<List<Frame>> sent = () -> to(l.sent().stream().map(Frame::new).toList(), ROUTE);
        assertEquals(List.of(1L), dlvs(sent.get()), "one token: 2 and 3 wait, unnumbered");
        clock.advanceMillis(1000);
        l.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), ROUTE, consumed(0)));
        metered.poll();
        assertEquals(List.of(1L, 2L), dlvs(sent.get()), "a consumed (even 0) sends what waits as far as the rate allows");
        clock.advanceMillis(1000);
        assertEquals(WireError.OK, metered.write(t, Tlv.value(4, 1), 0, 5));
        List<Frame> fs = sent.get();
        assertEquals(List.of(1L, 2L, 3L), numbers(fs), "a publish queues behind what waits, and sends the oldest");
        clock.advanceMillis(1000);
        l.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), ROUTE, consumed(2)));
        metered.poll();
        fs = sent.get();
        assertEquals(List.of(1L, 2L, 3L, 4L), dlvs(fs));
        assertEquals(List.of(1L, 2L, 3L, 4L), numbers(fs), "in publish order, numbers without gaps");
    }

    @Test
    void oneShotModeEdge_goesAfterItsFirstNumberedDelivery() {
        assertEquals(WireError.OK, append(SUB, ROUTE, policy(DeliveryPolicy.ONE_SHOT), mode(DeliveryMode.BOUNDED),
                queue(1), inflight(1)));
        List<Frame> fs = publish(1, ROUTE);
        assertEquals(List.of(1L), dlvs(fs));
        assertEquals(0, node.listenerCount(t), "reaped after one delivery");
        assertEquals(0, AbpProfileTest.inUse(node, "wide.modeQueued"));
        assertEquals(List.of(), publish(2, ROUTE));
        assertEquals(WireError.OK, node.write(t, Tlv.value(3, 1), 0, 5), "nothing holds the vertex back");
    }

    // ------------------------------------------------------------------ vectors

    static final String VECTOR_DELIVERY = "0f408e00010001000106000b0006636c69656e74037375620600000001000100070b406d0002000e00"
            + "737065637472756d2e746f7069630b40570002000300736571010008000500000000000000020005007374616c650100010000"
            + "020002006f70010001000002000300646c76010008000200000000000000020008007265706c61636564010008000300000000000000";
    static final String VECTOR_CONSUMED = "0f406900010001000106000c000673656e736f720474656d7010401c0002000b0073756273637269"
            + "626572730100040000000000010001000106000b0006636c69656e74037375620b40210002001100737065637472756d2e636f6e73"
            + "756d6564010008000200000000000000";

    static final String VECTOR_CONSUMED_ANSWER = "0f404f00010001000306000b0006636c69656e740373756206000c000673656e736f72"
            + "0474656d7001000100000b40220002001200737065637472756d2e64656c697665726564010008000200000000000000";

    static byte[] unhex(String h) {
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    @Test
    void latestDelivery_isVectorFwdDeliverStampMode_andTheVectorsConsumedIsAccepted() {
        final byte[] route = NodePath.of("/client/sub").tlv();
        assertEquals(WireError.OK, append(SUB, route, policy(DeliveryPolicy.DURABILITY_REQUEST),
                mode(DeliveryMode.LATEST), inflight(1)));
        assertEquals(List.of(1L), dlvs(to(last, route)), "the replay of seq 1 is dlv 1");
        for (int n : new int[] {4, 5, 6, 7}) {
            assertEquals(List.of(), publish(n, route)); // seq 2..5: three of them replaced
        }
        assertEquals(WireError.OK, consume(SUB, route, 0, 1));
        List<Frame> d = to(last, route);
        assertEquals(1, d.size());
        assertEquals(VECTOR_DELIVERY, Tlv.hex(d.get(0).bytes), "the whole delivery is vector spectrum-v1/fwd/fwd-deliver-stamp-mode");
        fresh();
        link.inject(SUB, unhex(VECTOR_CONSUMED)); // spectrum-v1/fwd/fwd-write-consumed
        node.poll();
        List<Frame> r = fresh();
        assertEquals(1, r.size());
        assertEquals(WireError.OK, r.get(0).status, "the vector's consumed 2 is accepted");
        assertEquals(VECTOR_CONSUMED_ANSWER, Tlv.hex(r.get(0).bytes),
                "answered with the last delivered number: vector spectrum-v1/fwd/fwd-reply-consumed");
        assertEquals(List.of(3L), dlvs(to(publishAll(8), route)), "and its credit came back");
    }

    // ------------------------------------------------------------------ NarrowNode

    @Test
    void narrowNode_skipsTheModeKeysAsAV1NodeDoes_andAnswersConsumedAsArm4() {
        NarrowNode narrow = new NarrowNode(NodeConfig.builder().clock(clock).build());
        MemoryLink l = MemoryLink.pair()[0];
        assertEquals(WireError.OK, narrow.attach(l));
        assertEquals(WireError.OK, narrow.write(t, Tlv.value(0, 1), 0, 5));
        l.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), appendField(), ROUTE,
                record(ROUTE, mode(DeliveryMode.BOUNDED), queue(1), inflight(1), topic(1))));
        l.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), appendField(), ROUTE_B, record(ROUTE_B, mode(9))));
        narrow.poll();
        for (byte[] f : l.sent()) {
            assertEquals(WireError.OK, new Frame(f).status, "admitted as v1 would: the keys are skipped");
        }
        for (int n = 1; n <= 3; n++) {
            assertEquals(WireError.OK, narrow.write(t, Tlv.value(n, 1), 0, 5), "never refused");
        }
        List<Frame> fs = l.sent().stream().map(Frame::new).toList();
        assertEquals(3, to(fs, ROUTE).size(), "every value sent as it happens");
        assertEquals(-1, to(fs, ROUTE).get(0).dlv, "no delivery number");
        int before = l.sent().size();
        l.inject(SUB, fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), ROUTE, consumed(1)));
        narrow.poll();
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, new Frame(l.sent().get(before)).status);
    }
}
