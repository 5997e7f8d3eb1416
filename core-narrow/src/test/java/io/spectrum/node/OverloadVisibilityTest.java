package io.spectrum.node;

import io.spectrum.testing.MemoryLink;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.SettingsReader;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11 items 5 and 6: a value that could not travel in the smallest attached link's frame is
 * refused when written, and the node's overload counters are readable remotely at
 * {@code /$node/stats} (owner-written, remote READ allowed, remote write denied).
 */
class OverloadVisibilityTest {
    static final NodePath STATS = NodePath.of(Names.STATS_PATH);

    private static byte[] name(int bodyBytes) {
        byte[] b = new byte[4 + bodyBytes];
        b[0] = 0x08; // NAME
        b[2] = (byte) bodyBytes;
        b[3] = (byte) (bodyBytes >> 8);
        java.util.Arrays.fill(b, 4, b.length, (byte) 'x');
        return b;
    }

    @Test
    void theSmallestAttachedLinksFrameBoundsWhatMayBeWritten() {
        NodeHarness h = new NodeHarness();
        NodePath p = NodePath.of("/board/name");
        byte[] v = name(300);
        assertEquals(WireError.OK, h.node.write(p, v, 0, v.length), "fits the 4096-byte frames of the first link");
        assertEquals(WireError.OK, h.node.attach(new MemoryLink(9, 256)));
        assertEquals(WireError.FLOW_BACKPRESSURE, h.node.write(p, v, 0, v.length),
                "would not fit one frame of the 256-byte link: refused at write time");
        assertEquals(WireError.FLOW_BACKPRESSURE,
                h.request(Frames.fwd(1, p.tlv(), null, Frames.REPLY_EP, v)).errorCode(), "remote write too");
        byte[] small = name(150);
        assertEquals(WireError.OK, h.node.write(p, small, 0, small.length));
    }

    @Test
    void statsAreReadableRemotely_notWritable_andCountRefusals() {
        NodeHarness h = new NodeHarness(c -> c.maxSubscribers(8).slotsPerPeer(2));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        for (int i = 0; i < 3; i++) {
            h.request(PeerSharesTest.GREEDY, h.subscribeReq("/g" + i, 0, false, false, NodePath.of("/g" + i).tlv()));
        }
        for (int i = 0; i < 7; i++) {
            h.link.counters().countInvalid(); // the link's own drops
        }
        byte[] junk = {0x0f, (byte) 0x80};
        for (int i = 0; i < 4; i++) {
            h.node.onFrame(h.link, PeerSharesTest.GREEDY, junk, 0, junk.length); // undecodable: the node rejects it
        }
        h.clock.advanceMillis(1000);
        h.node.tick(); // the periodic refresh
        Frames.Reply r = h.request(Frames.fwd(0, STATS.tlv(), null, Frames.REPLY_EP));
        assertEquals(FwdView.KIND_RESULT, r.kind);
        TlvIndex x = r.idx;
        SettingsReader top = new SettingsReader();
        assertEquals(WireError.OK, top.wrap(x, r.payload));
        SettingsReader s = new SettingsReader();
        assertEquals(WireError.OK, top.enter(ascii("node.slots"), s));
        assertEquals(8, s.u64(ascii("capacity"), -1));
        assertEquals(2, s.u64(ascii("in_use"), -1));
        assertEquals(0, s.u64(ascii("dropped"), -1));
        assertEquals(0, s.u64(ascii("refused"), -1), "a share refusal is not a pool refusal: counted apart");
        SettingsReader link = new SettingsReader();
        assertEquals(WireError.OK, top.enter(ascii("link.3"), link));
        assertEquals(7, link.u64(ascii("dropped_invalid"), -1));
        assertEquals(4, link.u64(ascii("frames_rejected"), -1));
        assertEquals(1, link.u64(ascii("share_refused"), -1));
        assertEquals(-1, link.u64(ascii("share_refusals"), -1), "one spelling: refused");
        SettingsReader peer = new SettingsReader();
        assertEquals(WireError.OK, top.enter(ascii("peer.3." + PeerSharesTest.GREEDY), peer));
        assertEquals(2, peer.u32(ascii("slots"), -1));
        assertEquals(1, peer.u64(ascii("refused"), -1));
        // remote write denied
        assertEquals(WireError.ACCESS_DENIED,
                h.request(Frames.fwd(1, STATS.tlv(), null, Frames.REPLY_EP, Frames.value(1, 1))).errorCode());
    }

    @Test
    void linksThatDoNotFitTheFrameAreLeftOutAndCounted() {
        NodeHarness h = new NodeHarness(c -> c.maxLinks(8));
        for (int i = 0; i < 7; i++) {
            assertEquals(WireError.OK, h.node.attach(new MemoryLink(10 + i, 4096)));
        }
        h.clock.advanceMillis(1000);
        h.node.tick();
        byte[] tree = new byte[4096];
        int n = h.node.read(STATS, tree, 0, tree.length);
        assertTrue(n > 0 && n <= 4096 - 36, "the tree still fits one frame: " + n);
        TlvIndex x = new TlvIndex(4096, 16); // more entries than a small reader's index holds: read locally
        assertEquals(WireError.OK, new io.spectrum.wire.FrameDecoder().decode(tree, 0, n, x));
        SettingsReader top = new SettingsReader();
        assertEquals(WireError.OK, top.wrap(x, 0));
        int shown = 0;
        SettingsReader link = new SettingsReader();
        for (int id : new int[] {3, 10, 11, 12, 13, 14, 15, 16}) {
            if (top.enter(ascii("link." + id), link) == WireError.OK) {
                shown++;
            }
        }
        long omitted = top.u32(ascii("links_omitted"), -1);
        assertTrue(omitted > 0, "eight links do not fit 4096 bytes");
        assertEquals(8, shown + omitted, "every link shown or counted");
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
