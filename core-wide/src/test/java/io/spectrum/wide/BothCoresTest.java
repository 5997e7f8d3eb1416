package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.stats.BoundedResource;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.Opt;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The owner-side behaviour both cores share, run against NarrowNode and WideNode built from the same
 * {@link NodeConfig} (core-narrow's LocalApiTest and the local half of its TopicTest, plus the
 * composed read, declarations and ceilings), and a byte-for-byte comparison of what both answer.
 */
class BothCoresTest {
    final ManualClock clock = new ManualClock(0);
    final NodePath temp = NodePath.of("/sensor/temp");
    final NodePath sensor = NodePath.of("/sensor");
    final List<String> got = new ArrayList<>();

    static Stream<Arguments> cores() {
        return Stream.of(
                Arguments.of("narrow", (Function<NodeConfig, Node>) NarrowNode::new),
                Arguments.of("wide", (Function<NodeConfig, Node>) WideNode::new));
    }

    Node make(Function<NodeConfig, Node> core, Consumer<NodeConfig.Builder> tweak) {
        NodeConfig.Builder b = NodeConfig.builder().clock(clock);
        if (tweak != null) {
            tweak.accept(b);
        }
        return core.apply(b.build());
    }

    Node make(Function<NodeConfig, Node> core) {
        return make(core, null);
    }

    Subscription sub(Node node, NodePath p, int policy, String tag) {
        return node.subscribe(p, policy, (s, v, seq, stale) -> got.add(tag + " " + v.path() + " " + Tlv.hex(v.copy())
                + " seq=" + seq + (stale ? " stale" : "") + (v.deleted() ? " deleted" : "")));
    }

    static int write(Node node, NodePath p, byte[] tlv) {
        return node.write(p, tlv, 0, tlv.length);
    }

