package io.spectrum.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.stats.BoundedResource;
import io.spectrum.testing.Frames;
import io.spectrum.testing.MemoryLink;
import io.spectrum.testing.ReapingLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdRewrite;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

/** The liveness ping's request handle: a peer that goes down without answering does not keep it. */
class CapsProbeTest {
    @Test
    void anUnansweredPingIsReleasedWhenItsPeerGoesDown() {
        ManualClock clock = new ManualClock(0);
        NarrowNode node = new NarrowNode(NodeConfig.builder().clock(clock).build());
        MemoryLink[] pair = MemoryLink.pair(); // the far end is never polled: no ping is answered
        node.attach(pair[1]);
        CapsProbe probe = new CapsProbe(node, 1, 1);
        probe.install(pair[1]);
        probe.probe(pair[1], 0);
        assertEquals(1, remoteRequests(node), "the ping is outstanding");

        pair[1].close(); // the link reports its peer down
        probe.sweep();
        assertEquals(0, remoteRequests(node), "the gone peer's ping holds no request handle");
    }

    @Test
    void aPeerThatAnswersWithoutCapsIsPingedByTheLinkNotEveryHousekeeping() {
        ManualClock clock = new ManualClock(1_000_000_000L);
        NarrowNode node = new NarrowNode(NodeConfig.builder().clock(clock).build());
        MemoryLink[] pair = MemoryLink.pair();
        ReapingLink end = new ReapingLink(pair[0], clock, 5_000_000_000L, 1_000_000_000L);
        node.attach(end);
        CapsProbe probe = new CapsProbe(node, 1, 1, 0);
        probe.install(end);
        FrameDecoder d = new FrameDecoder();
        TlvIndex x = new TlvIndex();
        FwdView f = new FwdView();
        byte[] out = new byte[256];
        byte[] hello = Frames.value(0, 8);
        pair[1].send(0, hello, 0, hello.length); // it speaks first: up
        for (int i = 0; i < 100; i++) { // 10 s of the node loop, housekeeping every 100 ms
            clock.advanceMillis(100);
            node.poll();
            node.tick();
            probe.sweep();
            pair[1].poll((l, p, b, off, len) -> { // the far end answers every READ path::not_found, as a PeerClient does
                if (d.decode(b, off, len, x) == WireError.OK && f.wrap(x, 0) == WireError.OK && f.opcode() == FwdView.OP_READ) {
                    int n = FwdRewrite.errorReply(f, WireError.PATH_NOT_FOUND, new TlvWriter().wrap(out, 0, out.length));
                    pair[1].send(0, out, 0, n);
                }
            }, 16);
        }
        assertTrue(end.isPeerUp(0), "kept alive by its answers");
        assertTrue(probe.sent() <= 21, "about one ping a second, not ten: " + probe.sent());
    }

    private static int remoteRequests(NarrowNode node) {
        for (BoundedResource r : node.resources()) {
            if (r.resourceName().equals("node.remoteRequests")) {
                return (int) r.inUse();
            }
        }
        throw new AssertionError("no node.remoteRequests table");
    }
}
