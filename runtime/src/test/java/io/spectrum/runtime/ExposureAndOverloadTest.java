package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 11 items 2 and 6 at the process level: the wildcard warning, and rate-limited overload lines. */
class ExposureAndOverloadTest {
    private final ManualClock clock = new ManualClock(0);

    private NarrowNode board() {
        NarrowNode n = new NarrowNode(NodeConfig.builder().clock(clock).build());
        n.declare(NodePath.of("/board/led"), VertexSchema.value(1, false).range(0, 1).writable().build());
        n.declare(NodePath.of("/board/temp"), VertexSchema.value(2, true).readOnly().build());
        return n;
    }

    @Test
    void aWildcardListenerGetsOneLineNamingWhatItExposes_loopbackNone() throws Exception {
        NarrowNode node = board();
        Link any = LinkSpec.udpListen(1, "0.0.0.0:0", new LinkSettings(), clock);
        Link lo = LinkSpec.udpListen(2, ":0", new LinkSettings(), clock);
        try {
            List<String> w = LinkNotices.atStart(any, node);
            List<String> exposure = w.stream().filter(s -> s.contains("every interface")).toList();
            assertEquals(1, exposure.size(), String.valueOf(w));
            String line = exposure.get(0);
            assertTrue(line.contains("read every vertex") && line.contains("subscribe"), line);
            assertTrue(line.contains("write /board/led") && !line.contains("/board/temp"), line);
            assertTrue(((UdpLink) lo).localAddress().getAddress().isLoopbackAddress());
            assertTrue(LinkNotices.atStart(lo, node).stream().noneMatch(s -> s.contains("every interface")));
        } finally {
            any.close();
            lo.close();
        }
    }

    @Test
    void theFrameSettingReachesTheLink_andBoundsTheNodesWrites() throws Exception {
        Link l = LinkSpec.udpListen(1, ":0", new LinkSettings().frameBytes(512), clock);
        try {
            assertEquals(512, l.maxFrame());
            NarrowNode node = board();
            node.attach(l);
            byte[] big = new byte[4 + 600];
            big[0] = 0x08;
            big[2] = (byte) 600;
            big[3] = (byte) (600 >> 8);
            assertEquals(io.spectrum.wire.WireError.FLOW_BACKPRESSURE, node.write(NodePath.of("/board/note"), big, 0, big.length));
        } finally {
            l.close();
        }
    }

    @Test
    void overloadLinesAreRateLimitedPerKind() throws Exception {
        List<String> lines = new ArrayList<>();
        OverloadLog log = new OverloadLog("board", 10_000_000_000L, lines::add);
        MemoryLink l = new MemoryLink(1, 1024);
        try {
            ResourceCounter slots = new ResourceCounter("node.slots", 4);
            BoundedResource[] pools = {slots};
            List<Link> links = List.of(l);
            log.check(links, null, pools, 0);
            assertEquals(0, lines.size(), "nothing moved");
            refusePeers(l, 5);
            slots.countRefused();
            log.check(links, null, pools, 1_000_000_000L);
            assertEquals(2, lines.size(), String.valueOf(lines));
            assertTrue(lines.get(0).contains("5 new senders refused"), lines.get(0));
            assertTrue(lines.get(1).contains("node.slots: 1 refused at the ceiling of 4"), lines.get(1));
            for (int s = 2; s <= 10; s++) { // keeps happening: no line until the period has passed
                refusePeers(l, 5);
                log.check(links, null, pools, s * 1_000_000_000L);
            }
            assertEquals(2, lines.size());
            log.check(links, null, pools, 11_000_000_000L);
            assertEquals(3, lines.size());
            assertTrue(lines.get(2).contains(": 45 new senders refused") && lines.get(2).contains("(50 since start)"), lines.get(2));
        } finally {
            l.close();
        }
    }

    private static void refusePeers(MemoryLink l, int n) {
        for (int i = 0; i < n; i++) {
            l.counters().countPeerRefused();
        }
    }
}
