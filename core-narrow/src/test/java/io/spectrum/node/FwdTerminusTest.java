package io.spectrum.node;

import static io.spectrum.node.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodePath;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The FWD terminus, digest §5.2-§5.5, byte for byte over a fake link. */
class FwdTerminusTest extends NodeHarness {
    final byte[] route = hex(Vectors.ROUTE);

    @Test
    void read_answersTheReplyResultVectorWithRoutesSwapped() {
        node.write(temp, Frames.value(1234, 4), 0, 8);
        List<byte[]> out = exchange(PEER, Frames.fwd(0, temp.tlv(), null, route));
        assertEquals(1, out.size());
        assertEquals(Vectors.FWD_REPLY_RESULT, hex(out.get(0)));
        assertEquals(PEER, link.sentPeer(0), "answered to the arrival peer");
    }

    @Test
    void readOfAbsentVertex_answersTheReplyErrorVector_notFound() {
        List<byte[]> out = exchange(PEER, Frames.fwd(0, temp.tlv(), null, route));
        assertEquals(Vectors.FWD_REPLY_ERROR, hex(out.get(0)));
    }

    @Test
    void readOfChildlessVertexWithoutValue_isNotFound() {
        node.subscribe(temp, 0, (s, v, q, st) -> { }); // creates /sensor/temp, never written
        Frames.Reply r = request(Frames.fwd(0, temp.tlv(), null, Frames.REPLY_EP));
        assertEquals(WireError.PATH_NOT_FOUND, r.errorCode());
        // /sensor now has a child: its READ is the composed tree (ComposedReadTest), not not_found
        assertEquals(0, request(Frames.fwd(0, NodePath.of("/sensor").tlv(), null, Frames.REPLY_EP)).kind);
    }

