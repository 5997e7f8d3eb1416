package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wide.WideNode;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import org.junit.jupiter.api.Test;

/**
 * Issue 10 item 4, last sentence: a remote caller of a WideNode is known by the name it announces
 * ({@code spectrum.name}, docs/extensions.md "Peer name"), not only by its address, so a client that
 * comes back from a new port and publishes is the same last publisher and its stale mark clears within
 * the grace; an unnamed caller stays {@code link<id>/<peer>}; edges are still reaped per (link, peer).
 */
class WidePeerNameTest {
    static {
        NodeHarness.core = WideNode::new;
    }

    private static final int PEER = NodeHarness.PEER;
    private static final int RETURNED = NodeHarness.OTHER_PEER;
    private static final long GRACE = 60_000_000_000L;

    private static byte[] write(NodeHarness h, long v) {
        return Frames.fwd(1, h.temp.tlv(), null, Frames.REPLY_EP, Frames.value(v, 1));
    }

    /** A harness whose vertex exists (the owner wrote it first: a remote write does not create it). */
    private static NodeHarness harness() {
        NodeHarness h = new NodeHarness();
        h.node.write(h.temp, Frames.value(0, 1), 0, 5);
        return h;
    }

    private static void assertOk(Frames.Reply r) {
        assertEquals(0, r.kind, "refused: " + r.errorCode());
    }

    private static boolean holdsValue(NodeHarness h) {
        return h.node.read(h.temp, new byte[16], 0, 16) > 0;
    }

    @Test
    void aNamedPublisherReturningFromANewPort_isTheSamePublisher_andItsStaleMarkClears() {
        NodeHarness h = harness();
        WideNode node = (WideNode) h.node;
        assertOk(h.request(PEER, Frames.named(write(h, 1), "svc")));
        assertEquals("svc", node.lastPublisher(h.temp), "known by its name, not link3/7");
        h.node.onPeerDown(h.link, PEER);
        assertTrue(node.isStale(h.temp));
        h.clock.advanceNanos(GRACE / 2);
        h.node.tick();
        assertOk(h.request(RETURNED, Frames.named(write(h, 2), "svc")));
        assertFalse(node.isStale(h.temp), "the same name republished within the grace");
        assertEquals("svc", node.lastPublisher(h.temp));
        h.clock.advanceNanos(GRACE);
        h.node.tick();
        assertTrue(holdsValue(h), "not purged: the grace ended with a live publisher");
        assertEquals(3, node.sequence(h.temp), "the sequence goes on (owner, svc, svc again)");
    }

    @Test
    void edgesAreStillReapedPerLinkAndPeer_andTheOldConnectionOfTheNameGoingChangesNothing() {
        NodeHarness h = harness();
        WideNode node = (WideNode) h.node;
        assertOk(h.request(PEER, Frames.named(write(h, 1), "svc")));
        assertOk(h.request(RETURNED, Frames.named(write(h, 2), "svc"))); // a second connection, same name
        Frames.Reply a = h.request(RETURNED, h.subscribeReq("/c", 0, false, false, Frames.REPLY_EP));
        assertEquals(0, a.kind);
        assertEquals(1, h.node.listenerCount(h.temp));
        h.node.onPeerDown(h.link, PEER); // the old connection of "svc" goes (ABP A-23)
        assertEquals(1, h.node.listenerCount(h.temp), "the other connection's edge stays");
        assertFalse(node.isStale(h.temp), "its last publisher is the live connection");
        assertEquals("svc", node.lastPublisher(h.temp));
        h.node.onPeerDown(h.link, RETURNED);
        assertEquals(0, h.node.listenerCount(h.temp), "reaped with its own (link, peer)");
        assertTrue(node.isStale(h.temp));
    }

    @Test
    void anUnnamedReturningPeer_isAnotherIdentity_staleUntilItPublishes() {
        NodeHarness h = harness();
        WideNode node = (WideNode) h.node;
        assertOk(h.request(PEER, write(h, 1)));
        assertEquals("link3/" + PEER, node.lastPublisher(h.temp));
        h.node.onPeerDown(h.link, PEER);
        assertTrue(node.isStale(h.temp));
        assertOk(h.request(RETURNED, Frames.fwd(0, h.temp.tlv(), null, Frames.REPLY_EP)));
        assertTrue(node.isStale(h.temp), "reading does not clear it");
        assertEquals("link3/" + PEER, node.lastPublisher(h.temp));
        assertOk(h.request(RETURNED, write(h, 2)));
        assertFalse(node.isStale(h.temp));
        assertEquals("link3/" + RETURNED, node.lastPublisher(h.temp), "the publisher changed");

        assertOk(h.request(PEER, Frames.named(write(h, 3), "svc")));
        h.node.onPeerDown(h.link, PEER);
        assertOk(h.request(PEER, write(h, 4))); // back without its name
        assertNotEquals("svc", node.lastPublisher(h.temp), "no name announced: not recognised");
        assertEquals("link3/" + PEER, node.lastPublisher(h.temp));
    }

    @Test
    void aNameAPeerMayNotTake_isIgnored() {
        NodeHarness h = harness();
        WideNode node = (WideNode) h.node;
        assertOk(h.request(PEER, Frames.named(write(h, 1), "$owner")));
        assertEquals("link3/" + PEER, node.lastPublisher(h.temp));
        assertOk(h.request(RETURNED, Frames.named(write(h, 2), "anon-0000abcd-1")));
        assertEquals("link3/" + RETURNED, node.lastPublisher(h.temp));
    }

    @Test
    void aPlainV1Peer_getsPlainAnswers_aNamingPeerTheExtendedOnes() {
        NodeHarness h = harness();
        Frames.Reply named = h.request(PEER, Frames.named(h.subscribeReq("/c", 0, false, false, Frames.REPLY_EP), "svc"));
        assertEquals(0, named.kind);
        assertEquals(TlvType.FIELD, named.idx.type(named.payload), "announced: RESULT + FIELD identity");
        Frames.Reply plain = h.request(RETURNED, h.subscribeReq("/d", 0, false, false, Frames.REPLY_EP));
        assertEquals(0, plain.kind);
        assertEquals(TlvIndex.NONE, plain.payload, "plain v1: RESULT, no payload");
        assertFalse(Frames.hex(plain.frame).contains(Frames.hex("spectrum.".getBytes())), "no spectrum.* byte");
    }
}
