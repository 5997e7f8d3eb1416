package io.spectrum.node;

import static io.spectrum.node.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.node.api.NodePath;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A delivery a peer's delivery share or a full link drops leaves the edge dirty, and the node's tick
 * sends the edge the vertex's current value once the share refills: latest-value coalescing, never
 * the dropped backlog, and the sequence a subscriber sees never goes back (docs/node.md, "Dirty
 * edges"). Run on both cores (core-wide's WideDirtyEdgeTest).
 */
class DirtyEdgeTest {
    static final byte[] EP = NodePath.of("/client/a").tlv();

    /** 10 deliveries/s per peer, a burst of 2: the third quick write to a subscriber is dropped. */
    static NodeHarness harness() {
        return new NodeHarness(c -> c.peerDeliveriesPerSecond(10).peerDeliveryBurst(2));
    }

    /** "value@seq" of each delivery to {@code EP} sent since frame {@code from}. */
    static List<String> delivered(NodeHarness h, int from) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < h.link.sentCount(); i++) {
            Frames.Reply r = Frames.parse(h.link.sentAt(i));
            if (r.op == 1 && java.util.Arrays.equals(EP, r.bytes(r.dst))) {
                String stamp = hex(r.bytes(r.trailing));
                long seq = Long.parseLong(stamp.substring(74, 76), 16); // the low byte of seq's u64
                out.add(hex(r.payloadBytes()).substring(8) + "@" + seq);
            }
        }
        return out;
    }

    static void subscribe(NodeHarness h, String vertex) {
        List<byte[]> a = h.exchange(NodeHarness.PEER, Frames.fwd(1, NodePath.of(vertex).tlv(), Frames.subsField(-1, 1, -1), EP,
                Frames.subscriber("/client/a", 0, false, true)));
        assertEquals(0, Frames.parse(a.get(a.size() - 1)).kind, "admitted");
    }

    static void write(NodeHarness h, NodePath p, int v) {
        assertEquals(WireError.OK, h.node.write(p, Frames.value(v, 1), 0, 5));
    }

    @Test
    void theDroppedLastDeliveryOfABurst_isResentOnce_asTheCurrentValue_whenTheShareRefills() {
        NodeHarness h = harness();
        write(h, h.temp, 0); // seq 1
        subscribe(h, "/sensor/temp");
        int from = h.link.sentCount();
        for (int v = 1; v <= 5; v++) {
            write(h, h.temp, v); // seq 2..6: the burst lets two through
        }
        assertEquals(List.of("01@2", "02@3"), delivered(h, from), "the share dropped the rest, the last one too");
        h.node.tick();
        assertEquals(2, delivered(h, from).size(), "the share is still empty: nothing yet");
        h.clock.advanceMillis(100); // one delivery's worth
        h.node.tick();
        assertEquals(List.of("01@2", "02@3", "05@6"), delivered(h, from),
                "one resend, the current value with its own seq: not the backlog 3, 4");
        h.clock.advanceMillis(1000);
        h.node.tick();
        assertEquals(3, delivered(h, from).size(), "a clean edge is sent nothing more");
    }

    @Test
    void aLaterDeliveryOfTheVertex_cleansTheEdge_noResendFollows() {
        NodeHarness h = harness();
        write(h, h.temp, 0);
        subscribe(h, "/sensor/temp");
        int from = h.link.sentCount();
        for (int v = 1; v <= 3; v++) {
            write(h, h.temp, v); // 3 dropped
        }
        h.clock.advanceMillis(100);
        write(h, h.temp, 9); // delivered: it is the latest
        h.clock.advanceMillis(1000);
        h.node.tick();
        assertEquals(List.of("01@2", "02@3", "09@5"), delivered(h, from));
    }

    @Test
    void aSubtreeSubscriber_isResentEachChildsCurrentValue() {
        NodeHarness h = harness();
        NodePath hum = NodePath.of("/sensor/hum");
        write(h, h.temp, 0);
        write(h, hum, 0);
        subscribe(h, "/sensor");
        int from = h.link.sentCount();
        write(h, h.temp, 1);
        write(h, hum, 1);
        write(h, h.temp, 2); // dropped
        write(h, hum, 2); // dropped
        assertEquals(2, delivered(h, from).size());
        h.clock.advanceMillis(1000);
        h.node.tick();
        List<String> d = delivered(h, from);
        assertEquals(4, d.size(), d.toString());
        assertEquals(List.of("02@3", "02@3"), d.subList(2, 4), "each child's current value (temp, hum), once");
    }

    @Test
    void aFrameTheLinkCouldNotTake_leavesTheEdgeDirtyToo() {
        NodeHarness h = new NodeHarness(null);
        write(h, h.temp, 0);
        subscribe(h, "/sensor/temp");
        int from = h.link.sentCount();
        h.link.failSends(WireError.FLOW_BACKPRESSURE); // the link's queue is full
        write(h, h.temp, 7);
        h.node.tick();
        assertEquals(List.of(), delivered(h, from), "still full: the resend is dropped too, and stays owed");
        h.link.failSends(WireError.OK);
        h.node.tick();
        assertEquals(List.of("07@2"), delivered(h, from));
        h.node.tick();
        assertEquals(1, delivered(h, from).size());
    }

    @Test
    void aSuspendedEdge_isOwedNothing() {
        NodeHarness h = harness();
        write(h, h.temp, 0);
        subscribe(h, "/sensor/temp");
        int from = h.link.sentCount();
        for (int v = 1; v <= 3; v++) {
            write(h, h.temp, v);
        }
        byte[] susp = Frames.subscriber("/client/a", 0x0200, true, true);
        h.exchange(NodeHarness.PEER, Frames.fwd(1, h.temp.tlv(), Frames.subsField(0, 1, -1), EP, susp));
        h.clock.advanceMillis(1000);
        h.node.tick();
        assertEquals(2, delivered(h, from).size(), "no replay for a suspended edge");
    }
}
