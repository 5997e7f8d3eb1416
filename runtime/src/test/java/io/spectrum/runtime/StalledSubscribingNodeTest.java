package io.spectrum.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.testing.MemoryLink;
import io.spectrum.testing.ReapingLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A subscribing node (a host's mount: its remote client) whose loop stalls longer than the board's
 * peer timeout but not its own link's: the board reaps its slot and says nothing, and the host's link
 * never reports the board down. The caps probe's slot check (the generation-guarded READ, due at the
 * first housekeeping after a stall longer than its period) finds the slot gone, marks the copy stale
 * {@code not followed} at once and appends it again; the board's current value then comes fresh.
 * Nothing is lost in silence. All on one manual clock; the board runs through the host's stall.
 */
class StalledSubscribingNodeTest {
    private static final long MS = 1_000_000L;

    private final ManualClock clock = new ManualClock(1_000 * MS);
    private final NarrowNode board = new NarrowNode(NodeConfig.builder().clock(clock).build());
    private final NarrowNode host = new NarrowNode(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true).build());
    private final MemoryLink[] pair = MemoryLink.pair();
    private final ReapingLink boardEnd = new ReapingLink(pair[0], clock, 5_000 * MS, 1_000 * MS);
    private final ReapingLink hostEnd = new ReapingLink(pair[1], clock, 10_000 * MS, 1_000 * MS);
    private final CapsProbe boardProbe = new CapsProbe(board, 1, 1, 0);
    private final CapsProbe hostProbe = new CapsProbe(host, 1, 1);
    private final NodePath temp = NodePath.of("/temp");
    private final NodePath mirror = NodePath.of("/mirror/temp");

    StalledSubscribingNodeTest() {
        board.attach(boardEnd);
        boardProbe.install(boardEnd);
        host.attach(hostEnd);
        hostProbe.install(hostEnd);
    }

    private static void run(NarrowNode node, CapsProbe probe) {
        node.poll();
        node.tick();
        probe.sweep();
    }

    /** Both loops, in 100 ms steps (the node agent's housekeeping period). */
    private void both(long millis) {
        for (long t = 0; t < millis; t += 100) {
            clock.advanceMillis(100);
            run(board, boardProbe);
            run(host, hostProbe);
            run(board, boardProbe);
        }
    }

    private void publish(long v) {
        byte[] b = new byte[8];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 1);
        assertEquals(WireError.OK, board.write(temp, b, 0, w.length()));
    }

    private long mirrored() {
        byte[] b = new byte[16];
        int n = host.read(mirror, b, 0, b.length);
        assertTrue(n > 0, "the host holds a copy");
        return b[n - 1];
    }

    private String staleReason() {
        byte[] b = new byte[128];
        int n = host.staleReason(mirror, b, 0, b.length);
        return n <= 0 ? null : new String(b, 0, n, StandardCharsets.UTF_8);
    }

    @Test
    void aHostStalledPastTheBoardsTimeoutIsReaped_itsSlotCheckMarksTheCopyStaleAndSubscribesAgain() {
        publish(1);
        assertEquals(WireError.OK, host.subscribeRemote(hostEnd, 0, temp, mirror, DeliveryPolicy.DURABILITY_REQUEST));
        both(2_000);
        assertEquals(1, mirrored());
        assertFalse(host.isStale(mirror));

        List<String> seen = watch();
        stall(7_000);
        assertFalse(boardEnd.isPeerUp(0), "the board reaped the silent host");
        publish(2); // nobody is sent it: the host's slot is gone
        assertTrue(hostEnd.isPeerUp(0), "7 s is within the host link's 10 s: it never reports the board down");

        both(1_000);
        assertEquals(List.of("stale: " + StaleReason.NOT_FOLLOWED, "fresh"), seen,
                "the copy was told stale at once (the slot check found it gone), then the current value came fresh");
        assertEquals(2, mirrored(), "subscribed again: the board's current value");
        assertFalse(host.isStale(mirror));
        assertEquals(null, staleReason());

        publish(3);
        both(200);
        assertEquals(3, mirrored(), "live again");
    }

    @Test
    void aHostStalledPastItsOwnLinksTimeoutReportsTheBoardDownAndUp_andSubscribesAgain() {
        publish(1);
        assertEquals(WireError.OK, host.subscribeRemote(hostEnd, 0, temp, mirror, DeliveryPolicy.DURABILITY_REQUEST));
        both(2_000);
        List<String> seen = watch();
        stall(12_000);
        publish(2);

        both(1_000);
        assertEquals("stale", seen.get(0).substring(0, 5), "the copy was told stale first: " + seen);
        assertEquals("fresh", seen.get(seen.size() - 1), "then the current value, fresh: " + seen);
        assertEquals(2, mirrored());
        assertFalse(host.isStale(mirror));
    }

    /** What the host's copy is told from now on: "stale: REASON" or "fresh". */
    private List<String> watch() {
        List<String> seen = new ArrayList<>();
        host.subscribe(mirror, 0, (s, v, seq, stale) -> seen.add(stale ? "stale: " + staleReason() : "fresh"));
        return seen;
    }

    /** The host's loop stalls for {@code millis}; the board runs on. */
    private void stall(long millis) {
        for (long t = 0; t < millis; t += 100) {
            clock.advanceMillis(100);
            run(board, boardProbe);
        }
    }
}
