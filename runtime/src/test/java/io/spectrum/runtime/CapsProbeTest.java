package io.spectrum.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.stats.BoundedResource;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
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

    private static int remoteRequests(NarrowNode node) {
        for (BoundedResource r : node.resources()) {
            if (r.resourceName().equals("node.remoteRequests")) {
                return r.inUse();
            }
        }
        throw new AssertionError("no node.remoteRequests table");
    }
}