    static BoundedResource resource(Node node, String suffix) {
        return Arrays.stream(node.resources()).filter(r -> r.resourceName().endsWith(suffix)).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cores")
    void writeCreatesMissingPathsAndReadReturnsTheValue(String name, Function<NodeConfig, Node> core) {
        Node node = make(core);
        assertEquals(WireError.OK, write(node, temp, Tlv.value(21, 1)));
        byte[] out = new byte[16];
        assertEquals(5, node.read(temp, out, 0, out.length));
        assertArrayEquals(Tlv.value(21, 1), Arrays.copyOf(out, 5));
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(sensor, out, 0, out.length), "created, never written");
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(NodePath.of("/nope"), out, 0, 16));
        assertEquals(-WireError.FLOW_BACKPRESSURE, node.read(temp, new byte[4], 0, 4));
        assertEquals(WireError.FRAME_INVALID, node.write(temp, Tlv.value(1, 1), 0, 4), "not one TLV");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cores")
    void trailersAreStrippedOnIngress(String name, Function<NodeConfig, Node> core) {
        Node node = make(core);
        byte[] b = new byte[32];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length).leaf(TlvType.VALUE, Opt.CR, new byte[] {7}, 0, 1, 0L);
        assertEquals(WireError.OK, node.write(temp, b, 0, w.length()));
        byte[] out = new byte[16];
        assertEquals(5, node.read(temp, out, 0, out.length));
        assertArrayEquals(Tlv.value(7, 1), Arrays.copyOf(out, 5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cores")
    void writeDeliversToOwnAndAncestorSubscribersWithSequence(String name, Function<NodeConfig, Node> core) {
        Node node = make(core);
        sub(node, temp, 0, "own");
        sub(node, sensor, 0, "subtree");
        sub(node, NodePath.of("/other"), 0, "other");
        write(node, temp, Tlv.value(7, 1));
        assertEquals(List.of("own /sensor/temp 0100010007 seq=1", "subtree /sensor/temp 0100010007 seq=1"), got);
        assertEquals(2, node.listenerCount(temp));
        assertEquals(1, node.listenerCount(sensor));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cores")
    void suspendResumeAndClose(String name, Function<NodeConfig, Node> core) {
        Node node = make(core);
        Subscription a = sub(node, temp, 0, "a");
        sub(node, temp, 0, "b");
        Subscription c = sub(node, sensor, 0, "c");
        assertEquals(WireError.OK, a.suspend());
        assertEquals(WireError.OK, c.suspend());
        assertTrue(a.isSuspended());
        assertEquals(1, node.listenerCount(temp));
        write(node, temp, Tlv.value(1, 1));
        assertEquals(List.of("b /sensor/temp 0100010001 seq=1"), got);
        assertEquals(WireError.OK, a.resume());
        assertEquals(1, got.size(), "resume replays nothing");
        write(node, temp, Tlv.value(2, 1));
        assertEquals(3, got.size());
        assertEquals(WireError.OK, a.close());
        assertFalse(a.isOpen());
        assertEquals(WireError.PATH_NOT_FOUND, a.suspend());
        assertEquals(WireError.PATH_NOT_FOUND, a.close());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cores")
    void durabilityLatch_createSuspended_andOneShot(String name, Function<NodeConfig, Node> core) {
        Node node = make(core);
        write(node, temp, Tlv.value(9, 1));
        sub(node, temp, 0x20, "durable");
        sub(node, temp, 0, "plain");
        Subscription s = sub(node, temp, 0x20 | 0x200, "suspended");
        assertTrue(s.isSuspended());
        assertEquals(List.of("durable /sensor/temp 0100010009 seq=1"), got);
        got.clear();
        Subscription once = sub(node, temp, 0x100 | 0x200, "once");
        write(node, temp, Tlv.value(1, 1));
        assertFalse(got.stream().anyMatch(g -> g.startsWith("once")), "a suspended one_shot does not fire");
        once.resume();
        write(node, temp, Tlv.value(2, 1));
        write(node, temp, Tlv.value(3, 1));
        assertEquals(List.of("once /sensor/temp 0100010002 seq=3"), got.stream().filter(g -> g.startsWith("once")).toList());
        assertFalse(once.isOpen());
        Subscription latchOnce = sub(node, temp, 0x20 | 0x100, "latchOnce");
        assertFalse(latchOnce.isOpen(), "a durable one_shot is spent by its latch");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cores")
    void slotPositionsReuseTheLowestHole(String name, Function<NodeConfig, Node> core) {
        Node node = make(core);
        Subscription a = sub(node, temp, 0, "a");
        Subscription b = sub(node, temp, 0, "b");
        Subscription c = sub(node, temp, 0, "c");
        assertEquals(0, a.index());
        assertEquals(2, c.index());
        b.close();
        assertEquals(1, sub(node, temp, 0, "d").index());
        assertEquals(3, sub(node, temp, 0, "e").index());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cores")
    void sequenceNeverGoesBack_andANotifyingClearSpendsAFreshNumber(String name, Function<NodeConfig, Node> core) {
        Node node = make(core);
        sub(node, temp, 0, "s");
        write(node, NodePath.of("/sensor/x"), Tlv.value(0, 1));
        write(node, temp, Tlv.value(1, 1));
        write(node, temp, Tlv.value(1, 1));
        assertEquals(WireError.OK, node.clear(temp, false));
        assertEquals(2, node.sequence(temp), "a silent clear spends no number");
        write(node, temp, Tlv.value(1, 1));
        assertEquals(3, node.sequence(temp));
        node.clear(temp, true);
        assertEquals("s /sensor/temp 09000000 seq=4 deleted", got.get(got.size() - 1));
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(temp, new byte[8], 0, 8));
        node.clear(temp, true);
        assertEquals("s /sensor/temp 09000000 seq=5 deleted", got.get(got.size() - 1), "no snapshot held: still notified");
        assertEquals(WireError.OK, node.clear(NodePath.of("/absent"), true));
        assertEquals(0, node.sequence(NodePath.of("/absent")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cores")
    void activeAndIdle_toTheLocalPublisher(String name, Function<NodeConfig, Node> core) {
        Node node = make(core);
        List<String> activity = new ArrayList<>();
        node.setActivityListener((p, active, n) -> activity.add(p.path() + (active ? " active " : " idle ") + n));
        write(node, temp, Tlv.value(1, 1));
        Subscription a = sub(node, temp, 0, "a");
        Subscription b = sub(node, temp, 0, "b");
        assertEquals(List.of("/sensor/temp active 1"), activity);
        a.suspend();
        b.suspend();
        assertEquals(List.of("/sensor/temp active 1", "/sensor/temp idle 0"), activity, "suspended edges do not count");
        b.resume();
        b.close();
        a.close();
        assertEquals(4, activity.size());
        sub(node, sensor, 0, "ancestor");
        assertEquals("/sensor/temp active 1", activity.get(4), "an ancestor's subscriber observes the vertex too");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cores")
    void declarationsAreEnforced(String name, Function<NodeConfig, Node> core) {
        Node node = make(core);
        NodePath led = NodePath.of("/led");
        VertexSchema bit = VertexSchema.value(1, false).range(0, 1).build();
        assertEquals(WireError.OK, node.declare(led, bit));
        assertSame(bit, node.declaration(led));
        assertEquals(WireError.OK, write(node, led, Tlv.value(1, 1)));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, write(node, led, Tlv.value(2, 1)));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, write(node, led, Tlv.value(1, 2)));
        assertEquals(1, node.sequence(led), "a refused write spends nothing");
        write(node, temp, Tlv.value(300, 2));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, node.declare(temp, bit), "the value held does not fit");
        assertNull(node.declaration(temp));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, node.declare(temp, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cores")
    void ceilingsAreTypedRefusalsInTheSameCounters(String name, Function<NodeConfig, Node> core) {
        Node node = make(core, b -> b.maxVertices(5).maxSubscribers(1).payloadCap(64));
        BoundedResource vertices = resource(node, ".vertices");
        assertEquals(5, vertices.capacity());
        assertEquals(3, vertices.inUse(), "the root, $node and $node/caps");
        assertEquals(WireError.OK, write(node, NodePath.of("/a"), Tlv.value(1, 1)));
        assertEquals(WireError.FLOW_BACKPRESSURE, write(node, NodePath.of("/b/c"), Tlv.value(1, 1)), "two missing, one free");
        assertEquals(WireError.OK, write(node, NodePath.of("/b"), Tlv.value(1, 1)));
        assertEquals(5, vertices.peak());
        assertEquals(1, vertices.refused());
        assertEquals(WireError.FLOW_BACKPRESSURE, write(node, NodePath.of("/a"), Tlv.blob(65)), "a byte over the cap of 64");
        assertEquals(WireError.OK, write(node, NodePath.of("/a"), Tlv.blob(64)));
        assertEquals(WireError.OK, sub(node, NodePath.of("/a"), 0, "x").error());
        assertEquals(WireError.FLOW_BACKPRESSURE, sub(node, NodePath.of("/a"), 0, "y").error());
        assertEquals(1, resource(node, ".slots", ".edges").refused());
        assertEquals(WireError.PATH_INVALID, write(node, NodePath.of("/" + "k".repeat(64) + "/x"), Tlv.value(1, 1)),
                "longer than maxKeyBytes (64)");
    }

    static BoundedResource resource(Node node, String narrow, String wide) {
        return Arrays.stream(node.resources()).filter(r -> r.resourceName().endsWith(narrow) || r.resourceName().endsWith(wide))
                .findFirst().orElseThrow();
    }

    /**
     * Both cores answer the same bytes: values, composed trees ($ children included) and caps. The one
     * caps pair only a NARROW core has is its backfill offer (docs/extensions.md "Backfill": a WIDE node
     * keeps no rings), so the NARROW node here keeps none.
     */
    @Test
    void bothCoresAnswerTheSameBytes() {
        Node narrow = make(NarrowNode::new, b -> b.backfillDepth(0));
        Node wide = make(WideNode::new);
        String[] paths = {"/sensor/temp", "/sensor/hum", "/sensor", "/cfg/name", "/cfg/a/b", "/z", "/sensor/t"};
        int i = 0;
        for (Node n : List.of(narrow, wide)) {
            i = 0;
            for (String p : paths) {
                write(n, NodePath.of(p), Tlv.value(++i, 2));
            }
            n.clear(NodePath.of("/z"), true);
        }
        for (String p : List.of("/", "/sensor", "/cfg", "/cfg/a", "/cfg/a/b", "/z", "/$node", "/$node/caps", "/none")) {
            NodePath np = NodePath.of(p);
            byte[] a = new byte[1024];
            byte[] b = new byte[1024];
            int na = narrow.readTree(np, a, 0, a.length);
            int nb = wide.readTree(np, b, 0, b.length);
            assertEquals(na, nb, p);
            if (na > 0) {
                assertEquals(Tlv.hex(Arrays.copyOf(a, na)), Tlv.hex(Arrays.copyOf(b, nb)), p);
            }
            assertEquals(narrow.read(np, a, 0, a.length), wide.read(np, b, 0, b.length), p);
            assertEquals(narrow.sequence(np), wide.sequence(np), p);
            assertEquals(narrow.readTree(np, a, 0, 16), wide.readTree(np, b, 0, 16), p + " into too small a buffer");
        }
    }
}
