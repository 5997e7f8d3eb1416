package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.stats.BoundedResource;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What WideNode adds or leaves out beyond the shared Node behaviour. */
class WideNodeTest {
    final ManualClock clock = new ManualClock(0);
    final WideNode node = new WideNode(WideNode.hostConfig().clock(clock).build());
    final NodePath t = NodePath.of("/t");

    @Test
    void aDisconnectedPeerLosesItsEdges_andIsRefusedAfterwards() {
        WidePeer p = node.connect("p");
        List<String> got = new ArrayList<>();
        Subscription s = p.subscribe(t, 0, (sub, v, seq, stale) -> got.add("x"));
        assertEquals(1, node.listenerCount(t));
        p.disconnect();
        assertFalse(s.isOpen());
        assertEquals(0, node.listenerCount(t));
        assertFalse(p.isConnected());
        assertEquals(WireError.TRANSPORT_DOWN, p.publish(t, Tlv.value(1, 1), 0, 5));
        assertEquals(WireError.TRANSPORT_DOWN, p.subscribe(t, 0, (sub, v, seq, stale) -> { }).error());
        node.write(t, Tlv.value(1, 1), 0, 5);
        assertEquals(List.of(), got);
    }

    @Test
    void declaredRightsGatePeersButNotTheOwner() {
        NodePath ro = NodePath.of("/ro");
        node.declare(ro, VertexSchema.value(1, false).rights(AccessMask.READ).build());
        WidePeer p = node.connect("p");
        assertEquals(WireError.ACCESS_DENIED, p.publish(ro, Tlv.value(1, 1), 0, 5));
        assertEquals(WireError.ACCESS_DENIED, p.subscribe(ro, 0, (s, v, q, st) -> { }).error());
        assertEquals(WireError.OK, node.write(ro, Tlv.value(1, 1), 0, 5));
        assertEquals(0, node.listenerCount(ro));
    }

    @Test
    void aPublishWithinTheGraceClearsStale_andReservedNamesCannotBeRegistered() {
        WidePeer p = node.connect("p");
        p.publish(t, Tlv.value(1, 1), 0, 5);
        p.disconnect();
        assertTrue(node.isStale(t));
        clock.advanceMillis(59_000);
        node.tick();
        node.connect("p").publish(t, Tlv.value(2, 1), 0, 5);
        assertFalse(node.isStale(t));
        clock.advanceMillis(10_000);
        node.tick();
        assertEquals(5, node.read(t, new byte[8], 0, 8), "no purge once it came back");
        assertThrows(IllegalArgumentException.class, () -> node.connect("$me"));
        assertThrows(IllegalArgumentException.class, () -> node.connect("anon-00000000-1"));
    }

    @Test
    void valueBytesAreCounted() {
        BoundedResource values = node.resources()[2];
        long base = values.inUse();
        node.write(t, Tlv.value(1, 4), 0, 8);
        assertEquals(base + 8, values.inUse());
        node.write(t, Tlv.value(1, 1), 0, 5);
        assertEquals(base + 5, values.inUse());
        node.clear(t, false);
        assertEquals(base, values.inUse());
        assertEquals("wide.values", values.resourceName());
    }
}
