package io.spectrum.node;

import static io.spectrum.node.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.spectrum.node.api.NodePath;
import org.junit.jupiter.api.Test;

/**
 * The value's origin time in the topic stamp (docs/extensions.md "Origin time"): a node that gives
 * origins (a host: {@code NodeConfig.givesOrigins}) stamps a value that arrives without one with its
 * clock's time, in ms, as the pair {@code origin} before the reason, only for subscribers that asked
 * for the stamp; a node that gives none (a board, the default) sends stamps without it, byte for byte
 * as before. Run on both cores (core-wide's WideOriginTest).
 */
class OriginTest {
    /** spectrum-v1/fwd/fwd-deliver-stamp-origin: the stale notice of fwd-deliver-stamp-stale, with origin 1700000000000 ms. */
    static final String VECTOR_ORIGIN = "0f40930001000100010600090006636c69656e7401610600000001000100050b40740002000e00737065637472756d2e746f7069630b405e0002000300736571010008000100000000000000020005007374616c650100010001020002006f700100010000020006006f726967696e010008000068e5cf8b01000002000600726561736f6e01000e007075626c697368657220676f6e65";
    static final byte[] PUB_EP = NodePath.of("/producer/ep").tlv();
    static final byte[] SUB_EP = NodePath.of("/client/a").tlv();

    /** A node on a ManualClock at 0: its epoch time is 1_700_000_000_000 ms. */
    final NodeHarness host = new NodeHarness(b -> b.givesOrigins(true));

    void remotePublish(NodeHarness h, int peer, long value) {
        h.exchange(peer, Frames.fwd(1, h.temp.tlv(), null, PUB_EP, Frames.value(value, 1)));
    }

    /** The vertex exists (an in-process subscriber makes it), so remote peers may subscribe and publish. */
    static NodeHarness withTemp(NodeHarness h) {
        h.node.subscribe(h.temp, 0, (s, v, seq, stale) -> { });
        return h;
    }

    @Test
    void aNodeThatGivesOrigins_stampsItsClockInMs_beforeTheReason_isVectorFwdDeliverStampOrigin() {
        withTemp(host);
        host.exchange(NodeHarness.PEER, host.subscribeReq("/client/a", 0, false, true, SUB_EP));
        byte[] plainEp = NodePath.of("/client/plain").tlv();
        host.exchange(NodeHarness.PEER, host.subscribeReq("/client/plain", 0, false, false, plainEp));
        remotePublish(host, NodeHarness.OTHER_PEER, 5); // seq 1, at epoch ms 1_700_000_000_000
        assertEquals(1_700_000_000_000L, host.node.origin(host.temp));
        host.link.clearSent();
        host.clock.advanceMillis(30_000); // a stale mark keeps the value's origin: it is when the value came, not now
        host.node.onPeerDown(host.link, NodeHarness.OTHER_PEER);
        assertEquals(1, host.link.sentCount(), "the stamped subscriber only: a plain v1 one sees nothing");
        assertEquals(VECTOR_ORIGIN, hex(host.link.sentAt(0)), "the whole notice is vector spectrum-v1/fwd/fwd-deliver-stamp-origin");
    }

    @Test
    void eachPublishTakesTheClockAtItsTime_theOwnersWritesToo_aClearDropsIt() {
        host.clock.advanceMillis(1_234);
        host.node.write(host.temp, Frames.value(1, 1), 0, 5);
        assertEquals(1_700_000_001_234L, host.node.origin(host.temp));
        host.clock.advanceMillis(1_000);
        remotePublish(host, NodeHarness.OTHER_PEER, 2);
        assertEquals(1_700_000_002_234L, host.node.origin(host.temp));
        host.node.clear(host.temp, false);
        assertEquals(0, host.node.origin(host.temp), "no value, no origin");
    }

    @Test
    void aNodeThatGivesNoOrigins_sendsStampsWithoutOne() {
        NodeHarness board = withTemp(new NodeHarness());
        board.exchange(NodeHarness.PEER, board.subscribeReq("/client/a", 0, false, true, SUB_EP));
        board.link.clearSent();
        remotePublish(board, NodeHarness.OTHER_PEER, 5);
        assertEquals(0, board.node.origin(board.temp), "a board leaves the origin to its first host");
        String sent = hex(board.link.sentAt(board.link.sentCount() - 2)); // the delivery, then the publisher's ack
        assertEquals(hex(TopicTest.stamp(1, 0, 0)), sent.substring(sent.indexOf("0b40")), "seq, stale, op: as before");
        assertFalse(sent.contains(hex("origin".getBytes())));
    }
}
