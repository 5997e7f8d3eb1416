package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalApiTest {
    final ManualClock clock = new ManualClock(0);
    final NarrowNode node = new NarrowNode(NodeConfig.builder().clock(clock).build());
    final NodePath temp = NodePath.of("/sensor/temp");
    final NodePath sensor = NodePath.of("/sensor");
    final List<String> got = new ArrayList<>();

    Subscription sub(NodePath p, int policy, String tag) {
        return node.subscribe(p, policy, (s, v, seq, stale) -> got.add(tag + " " + v.path() + " " + Frames.hex(v.copy()) + " seq=" + seq + (stale ? " stale" : "")));
    }

    @Test
    void writeCreatesMissingPathsAndReadReturnsTheValue() {
        assertFalse(node.exists(sensor));
        assertEquals(WireError.OK, node.write(temp, Frames.value(21, 1), 0, 5));
        assertTrue(node.exists(sensor));
        byte[] out = new byte[16];
        assertEquals(5, node.read(temp, out, 0, out.length));
        assertArrayEquals(Frames.value(21, 1), java.util.Arrays.copyOf(out, 5));
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(sensor, out, 0, out.length));
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(NodePath.of("/nope"), out, 0, 16));
    }

    @Test
    void readIntoTooSmallBufferIsBackpressure() {
        node.write(temp, Frames.value(1, 4), 0, 8);
        assertEquals(-WireError.FLOW_BACKPRESSURE, node.read(temp, new byte[4], 0, 4));
    }

    @Test
    void writeDeliversToOwnAndAncestorSubscribersWithSequence() {
        sub(temp, 0, "own");
        sub(sensor, 0, "subtree");
        sub(NodePath.of("/other"), 0, "other");
        node.write(temp, Frames.value(7, 1), 0, 5);
        assertEquals(List.of("own /sensor/temp 0100010007 seq=1", "subtree /sensor/temp 0100010007 seq=1"), got);
        assertEquals(2, node.listenerCount(temp));
        assertEquals(1, node.listenerCount(sensor));
    }

    @Test
    void suspendedEdgeReceivesNothingAndDoesNotCount() {
        Subscription a = sub(temp, 0, "a");
        assertEquals(WireError.OK, a.suspend());
        assertTrue(a.isSuspended());
        assertEquals(0, node.listenerCount(temp));
        node.write(temp, Frames.value(1, 1), 0, 5);
        assertEquals(List.of(), got);
        assertEquals(WireError.OK, a.resume());
        assertEquals(List.of(), got, "resume replays nothing");
        node.write(temp, Frames.value(2, 1), 0, 5);
        assertEquals(1, got.size());
    }

    @Test
    void suspendedEdgeBesideADeliveringOneGetsNothing() {
        Subscription a = sub(temp, 0, "a");
        sub(temp, 0, "b");
        Subscription c = sub(sensor, 0, "c");
        sub(sensor, 0, "d");
        a.suspend();
        c.suspend();
        node.write(temp, Frames.value(1, 1), 0, 5);
        assertEquals(List.of("b /sensor/temp 0100010001 seq=1", "d /sensor/temp 0100010001 seq=1"), got);
    }

    @Test
    void closeRemovesTheSlotAndLaterCallsAreNotFound() {
        Subscription a = sub(temp, 0, "a");
        assertEquals(WireError.OK, a.close());
        assertFalse(a.isOpen());
        assertEquals(WireError.PATH_NOT_FOUND, a.suspend());
        node.write(temp, Frames.value(1, 1), 0, 5);
        assertEquals(List.of(), got);
    }

    @Test
    void durabilityLatchDeliversCurrentValueOnSubscribe() {
        node.write(temp, Frames.value(9, 1), 0, 5);
        sub(temp, 0x20, "durable");
        sub(temp, 0, "plain");
        assertEquals(List.of("durable /sensor/temp 0100010009 seq=1"), got);
    }

    @Test
    void createSuspendedDoesNotLatch() {
        node.write(temp, Frames.value(9, 1), 0, 5);
        Subscription s = sub(temp, 0x20 | 0x200, "x");
        assertTrue(s.isSuspended());
        assertEquals(List.of(), got);
    }

    @Test
    void oneShotFiresOnceThenGoes_andSuspendedOneShotWaitsForResume() {
        Subscription once = sub(temp, 0x100 | 0x200, "once");
        node.write(temp, Frames.value(1, 1), 0, 5);
        assertEquals(List.of(), got, "a suspended one_shot does not fire");
        once.resume();
        node.write(temp, Frames.value(2, 1), 0, 5);
        node.write(temp, Frames.value(3, 1), 0, 5);
        assertEquals(List.of("once /sensor/temp 0100010002 seq=2"), got);
        assertFalse(once.isOpen());
    }

    @Test
    void slotPositionsReuseTheLowestHole() {
        Subscription a = sub(temp, 0, "a");
        Subscription b = sub(temp, 0, "b");
        Subscription c = sub(temp, 0, "c");
        assertEquals(0, a.index());
        assertEquals(2, c.index());
        b.close();
        Subscription d = sub(temp, 0, "d");
        assertEquals(1, d.index());
        Subscription e = sub(temp, 0, "e");
        assertEquals(3, e.index());
    }
}
