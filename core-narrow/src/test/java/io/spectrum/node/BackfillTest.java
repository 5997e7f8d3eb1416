package io.spectrum.node;

import io.spectrum.testing.MemoryLink;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.Backfill;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Store and forward on the NARROW node (docs/board.md "Store and forward", docs/extensions.md
 * "Backfill"): a declared vertex keeps its last N values with their sequence; a peer that asks with
 * a READ carrying {@code spectrum.backfill} gets those after its last one, with their age on the
 * node's clock, and the highest sequence the ring no longer holds.
 */
class BackfillTest {
    private final ManualClock clock = new ManualClock(0);
    private final NodePath temp = NodePath.of("/temp");

    private NarrowNode board(int depth, MemoryLink link) {
        NarrowNode n = new NarrowNode(NodeConfig.builder().clock(clock).backfillDepth(depth).build());
        assertEquals(WireError.OK, n.attach(link));
        assertEquals(WireError.OK, n.declare(temp, VertexSchema.value(2, true).build()));
        return n;
    }

    private static byte[] ask(NodePath dst, long after) {
        byte[] b = new byte[128];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        Extensions.announceAskingBackfill(w, 0, after);
        return Frames.fwd(FwdView.OP_READ, dst.tlv(), null, Frames.REPLY_EP, java.util.Arrays.copyOf(b, w.length()));
    }

    private record Entry(long seq, long age, long origin, byte[] value) { }

    private record Answer(long last, long evicted, List<Entry> entries) { }

    private static Answer answer(byte[] frame) {
        Frames.Reply r = Frames.parse(frame);
        assertEquals(FwdView.KIND_RESULT, r.kind, "a RESULT");
        Backfill b = new Backfill();
        assertTrue(b.wrapAnswer(r.idx, r.payload), "a backfill answer: " + Frames.hex(frame));
        List<Entry> entries = new ArrayList<>();
        while (b.next()) {
            entries.add(new Entry(b.seq(), b.age(), b.origin(),
                    java.util.Arrays.copyOfRange(r.frame, r.idx.start(b.value()), r.idx.end(b.value()))));
        }
        return new Answer(b.last(), b.evicted(), entries);
    }

    private void publish(NarrowNode n, int from, int to) {
        for (int i = from; i <= to; i++) {
            byte[] v = Frames.value(i * 10, 2);
            assertEquals(WireError.OK, n.write(temp, v, 0, v.length));
            clock.advanceMillis(1000);
        }
    }

    @Test
    void aDeclaredVertexAnswersTheValuesAfterTheAskersLast_oldestFirst_withSeqAndAge() {
        MemoryLink link = new MemoryLink(1);
        NarrowNode n = board(4, link);
        publish(n, 1, 6); // seq 1..6, one a second; the clock is now 6 s on
        link.inject(3, ask(temp, 3));
        n.poll();
        Answer a = answer(link.lastSent());
        assertEquals(6, a.last(), "the vertex's sequence now");
        assertEquals(2, a.evicted(), "a ring of 4 no longer holds seq 1 and 2");
        assertEquals(List.of(4L, 5L, 6L), a.entries().stream().map(Entry::seq).toList());
        assertEquals(List.of(3000L, 2000L, 1000L), a.entries().stream().map(Entry::age).toList(),
                "each value's age on the board's clock");
        assertArrayEquals(Frames.value(40, 2), a.entries().get(0).value());
        assertEquals(0, a.entries().get(0).origin(), "a board gives no origin");
    }

    @Test
    void moreMissedThanTheRingHolds_theAnswerSaysWhatIsGone_theNewestNHeld() {
        MemoryLink link = new MemoryLink(1);
        NarrowNode n = board(4, link);
        publish(n, 1, 10);
        link.inject(3, ask(temp, 2));
        n.poll();
        Answer a = answer(link.lastSent());
        assertEquals(6, a.evicted(), "3..6 are gone: the asker records the gap rather than pretending");
        assertEquals(List.of(7L, 8L, 9L, 10L), a.entries().stream().map(Entry::seq).toList());
    }

    @Test
    void anAnswerIsOneFrame_theAskerGoesOnAfterTheLastItGot() {
        MemoryLink link = new MemoryLink(1, 200); // a serial line with small frames
        NarrowNode n = board(16, link);
        publish(n, 1, 12);
        List<Long> got = new ArrayList<>();
        long after = 0;
        for (int i = 0; i < 12; i++) {
            link.inject(3, ask(temp, after));
            n.poll();
            byte[] f = link.lastSent();
            assertTrue(f.length <= 200, "within the link's frame: " + f.length);
            Answer a = answer(f);
            if (a.entries().isEmpty()) {
                break;
            }
            a.entries().forEach(e -> got.add(e.seq()));
            after = a.entries().get(a.entries().size() - 1).seq();
        }
        assertEquals(java.util.stream.LongStream.rangeClosed(1, 12).boxed().toList(), got);
    }

