package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexPath;
import io.spectrum.node.api.VertexValue;
import io.spectrum.wire.WireError;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Listeners see read-only views: they can read and copy a delivery, never write the node's memory. */
class ListenerViewTest {
    final NarrowNode node = new NarrowNode(NodeConfig.defaults());
    final NodePath temp = NodePath.of("/sensor/temp");

    @Test
    void theListenerFacingTypesHandOutNoBufferAndNoMutator() throws ClassNotFoundException {
        for (Class<?> c : new Class<?>[] {VertexValue.class, VertexPath.class}) {
            assertTrue(c.isInterface(), c + " is a read-only interface");
            for (Method m : c.getMethods()) {
                if (m.getName().equals("copy")) {
                    continue; // a fresh array each call (checked below)
                }
                assertFalse(m.getReturnType().isArray(), c.getSimpleName() + "." + m.getName() + " hands out an array");
                assertFalse(m.getName().startsWith("set") || m.getName().startsWith("wrap"), m.getName() + " mutates");
            }
        }
        Class<?> writable = Class.forName("io.spectrum.node.topic.ValueView");
        assertFalse(Modifier.isPublic(writable.getModifiers()), "the writable view is the node's alone");
    }

    @Test
    void aDeliveryReadsCopiesAndCannotReachTheValuePool() {
        List<String> seen = new ArrayList<>();
        byte[] into = new byte[16];
        node.subscribe(NodePath.of("/sensor"), 0, (s, v, seq, stale) -> {
            seen.add(v.path() + " " + v.nodePath() + " type=" + v.type() + " len=" + v.length() + " path=" + v.pathLength());
            assertEquals(v.length(), v.copyTo(into, 0));
            assertEquals(-WireError.FLOW_BACKPRESSURE, v.copyTo(new byte[2], 0));
            assertEquals(-WireError.FLOW_BACKPRESSURE, v.copyTo(into, 15));
            byte[] p = new byte[v.pathLength()];
            assertEquals(v.pathLength(), v.copyPathTo(p, 0));
            assertEquals(v.pathByte(0), p[0]);
            assertEquals(into[0], v.getByte(0));
            assertThrows(IndexOutOfBoundsException.class, () -> v.getByte(v.length()));
            assertThrows(IndexOutOfBoundsException.class, () -> v.pathByte(-1));
            byte[] c = v.copy();
            Arrays.fill(c, (byte) 0x55); // a listener scribbling on its copy
        });
        assertEquals(WireError.OK, node.write(temp, Frames.value(21, 1), 0, 5));
        assertEquals(List.of("/sensor/temp /sensor/temp type=1 len=5 path=12"), seen);
        assertArrayEquals(Frames.value(21, 1), Arrays.copyOf(into, 5));
        byte[] out = new byte[16];
        assertEquals(5, node.read(temp, out, 0, out.length));
        assertArrayEquals(Frames.value(21, 1), Arrays.copyOf(out, 5), "the node's value is untouched");
    }

    @Test
    void activityNoticesCarryAReadOnlyPath() {
        List<String> seen = new ArrayList<>();
        node.setActivityListener((p, active, n) -> seen.add(p.path() + " " + active + " " + n + " " + p.pathLength()));
        node.write(temp, Frames.value(1, 1), 0, 5);
        node.subscribe(temp, 0, (s, v, seq, stale) -> { }).close();
        assertEquals(List.of("/sensor/temp true 1 12", "/sensor/temp false 0 12"), seen);
    }
}
