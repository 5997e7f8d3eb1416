package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.stats.BoundedResource;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * What WideNode does over links beyond core-narrow's shared tests (which run against it as Wide*Test):
 * growth far past a NARROW node's pools (outcomes, not time), a remote publisher's identity and
 * stale marking, and the remote client on a WIDE node.
 */
class WideServesLinksTest {
    static {
        NodeHarness.core = WideNode::new;
    }

    static BoundedResource resource(NodeHarness h, String name) {
        return Arrays.stream(h.node.resources()).filter(r -> r.resourceName().equals(name)).findFirst().orElseThrow();
    }

    static boolean contains(byte[] hay, byte[] needle) {
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void tenThousandRemoteSubscribersOfOneVertex_allDelivered_andTheSurfaceHolds() {
        final int n = 10_000;
        NodeHarness h = new NodeHarness(c -> c.maxSubscribers(1 << 20).sharePeers(2 * n));
        h.node.write(h.temp, Frames.value(0, 4), 0, 8); // a remote append needs an existing vertex
        for (int i = 0; i < n; i++) { // the fake link keeps its last 256 frames: read each answer as it comes
            h.link.inject(i, h.subscribeReq("/c/" + i, 0, false, false, NodePath.of("/c/" + i).tlv()));
            h.node.poll();
            Frames.Reply r = Frames.parse(h.link.lastSent());
            assertEquals(0, r.kind, "append " + i + " refused: " + r.errorCode());
        }
        assertEquals(n, h.node.listenerCount(h.temp));
        assertEquals(n, resource(h, "wide.edges").inUse());
        long before = h.link.sendCalls();
        assertEquals(WireError.OK, h.node.write(h.temp, Frames.value(42, 4), 0, 8));
        assertEquals(n, h.link.sendCalls() - before, "one delivery per subscriber");
        Frames.Reply last = Frames.parse(h.link.lastSent());
        assertEquals(1, last.op, "a delivery is a FWD WRITE");
        assertArrayEquals(NodePath.of("/c/" + (n - 1)).tlv(), last.bytes(last.dst), "to the subscriber's stored route");
        assertEquals(0, last.bytes(last.src).length - 4, "with an empty src");

        h.link.clearSent();
        Frames.Reply slot = h.request(h.slotRead(n - 1, -1));
        assertEquals(0, slot.kind);
        assertEquals(TlvType.SUBSCRIBER, slot.idx.type(slot.payload), "[N] reads the stored record");
        assertEquals(1, h.node.slotsHeldBy(h.link, 5));

        h.node.onPeerDown(h.link, 5); // reaping trigger 4: position 5 becomes a hole
        assertEquals(n - 1, h.node.listenerCount(h.temp));
        assertEquals(0, h.node.slotsHeldBy(h.link, 5));
        assertEquals(WireError.PATH_NOT_FOUND, h.request(h.slotRead(5, -1)).errorCode());
        h.announce(n + 1);
        Frames.Reply again = h.request(n + 1, h.subscribeReq("/d", 0, false, false, NodePath.of("/d").tlv()));
        assertEquals(5, Rfc0035Test.identity(again)[0], "a new append takes the lowest hole");
        assertEquals(n, resource(h, "wide.edges").peak());
    }

    @Test
    void hundredThousandVertices_readListedAndComposed() { // 10,000 parents of 10 leaves each
        final int n = 100_000;
        NodeHarness h = new NodeHarness(c -> c.maxVertices(1 << 20).valueBytes(1 << 26).maxKeyBytes(64).frameBytes(1 << 16));
        for (int i = 0; i < n; i++) {
            NodePath p = NodePath.of("/b" + (i % 10_000) + "/v" + i);
            assertEquals(WireError.OK, h.node.write(p, Frames.value(i, 4), 0, 8));
        }
        assertEquals(n + 10_000 + 3, resource(h, "wide.vertices").inUse(), "the leaves, 10,000 parents, the root, $node, $node/caps");
        Frames.Reply r = h.request(Frames.fwd(0, NodePath.of("/b7/v90007").tlv(), null, Frames.REPLY_EP));
        assertArrayEquals(Frames.value(90_007, 4), r.payloadBytes());
        Frames.Reply kids = h.request(Frames.fwd(0, NodePath.of("/b7").tlv(), Frames.field("children"), Frames.REPLY_EP));
        assertEquals(0, kids.kind);
        int count = 0;
        for (int c = kids.idx.firstChild(kids.payload); c != io.spectrum.wire.TlvIndex.NONE; c = kids.idx.nextSibling(c)) {
            count++;
        }
        assertEquals(10, count, ":children[] lists every child of /b7");
        Frames.Reply tree = h.request(Frames.fwd(0, NodePath.of("/b7").tlv(), null, Frames.REPLY_EP));
        assertEquals(0, tree.kind);
        assertEquals(TlvType.POINT, tree.idx.type(tree.payload), "the composed tree");
        Frames.Reply all = h.request(Frames.fwd(0, NodePath.of("/").tlv(), null, Frames.REPLY_EP));
        assertEquals(WireError.FLOW_BACKPRESSURE, all.errorCode(), "the whole tree does not fit a frame: typed refusal");
    }

    @Test
    void aRemotePublisherIsAPeerOfTheNode_andItsValuesGoStaleWhenItGoes() {
        NodeHarness h = new NodeHarness();
        WideNode node = (WideNode) h.node;
        node.write(h.temp, Frames.value(1, 1), 0, 5);
        assertEquals(WideNode.OWNER_IDENTITY, node.lastPublisher(h.temp));
        h.exchange(NodeHarness.PEER, Frames.fwd(1, h.temp.tlv(), null, Frames.EMPTY_PATH, Frames.value(2, 1)));
        assertEquals("link3/" + NodeHarness.PEER, node.lastPublisher(h.temp));
        assertFalse(node.isStale(h.temp));
        node.onPeerDown(h.link, NodeHarness.OTHER_PEER);
        assertFalse(node.isStale(h.temp), "another peer going changes nothing");
        node.onPeerDown(h.link, NodeHarness.PEER);
        assertTrue(node.isStale(h.temp));
    }

    @Test
    void subscribeRemote_sendsTheAppend_takesDeliveries_andResendsWhenThePeerComesBack() {
        NodeHarness h = new NodeHarness();
        NodePath remote = NodePath.of("/sensor/temp");
        NodePath mirror = NodePath.of("/board1/sensor/temp");
        long before = h.link.sendCalls();
        int k = h.node.subscribeRemote(h.link, NodeHarness.PEER, remote, mirror, 0);
        assertTrue(k >= 0, "handle " + k);
        assertEquals(before + 1, h.link.sendCalls());
        Frames.Reply append = Frames.parse(h.link.lastSent());
        assertArrayEquals(remote.tlv(), append.bytes(append.dst));
        assertTrue(contains(append.frame, mirror.tlv()), "the append's src is the mirror: deliveries come back to it");
        assertTrue(h.node.exists(mirror));
        h.exchange(NodeHarness.PEER, Frames.fwd(1, mirror.tlv(), null, Frames.EMPTY_PATH, Frames.value(21, 2)));
        byte[] out = new byte[16];
        assertEquals(6, h.node.read(mirror, out, 0, out.length));
        assertArrayEquals(Frames.value(21, 2), Arrays.copyOf(out, 6));
        h.node.onPeerDown(h.link, NodeHarness.PEER);
        assertEquals(RemoteClient.DOWN, h.node.remote().state(k));
        h.node.onPeerUp(h.link, NodeHarness.PEER);
        assertEquals(2, h.node.remote().sends(k), "re-subscribed when the peer came back");
    }
}