    @Test
    void anUndeclaredVertexKeepsNothing_andSaysSo_aPlainReadIsUnchanged() {
        MemoryLink link = new MemoryLink(1);
        NarrowNode n = board(4, link);
        NodePath other = NodePath.of("/other");
        byte[] v = Frames.value(5, 2);
        n.write(other, v, 0, v.length);
        n.write(other, v, 0, v.length);
        link.inject(3, ask(other, 0));
        n.poll();
        Answer a = answer(link.lastSent());
        assertEquals(2, a.last());
        assertEquals(2, a.evicted(), "nothing kept: everything up to now is gone");
        assertTrue(a.entries().isEmpty());

        publish(n, 1, 1);
        link.inject(3, Frames.fwd(FwdView.OP_READ, temp.tlv(), null, Frames.REPLY_EP));
        n.poll();
        assertArrayEquals(Frames.value(10, 2), Frames.parse(link.lastSent()).payloadBytes(), "a READ that asks nothing: the value");
    }

    @Test
    void theCapsOfferBackfill_onlyToAnAnnouncingPeer_andOnlyWhenOn() {
        MemoryLink link = new MemoryLink(1);
        board(4, link);
        NarrowNode off = new NarrowNode(NodeConfig.builder().clock(clock).backfillDepth(0).build());
        MemoryLink offLink = new MemoryLink(2);
        off.attach(offLink);
        byte[] plain = Frames.fwd(FwdView.OP_READ, NarrowNode.CAPS.tlv(), null, Frames.REPLY_EP);
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        Extensions.announce(w);
        byte[] announcing = Frames.fwd(FwdView.OP_READ, NarrowNode.CAPS.tlv(), null, Frames.REPLY_EP,
                java.util.Arrays.copyOf(b, w.length()));
        NarrowNode on = board(4, link);
        link.inject(3, plain);
        on.poll();
        Frames.Reply r = Frames.parse(link.lastSent());
        assertEquals(0, new Backfill().offered(r.idx, r.payload), "a plain v1 peer's caps: the three pairs");
        assertArrayEquals(Frames.hex("0b402e00 02000400636f7265 010002000100 0200070072666330303335 010002000100"
                + "02000500746f706963 010002000100"), r.payloadBytes(), "byte for byte as before");
        link.inject(4, announcing);
        on.poll();
        r = Frames.parse(link.lastSent());
        assertEquals(4, new Backfill().offered(r.idx, r.payload), "an announcing peer learns the depth");
        offLink.inject(4, announcing);
        off.poll();
        r = Frames.parse(offLink.lastSent());
        assertEquals(0, new Backfill().offered(r.idx, r.payload), "backfill off: not offered");
        assertFalse(new Backfill().wrapAnswer(r.idx, r.payload), "a caps map is no backfill answer");
    }

    /** The bytes of {@code spectrum-v1/fwd/fwd-read-backfill} and {@code fwd-reply-backfill} (vectors module). */
    static final String VECTOR_REQUEST = "0f407a00010001000006000c000673656e736f720474656d700600090006247265706c7901330b4054"
            + "0002000c00737065637472756d2e65787401000200010002000d00737065637472756d2e686f6c640100080000000000000000000200"
            + "1100737065637472756d2e6261636b66696c6c010008000300000000000000";
    static final String VECTOR_ANSWER = "0f40020101000100030600090006247265706c79013306000c000673656e736f720474656d70010001"
            + "00000b40d70002001100737065637472756d2e6261636b66696c6c010008000600000000000000020007006576696374656401000800"
            + "02000000000000000200030073657101000800040000000000000002000300616765010008"
            + "00b80b0000000000000200050076616c7565010002002800020003007365710100080005000000000000000200030061676501000800d007"
            + "0000000000000200050076616c7565010002003200020003007365710100080006000000000000000200030061676501000800e8030000"
            + "000000000200050076616c7565010002003c00";

    @Test
    void theBoardAnswersTheVectorsRequest_withTheVectorsAnswer_byteForByte() {
        MemoryLink link = new MemoryLink(1);
        NarrowNode n = new NarrowNode(NodeConfig.builder().clock(clock).backfillDepth(4).build());
        n.attach(link);
        NodePath st = NodePath.of("/sensor/temp");
        assertEquals(WireError.OK, n.declare(st, VertexSchema.value(2, true).build()));
        for (int i = 1; i <= 6; i++) { // one a second: the last a second before the answer
            byte[] v = Frames.value(i * 10, 2);
            assertEquals(WireError.OK, n.write(st, v, 0, v.length));
            clock.advanceMillis(1000);
        }
        link.inject(3, Frames.hex(VECTOR_REQUEST));
        n.poll();
        assertEquals(VECTOR_ANSWER, Frames.hex(link.lastSent()));
    }
}
