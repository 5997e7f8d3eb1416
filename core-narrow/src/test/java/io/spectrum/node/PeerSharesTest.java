package io.spectrum.node;

import io.spectrum.node.api.NodePath;
import io.spectrum.stats.BoundedResource;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11 item 4: one peer cannot take more than its share of slots, awaits, share entries or
 * delivery rate, while another peer's subscription keeps being delivered. Deterministic: a fake
 * link and the manual clock; no timing.
 */
class PeerSharesTest {
    static final int GREEDY = 21;
    static final int QUIET = 22;

    /** Appends a subscription for {@code peer} to /sensor/temp with its own target; returns the reply. */
    private static Frames.Reply append(NodeHarness h, int peer, String target) {
        return h.request(peer, h.subscribeReq(target, 0, false, false, NodePath.of(target).tlv()));
    }

    /** Deliveries among {@code frames} that went to {@code peer}. */
    private static int deliveriesTo(NodeHarness h, int from, int peer) {
        int n = 0;
        for (int i = from; i < h.link.sentCount(); i++) {
            if (h.link.sentPeer(i) == peer && Frames.parse(h.link.sentAt(i)).op == FwdView.OP_WRITE) {
                n++;
            }
        }
        return n;
    }

    @Test
    void onePeerCannotTakeMoreThanItsShareOfSlots_andTheOtherKeepsItsDeliveries() {
        NodeHarness h = new NodeHarness(c -> c.maxSubscribers(32).slotsPerPeer(8));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        assertEquals(0, append(h, QUIET, "/quiet/t").kind);
        int admitted = 0;
        int refused = 0;
        for (int i = 0; i < 40; i++) {
            Frames.Reply r = append(h, GREEDY, "/greedy/t" + i);
            if (r.kind == FwdView.KIND_RESULT) {
                admitted++;
            } else {
                assertEquals(WireError.FLOW_BACKPRESSURE, r.errorCode(), "over the share: backpressure");
                refused++;
            }
        }
        assertEquals(8, admitted, "the greedy peer gets its share and no more");
        assertEquals(32, refused);
        assertEquals(8, h.node.slotsHeldBy(h.link, GREEDY));
        assertEquals(1, h.node.slotsHeldBy(h.link, QUIET));
        assertEquals(32, h.node.slotShareRefused());
        assertEquals(32, h.node.linkStats(h.link).shareRefused(), "counted per link");
        // the pool is not exhausted: a third peer still subscribes, the quiet one still gets every value
        assertEquals(0, append(h, 23, "/third/t").kind);
        int before = h.link.sentCount();
        for (int i = 0; i < 10; i++) {
            h.node.write(h.temp, Frames.value(i, 1), 0, 5);
        }
        assertEquals(10, deliveriesTo(h, before, QUIET));
        // a cleared slot goes back to its holder's share
        int pos = 1; // the greedy peer's first slot (quiet holds 0)
        assertEquals(0, h.request(GREEDY, h.slotWrite(pos, -1, Names.EMPTY_STATUS.copy(), NodePath.of("/greedy/t0").tlv())).kind);
        assertEquals(7, h.node.slotsHeldBy(h.link, GREEDY));
        assertEquals(0, append(h, GREEDY, "/greedy/again").kind);
        // and a departed peer gives its whole share back
        h.link.listener().onPeerDown(h.link, GREEDY);
        assertEquals(0, h.node.slotsHeldBy(h.link, GREEDY));
    }

