package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.ActivityListener;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On a host that serves subscriptions under its mounts, the host hears the active / idle notices of
 * the vertices its boards feed, and every other vertex's last publisher (a bus connection, an
 * announcing client) hears its own: a topic's publisher learns when its first subscriber comes and
 * its last goes.
 */
class HostActivityNoticesTest {
    private final ManualClock clock = new ManualClock(0);
    private final WideNode host = new WideNode(NodeConfig.builder().clock(clock).serveSubscriptionsUnderMounts(true)
            .maxMounts(4).maxVertices(512).maxSubscribers(512).maxKeyBytes(128).frameBytes(16 * 1024).build());
    private final List<String> hostHeard = new ArrayList<>();
    private final List<String> appHeard = new ArrayList<>();

    private static ActivityListener into(List<String> out) {
        return (path, active, n) -> out.add(path.nodePath() + (active ? " active " : " idle ") + n);
    }

    @Test
    void aHostTopicsPublisher_isToldOfItsSubscribers_andTheMountsNoticesStayTheHosts() {
        MemoryLink[] mount = MemoryLink.pair();
        assertEquals(WireError.OK, host.attach(mount[0]));
        assertEquals(WireError.OK, host.mount("board1", mount[0], 0));
        host.setActivityListener(into(hostHeard));
        WidePeer app = host.connect("app");
        app.setActivityListener(into(appHeard));
        NodePath lab = NodePath.of("/lab/setpoint");
        byte[] v = {0x01, 0x00, 0x01, 0x00, 0x2A};
        assertEquals(WireError.OK, app.publish(lab, v, 0, v.length));

        Subscription s = host.subscribe(lab, 0, (sub, value, seq, stale) -> { });
        s.close();
        assertEquals(List.of("/lab/setpoint active 1", "/lab/setpoint idle 0"), appHeard);
        assertEquals(List.of(), hostHeard, "not the host's: the app published it");

        Subscription b = host.subscribe(NodePath.of("/board1/temp"), 0, (sub, value, seq, stale) -> { });
        b.close();
        assertEquals(List.of("/board1/temp active 1", "/board1/temp idle 0"), hostHeard, "a mounted vertex's are the host's");
        assertEquals(2, appHeard.size());
    }
}