    @Test
    void fwdReadVector_repliesToReplyEp() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        Frames.Reply r = request(hex(Vectors.FWD_READ));
        assertEquals(3, r.op);
        assertArrayEquals(Frames.REPLY_EP, r.bytes(r.dst));
        assertArrayEquals(temp.tlv(), r.bytes(r.src));
        assertEquals(0, r.kind);
        assertArrayEquals(Frames.value(5, 1), r.payloadBytes());
    }

    @Test
    void fwdWriteValueVector_assignsAndAcksWithoutPayload() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        Frames.Reply r = request(hex(Vectors.FWD_WRITE_VALUE));
        assertEquals(0, r.kind);
        assertEquals(TlvIndex.NONE, r.payload);
        byte[] out = new byte[16];
        assertEquals(8, node.read(temp, out, 0, 16));
        assertEquals("01000400d2040000", hex(java.util.Arrays.copyOf(out, 8)));
        assertEquals(1, node.sequence(temp) - 1);
    }

    @Test
    void remoteWriteToAbsentDst_isNotFound_andCreatesNothing() {
        Frames.Reply r = request(hex(Vectors.FWD_WRITE_VALUE));
        assertEquals(WireError.PATH_NOT_FOUND, r.errorCode());
        assertFalse(node.exists(NodePath.of("/sensor")));
    }

    @Test
    void emptySrcWrite_isAppliedAndAnswersNothing_emptySrcReadIsDropped() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        assertEquals(0, exchange(PEER, Frames.fwd(1, temp.tlv(), null, Frames.EMPTY_PATH, Frames.value(9, 1))).size());
        byte[] out = new byte[8];
        node.read(temp, out, 0, 8);
        assertEquals(9, out[4]);
        assertEquals(0, exchange(PEER, Frames.fwd(0, temp.tlv(), null, Frames.EMPTY_PATH)).size());
        assertEquals(0, exchange(PEER, Frames.fwd(1, NodePath.of("/absent").tlv(), null, Frames.EMPTY_PATH, Frames.value(9, 1))).size(),
                "errors are not answered either");
        assertEquals(0, exchange(PEER, Frames.fwd(9, temp.tlv(), null, Frames.EMPTY_PATH)).size());
        assertEquals(0, exchange(PEER, Frames.fwd(0x81, temp.tlv(), null, Frames.EMPTY_PATH, Frames.value(7, 1))).size());
        node.read(temp, out, 0, 8);
        assertEquals(9, out[4], "a mint-flagged write with no return route is dropped, not applied");
    }

    @Test
    void mintFlag_isIgnored_theRequestIsAnsweredPlainly() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        Frames.Reply r = request(Frames.fwd(0x80, temp.tlv(), null, Frames.REPLY_EP));
        assertEquals(0, r.kind);
        assertEquals(TlvIndex.NONE, r.trailing, "no PATH_REF answer: this node mints nothing");
    }

    @Test
    void unknownOp_isTypeMismatch() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, request(Frames.fwd(9, temp.tlv(), null, Frames.REPLY_EP)).errorCode());
    }

    @Test
    void writeWithoutPayload_isTypeMismatch() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, request(Frames.fwd(1, temp.tlv(), null, Frames.REPLY_EP)).errorCode());
    }

    @Test
    void malformedDst_isPathInvalid() {
        byte[] overrun = hex("06000300056162"); // a 5-byte record in a 3-byte body
        assertEquals(WireError.PATH_INVALID, request(Frames.fwd(0, overrun, null, Frames.REPLY_EP)).errorCode());
        byte[] label = hex("06000e000673656e736f7200160401000200");
        assertEquals(WireError.PATH_INVALID, request(Frames.fwd(0, label, null, Frames.REPLY_EP)).errorCode());
    }

    @Test
    void wildcardOnNonSubscribersField_isPathInvalid_vector() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        assertEquals(WireError.PATH_INVALID, request(hex(Vectors.FWD_WILDCARD_REJECT)).errorCode());
    }

    @Test
    void fieldSelectorRules() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        byte[] ep = Frames.REPLY_EP;
        byte[] sub = Frames.subscriber("/x", 0, false, false);
        // [*] on a write
        assertEquals(WireError.PATH_INVALID, request(Frames.fwd(1, temp.tlv(), Frames.subsField(-1, 2, -1), ep, sub)).errorCode());
        // [*] read has no behaviour
        assertEquals(WireError.SCHEMA_NOT_FOUND, request(Frames.fwd(0, temp.tlv(), Frames.subsField(-1, 2, -1), ep)).errorCode());
        // mode outside {0,1,2}
        assertEquals(WireError.PATH_INVALID, request(Frames.fwd(0, temp.tlv(), Frames.subsField(-1, 3, -1), ep)).errorCode());
        // index above 65535
        assertEquals(WireError.PATH_INVALID, request(Frames.fwd(0, temp.tlv(), Frames.subsField(70000, 1, -1), ep)).errorCode());
        // other field names
        assertEquals(WireError.SCHEMA_NOT_FOUND, request(Frames.fwd(0, temp.tlv(), Frames.field("status"), ep)).errorCode());
        assertEquals(WireError.SCHEMA_NOT_FOUND, request(Frames.fwd(1, temp.tlv(), Frames.field("stats"), ep, sub)).errorCode());
        // :subscribers is addressed whole
        assertEquals(WireError.SCHEMA_NOT_FOUND, request(Frames.fwd(0, temp.tlv(), Frames.field("subscribers", "x"), ep)).errorCode());
        // more than 8 levels
        assertEquals(WireError.PATH_INVALID, request(Frames.fwd(0, temp.tlv(), Frames.field("a", "b", "c", "d", "e", "f", "g", "h", "i"), ep)).errorCode());
        // a non-NAME level head
        byte[] bad = hex("104005000100010001");
        assertEquals(WireError.PATH_INVALID, request(Frames.fwd(0, temp.tlv(), bad, ep)).errorCode());
        // bare :settings read answers the empty container
        Frames.Reply s = request(Frames.fwd(0, temp.tlv(), Frames.field("settings"), ep));
        assertEquals("0b400000", hex(s.payloadBytes()));
    }

    @Test
    void await_isAnsweredByTheNextWrite_withRoutesSwapped() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        assertEquals(0, exchange(PEER, hex(Vectors.FWD_AWAIT_TIMEOUT)).size(), "pending");
        List<byte[]> out;
        int before = link.sentCount();
        node.write(temp, Frames.value(2, 1), 0, 5);
        assertEquals(before + 1, link.sentCount());
        Frames.Reply r = Frames.parse(link.lastSent());
        assertArrayEquals(Frames.REPLY_EP, r.bytes(r.dst));
        assertArrayEquals(temp.tlv(), r.bytes(r.src));
        assertEquals(0, r.kind);
        assertArrayEquals(Frames.value(2, 1), r.payloadBytes());
        node.write(temp, Frames.value(3, 1), 0, 5);
        assertEquals(before + 1, link.sentCount(), "answered once");
    }

    @Test
    void await_isNotAnsweredByDescendantOrFieldWrites() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        NodePath sensor = NodePath.of("/sensor");
        node.write(sensor, Frames.value(1, 1), 0, 5);
        exchange(PEER, Frames.fwd(2, sensor.tlv(), null, Frames.REPLY_EP));
        node.write(temp, Frames.value(2, 1), 0, 5);
        exchange(OTHER_PEER, Frames.fwd(1, sensor.tlv(), Frames.subsField(-1, 1, -1), Frames.REPLY_EP,
                Frames.subscriber("/c", 0, false, false)));
        assertEquals(1, link.sentCount(), "only the subscribe's reply");
        node.write(sensor, Frames.value(3, 1), 0, 5);
        assertEquals(3, link.sentCount(), "the await's answer plus the new subscriber's delivery");
        assertEquals(PEER, link.sentPeer(1));
        assertEquals(3, Frames.parse(link.sentAt(1)).op);
    }

    @Test
    void fieldWritesAreSilent_noSequenceNoDelivery() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        java.util.List<Long> seen = new java.util.ArrayList<>();
        node.subscribe(temp, 0, (s, v, seq, st) -> seen.add(seq));
        long seq = node.sequence(temp);
        Frames.Reply ack = Frames.parse(exchange(PEER, Frames.fwd(1, temp.tlv(), Frames.subsField(-1, 1, -1), Frames.REPLY_EP,
                Frames.subscriber("/c", 0, false, false))).get(0));
        assertEquals(0, ack.kind);
        exchange(PEER, Frames.fwd(1, temp.tlv(), Frames.subsField(1, 1, -1), Frames.REPLY_EP, Frames.hex("09000000")));
        assertEquals(seq, node.sequence(temp));
        assertEquals(java.util.List.of(), seen);
    }

    @Test
    void aValueThatCouldNotBeReadBackInOneFrameIsRefusedWhenWritten() {
        NodeHarness h = new NodeHarness(c -> c.frameBytes(96));
        // the vertex exists first (a subscribe publishes nothing): WideNode's refused write creates nothing
        h.node.subscribe(h.temp, 0, (s, v, q, st) -> { });
        byte[] big = new byte[80];
        big[0] = 1;
        big[2] = 76;
        assertEquals(WireError.FLOW_BACKPRESSURE, h.node.write(h.temp, big, 0, big.length), "local write");
        assertEquals(WireError.FLOW_BACKPRESSURE, h.request(Frames.fwd(1, h.temp.tlv(), null, Frames.REPLY_EP, big)).errorCode(),
                "remote write");
        assertEquals(0, h.node.sequence(h.temp), "nothing was published");
        assertEquals(WireError.PATH_NOT_FOUND, h.request(Frames.fwd(0, h.temp.tlv(), null, Frames.REPLY_EP)).errorCode());
        byte[] fits = Frames.value(7, 4);
        assertEquals(WireError.OK, h.node.write(h.temp, fits, 0, fits.length));
        assertEquals(WireError.OK, h.request(Frames.fwd(0, h.temp.tlv(), null, Frames.REPLY_EP)).errorCode());
    }

    @Test
    void await_timesOutWithFlowTimeout_drivenByTheClock() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        exchange(PEER, hex(Vectors.FWD_AWAIT_TIMEOUT)); // 1e9 ns
        clock.advanceMillis(999);
        node.tick();
        assertEquals(0, link.sentCount());
        clock.advanceMillis(1);
        node.tick();
        assertEquals(1, link.sentCount());
        assertEquals(WireError.FLOW_TIMEOUT, Frames.parse(link.lastSent()).errorCode());
    }

    @Test
    void await_defaultTimeoutIsOneSecond_andFieldIsSchemaNotFound() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        exchange(PEER, Frames.fwd(2, temp.tlv(), null, Frames.REPLY_EP));
        clock.advanceMillis(1000);
        node.tick();
        assertEquals(WireError.FLOW_TIMEOUT, Frames.parse(link.lastSent()).errorCode());
        assertEquals(WireError.SCHEMA_NOT_FOUND,
                request(Frames.fwd(2, temp.tlv(), Frames.subsField(-1, 1, -1), Frames.REPLY_EP)).errorCode());
    }

    @Test
    void await_poolExhaustion_isBackpressure() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        // spread over peers so that each stays within its share (PeerShares): the pool itself runs out
        int perPeer = config.awaitsPerPeer();
        for (int i = 0; i < config.maxAwaits(); i++) {
            assertEquals(0, exchange(100 + i / perPeer, Frames.fwd(2, temp.tlv(), null, Frames.REPLY_EP)).size());
        }
        assertEquals(WireError.FLOW_BACKPRESSURE, request(Frames.fwd(2, temp.tlv(), null, Frames.REPLY_EP)).errorCode());
    }

    @Test
    void remoteSubscribe_vector_thenDeliveryIsFwdWriteToTheSubscribesSrc() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        Frames.Reply ack = request(hex(Vectors.FWD_WRITE_SUBSCRIBER_FIELD));
        assertEquals(0, ack.kind);
        // a plain v1 peer (the vector carries no announcement) gets libtracer v1's answer: RESULT, no payload
        assertEquals("0f402700" + "0100010003" + "06000900087265706c792d6570" + "06000c000673656e736f720474656d70"
                + "0100010000", hex(ack.frame), "the append answers RESULT with no payload");
        link.clearSent();
        node.write(temp, Frames.value(1234, 4), 0, 8);
        assertEquals(1, link.sentCount());
        assertEquals(PEER, link.sentPeer(0));
        // FWD{WRITE, dst = the subscribe's src route, src = 06 00 00 00, payload = written TLV}
        assertEquals("0f401e00" + "0100010001" + "06000900087265706c792d6570" + "06000000" + "01000400d2040000", hex(link.lastSent()));
    }

    @Test
    void reservedNames_refuseRemoteWrites_capsReadable() {
        NodePath caps = NodePath.of("/$node/caps");
        assertEquals(WireError.ACCESS_DENIED, request(Frames.fwd(1, caps.tlv(), null, Frames.REPLY_EP, Frames.value(1, 1))).errorCode());
        assertEquals(WireError.ACCESS_DENIED,
                request(Frames.fwd(1, NodePath.of("/$stats/x").tlv(), null, Frames.REPLY_EP, Frames.value(1, 1))).errorCode());
        Frames.Reply r = request(Frames.fwd(0, caps.tlv(), null, Frames.REPLY_EP));
        assertEquals(0, r.kind);
        assertEquals("0b40" + "2e00" + "02000400636f7265" + "010002000100" + "02000700726663303033350100020001 00".replace(" ", "")
                + "02000500746f706963" + "010002000100", hex(r.payloadBytes()));
        assertTrue(node.exists(caps));
    }

    @Test
    void payloadCap_isBackpressure_andLeavesTheOldValue() {
        NodeHarness h = new NodeHarness(c -> c.payloadCap(16));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        byte[] big = new byte[20];
        big[0] = 1;
        big[2] = 16;
        assertEquals(WireError.FLOW_BACKPRESSURE, h.node.write(h.temp, big, 0, 20));
        assertEquals(WireError.FLOW_BACKPRESSURE,
                h.request(Frames.fwd(1, h.temp.tlv(), null, Frames.REPLY_EP, big)).errorCode());
        byte[] out = new byte[8];
        assertEquals(5, h.node.read(h.temp, out, 0, 8));
    }

    @Test
    void valuePoolExhaustion_isBackpressure_neverGrowth() {
        NodeHarness h = new NodeHarness(c -> c.valueBytes(256));
        byte[] v = new byte[100];
        v[0] = 1;
        v[2] = 96;
        int ok = 0;
        int refused = 0;
        for (int i = 0; i < 10; i++) {
            int r = h.node.write(NodePath.of("/v" + i), v, 0, 100);
            if (r == WireError.OK) {
                ok++;
            } else {
                assertEquals(WireError.FLOW_BACKPRESSURE, r);
                refused++;
            }
        }
        assertTrue(ok >= 1 && refused >= 1, ok + " ok " + refused + " refused");
    }

    @Test
    void vertexPoolExhaustion_isBackpressure_andCreatesNothingPartial() {
        NodeHarness h = new NodeHarness(c -> c.maxVertices(5));
        // root + $node + $node/caps use 3; two left
        assertEquals(WireError.FLOW_BACKPRESSURE, h.node.write(NodePath.of("/a/b/c"), Frames.value(1, 1), 0, 5));
        assertFalse(h.node.exists(NodePath.of("/a")));
        assertEquals(WireError.OK, h.node.write(NodePath.of("/a/b"), Frames.value(1, 1), 0, 5));
    }

    @Test
    void pathLongerThanTheKeyLimit_isPathInvalid() {
        NodeHarness h = new NodeHarness(c -> c.maxKeyBytes(8));
        assertEquals(WireError.PATH_INVALID, h.node.write(NodePath.of("/abcdefghij"), Frames.value(1, 1), 0, 5));
    }

    @Test
    void badFramesAreCountedAndAnsweredWithNothing() {
        assertEquals(0, exchange(PEER, hex("0f80")).size());
        assertEquals(0, exchange(PEER, hex("09000000")).size());
        assertEquals(2, node.linkStats(link).framesRejected());
    }

    @Test
    void theEnvelopeIsReadByFwdView_aWideOpIsDropped_aContainerDstIsAnswered() {
        // digest §5.1: the op is a VALUE of exactly one byte; a 2-byte op is no FWD to answer
        assertEquals(0, exchange(PEER, hex("0F401200" + "010002000000" + "060002000161" + "06000200017A")).size());
        assertEquals(1, node.linkStats(link).framesRejected());
        // a PATH wrongly flagged PL=1 in the dst slot is a bad address: answered path::invalid
        List<byte[]> out = exchange(PEER, hex("0F400F00" + "0100010000" + "06400000" + "06000200017A"));
        assertEquals(1, out.size());
        assertEquals(WireError.PATH_INVALID, Frames.parse(out.get(0)).errorCode());
        assertEquals(1, node.linkStats(link).framesRejected());
    }
}