    @Test
    void onePeerCannotTakeMoreThanItsShareOfAwaits_andALongTimeoutIsClamped() {
        NodeHarness h = new NodeHarness(c -> c.maxAwaits(16).awaitsPerPeer(4).maxAwaitTimeoutNanos(5_000_000_000L));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        byte[] hourLong = Frames.fwd(2, h.temp.tlv(), null, Frames.REPLY_EP, Frames.value(3_600_000_000_000L, 8));
        for (int i = 0; i < 4; i++) {
            assertEquals(0, h.exchange(GREEDY, hourLong).size(), "parked");
        }
        for (int i = 0; i < 6; i++) {
            assertEquals(WireError.FLOW_BACKPRESSURE, h.request(GREEDY, hourLong).errorCode());
        }
        assertEquals(4, h.node.awaitsHeldBy(h.link, GREEDY));
        assertEquals(6, h.node.awaitShareRefused());
        assertEquals(0, h.exchange(QUIET, Frames.fwd(2, h.temp.tlv(), null, Frames.REPLY_EP)).size(),
                "a legitimate await is still admitted");
        // the hour-long request was clamped to the 5 s cap: at 5 s all four answer timeout
        h.clock.advanceMillis(1000);
        h.node.tick(); // the quiet peer's default 1 s await times out
        int before = h.link.sentCount();
        h.clock.advanceMillis(4000);
        h.node.tick();
        assertEquals(4, h.link.sentCount() - before);
        for (int i = before; i < h.link.sentCount(); i++) {
            assertEquals(GREEDY, h.link.sentPeer(i));
            assertEquals(WireError.FLOW_TIMEOUT, Frames.parse(h.link.sentAt(i)).errorCode());
        }
        assertEquals(0, h.node.awaitsHeldBy(h.link, GREEDY), "answered awaits go back to the share");
    }

    @Test
    void aFullShareTableRefusesANewPeer_notThoseAlreadyIn() {
        NodeHarness h = new NodeHarness(c -> c.sharePeers(3));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        for (int p = 0; p < 3; p++) {
            assertEquals(0, append(h, 40 + p, "/p" + p).kind);
        }
        assertEquals(WireError.FLOW_BACKPRESSURE, append(h, 50, "/late").errorCode());
        assertEquals(0, append(h, 40, "/p0/second").kind, "a peer already in keeps its share");
        BoundedResource peers = List.of(h.node.resources()).stream()
                .filter(r -> r.resourceName().equals("node.peers")).findFirst().orElseThrow();
        assertEquals(3, peers.capacity());
        assertEquals(3, peers.inUse());
        assertEquals(1, peers.refused());
        h.link.listener().onPeerDown(h.link, 41);
        assertEquals(2, peers.inUse(), "an entry goes with its peer's last slot");
        assertEquals(0, append(h, 50, "/late").kind);
    }

    @Test
    void deliveriesBeyondAPeersRateAreDroppedAndCounted_theOtherPeerGetsEveryOne() {
        NodeHarness h = new NodeHarness(c -> c.peerDeliveriesPerSecond(10).peerDeliveryBurst(5));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        assertEquals(0, append(h, QUIET, "/quiet/t").kind);
        for (int i = 0; i < 4; i++) {
            assertEquals(0, append(h, GREEDY, "/greedy/t" + i).kind); // four edges: four frames per write
        }
        int before = h.link.sentCount();
        for (int i = 0; i < 50; i++) {
            h.clock.advanceMillis(100); // one token per write and peer
            h.node.write(h.temp, Frames.value(i, 1), 0, 5);
        }
        assertEquals(50, deliveriesTo(h, before, QUIET), "within its rate: every value");
        int greedy = deliveriesTo(h, before, GREEDY);
        // burst of 5 tokens, then one token per write: at most 5 + 50 of the 200 frames
        assertTrue(greedy <= 55 && greedy >= 50, "greedy got " + greedy);
        assertEquals(200 - greedy, h.node.deliveriesDropped());
        assertEquals(200 - greedy, h.node.linkStats(h.link).deliveriesDropped());
    }

    @Test
    void theOwnerHasNoShare() {
        NodeHarness h = new NodeHarness(c -> c.maxSubscribers(8).slotsPerPeer(1));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        for (int i = 0; i < 4; i++) {
            assertTrue(h.node.subscribe(h.temp, 0, (s, v, q, st) -> { }).isOpen());
            assertEquals(0, h.owner(h.subscribeReq("/own/t" + i, 0, false, false, NodePath.of("/own/t" + i).tlv())).kind);
        }
        assertEquals(0, h.node.slotShareRefused());
    }
}
