package io.spectrum.host.runtime;

import io.spectrum.host.dashboard.SnapshotJson;
import io.spectrum.host.view.VertexView;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.List;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A value's origin time (docs/extensions.md "Origin time"): a board gives none (its clock need not be
 * set), the first host that receives the value gives it from its own clock, and a host mounting that
 * host keeps it, whatever its own clock says. Board → plant host → top host over memory links, each
 * on its own {@link ManualClock}, every loop run on the test's thread: the values are exact.
 */
class OriginTimeTest {
    /** The board's clock is a day off: nobody reads it for an origin. */
    private final ManualClock boardClock = new ManualClock(-86_400_000_000_000L);
    /** The plant host's clock: epoch ms 1_700_000_005_000 at the start. */
    private final ManualClock plantClock = new ManualClock(5_000_000_000L);
    /** The top host's clock, an hour ahead of the plant's. */
    private final ManualClock topClock = new ManualClock(3_605_000_000_000L);
    private NarrowNode board;
    private HostRuntime plant;
    private HostRuntime top;

    @AfterEach
    void close() {
        if (top != null) {
            top.close();
        }
        if (plant != null) {
            plant.close();
        }
        if (board != null) {
            board.close();
        }
    }

    private static byte[] value(long v) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 4);
        return java.util.Arrays.copyOf(b, w.length());
    }

    private static long ms(ManualClock c) {
        return c.epochNanos() / 1_000_000L;
    }

    /** Runs the board and both hosts' loops until nothing moves (each host's periodic step once more). */
    private void settle(IntSupplier plantCycle, IntSupplier topCycle) {
        for (int i = 0; i < 200; i++) {
            int n = board.poll() + plantCycle.getAsInt() + topCycle.getAsInt();
            if (n == 0) {
                return;
            }
        }
    }

    @Test
    void theFirstHostGivesTheOriginFromItsClock_aHostMountingItKeepsIt_theBoardGivesNone() {
        MemoryLink[] toBoard = MemoryLink.pair();
        MemoryLink[] toPlant = MemoryLink.pair();
        board = new NarrowNode(NodeConfig.builder().clock(boardClock).build());
        assertEquals(WireError.OK, board.attach(toBoard[1]));
        NodePath temp = NodePath.of("/sensor/temp");
        assertEquals(WireError.OK, board.write(temp, value(21), 0, value(21).length));

        plant = new HostRuntime("plant1", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(plantClock).build()));
        IntSupplier plantCycle = plant.startOnCallerThread();
        plant.mount(toBoard[0], "board1", List.of());
        plant.attachListener(toPlant[1]);
        top = new HostRuntime("top", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(topClock).build()));
        IntSupplier topCycle = top.startOnCallerThread();
        top.mount(toPlant[0], "plant1", List.of());
        settle(plantCycle, topCycle);

        top.watch("/plant1/board1/sensor/temp", "test", null);
        settle(plantCycle, topCycle);
        NodePath atPlant = NodePath.of("/board1/sensor/temp");
        NodePath atTop = NodePath.of("/plant1/board1/sensor/temp");
        assertTrue(top.node().sequence(atTop) > 0, "the value reached the top host");
        assertEquals(0, board.origin(temp), "a board gives no origin: its clock need not be set");
        assertEquals(1_700_000_005_000L, plant.node().origin(atPlant), "the first host's clock, in ms");
        assertEquals(1_700_000_005_000L, top.node().origin(atTop), "kept by the host mounting it (its own clock: "
                + ms(topClock) + ")");

        plantClock.advanceMillis(2_500);
        topClock.advanceMillis(60_000);
        boardClock.advanceMillis(1);
        assertEquals(WireError.OK, board.write(temp, value(22), 0, value(22).length));
        settle(plantCycle, topCycle);
        assertEquals(1_700_000_007_500L, plant.node().origin(atPlant));
        assertEquals(1_700_000_007_500L, top.node().origin(atTop), "each value its own origin, the first host's");

        topClock.advanceMillis(200); // the snapshot's refresh period
        settle(plantCycle, topCycle);
        VertexView v = top.snapshot().vertices().stream().filter(x -> x.path().equals(atTop.toString()))
                .findFirst().orElseThrow();
        assertEquals(1_700_000_007_500L, v.origin(), "the dashboard's view of it");
        JsonNode json = SnapshotJson.toJson(new ObjectMapper(), top.snapshot());
        JsonNode vj = null;
        for (JsonNode x : json.get("vertices")) {
            if (x.get("path").asText().equals(atTop.toString())) {
                vj = x;
            }
        }
        assertTrue(vj != null, json.toString());
        assertEquals(1_700_000_007_500L, vj.get("origin").asLong(), "/api/snapshot gives each vertex its origin: " + vj);
    }
}
