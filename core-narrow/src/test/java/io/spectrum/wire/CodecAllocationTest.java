package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The codec and the typed views allocate nothing per frame. Measured with the thread's allocated
 * byte counter across ≥ 1,000,000 decode+encode round-trips over every accept vector, after a
 * warm-up that excludes class loading. Tagged "alloc": Surefire reruns it with
 * -XX:-DoEscapeAnalysis so a zero cannot come from the JIT scalar-replacing an allocation.
 */
@Tag("alloc")
class CodecAllocationTest {
    private static final com.sun.management.ThreadMXBean TMX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static byte[][] frames;
    private static long sink;

    private final FrameDecoder decoder = new FrameDecoder();
    private final FrameEncoder encoder = new FrameEncoder();
    private final TlvIndex index = new TlvIndex(512, 32);
    private final byte[] out = new byte[8192];
    private final ViewExerciser views = new ViewExerciser();
    private final SubscriberRenderer renderer = new SubscriberRenderer();
    private final byte[] scratch = new byte[256];

    @BeforeAll
    static void load() {
        List<byte[]> l = VectorFrames.acceptFrames();
        frames = l.toArray(new byte[0][]);
        assertTrue(frames.length >= 90, "vectors found: " + frames.length);
    }

    private long roundTrips(int rounds) {
        long s = 0;
        final byte[][] f = frames;
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < f.length; i++) {
                final byte[] b = f[i];
                if (decoder.decode(b, 0, b.length, index) != WireError.OK) {
                    throw new AssertionError("vector " + i + " refused");
                }
                s += encoder.encode(index, 0, out, 0, out.length);
            }
        }
        return s;
    }

    private long viewPasses(int rounds) {
        long s = 0;
        final byte[][] f = frames;
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < f.length; i++) {
                final byte[] b = f[i];
                decoder.decode(b, 0, b.length, index);
                s += views.exercise(index);
            }
        }
        return s;
    }

    private static long allocated() {
        return TMX.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void millionRoundTripsAllocateNothing() {
        final int rounds = 1_000_000 / frames.length + 1;
        long cold = allocated();
        sink += roundTrips(1);
        System.out.println("cold first pass over " + frames.length + " vectors allocated bytes=" + (allocated() - cold));
        for (int w = 0; w < 3; w++) {
            sink += roundTrips(rounds / 2); // warm-up: class loading, JIT tiers
        }
        long[] deltas = new long[3];
        for (int m = 0; m < deltas.length; m++) {
            long before = allocated();
            sink += roundTrips(rounds);
            deltas[m] = allocated() - before;
        }
        System.out.println("codec round-trips per round=" + (long) rounds * frames.length + " allocated bytes="
                + java.util.Arrays.toString(deltas));
        for (long d : deltas) {
            assertEquals(0, d, "decode+encode allocated");
        }
    }

    @Test
    void typedViewsAllocateNothing() {
        final int rounds = 300_000 / frames.length + 1;
        for (int w = 0; w < 3; w++) {
            sink += viewPasses(rounds / 2);
        }
        long[] deltas = new long[3];
        for (int m = 0; m < deltas.length; m++) {
            long before = allocated();
            sink += viewPasses(rounds);
            deltas[m] = allocated() - before;
        }
        System.out.println("view passes per round=" + (long) rounds * frames.length + " allocated bytes="
                + java.util.Arrays.toString(deltas));
        for (long d : deltas) {
            assertEquals(0, d, "views allocated");
        }
    }

    @Test
    void toggleArmAllocatesNothing() {
        byte[] rec = Hex.bytes("04400b000600070006636C69656E74");
        byte[] on = Hex.bytes(SubscriberViewTest.SUSPENDED_44);
        long s = 0;
        for (int w = 0; w < 3; w++) {
            s += toggles(rec, on, 200_000);
        }
        long[] deltas = new long[3];
        for (int m = 0; m < deltas.length; m++) {
            long before = allocated();
            s += toggles(rec, on, 200_000);
            deltas[m] = allocated() - before;
        }
        sink += s;
        assertEquals(6 * 200_000, s, "every call matched with x = 1");
        System.out.println("toggle-arm comparisons per round=200000 allocated bytes=" + java.util.Arrays.toString(deltas));
        for (long d : deltas) {
            assertEquals(0, d, "matchesRendering allocated");
        }
    }

    private long toggles(byte[] rec, byte[] on, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += renderer.matchesRendering(rec, 0, rec.length, on, 0, on.length, scratch, 0, scratch.length);
        }
        return s;
    }
}
