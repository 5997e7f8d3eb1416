package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.table.SlotTable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Retained heap of a node sized for 256 vertices, 1,024 subscriber slots and 64 KiB of value
 * storage, measured as the used-heap delta after System.gc() over many retained nodes; and the
 * bytes one subscriber slot costs, excluding its stored record.
 */
class MemoryFootprintTest {
    static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            best = Math.min(best, rt.totalMemory() - rt.freeMemory());
        }
        return best;
    }

    static NodeConfig sized() {
        return NodeConfig.builder().maxVertices(256).maxSubscribers(1024).valueBytes(64 * 1024).build();
    }

    @Test
    void aNodeFor256Vertices1024SlotsAnd64KiBValuesRetainsUnderOneMiB() {
        final int n = 24;
        List<Object> keep = new ArrayList<>();
        long before = usedAfterGc();
        for (int i = 0; i < n; i++) {
            keep.add(new NarrowNode(sized()));
        }
        long after = usedAfterGc();
        long perNode = (after - before) / n;
        NodeConfig c = sized();
        System.out.println("node retained heap: " + perNode + " B per node (" + n + " nodes; values " + c.valueBytes()
                + " B, records " + c.recordBytes() + " B, keys " + c.maxVertices() * c.maxKeyBytes() + " B of it are pools)");
        assertTrue(perNode > c.valueBytes(), "measurement too small to be real: " + perNode);
        assertTrue(perNode < 1024 * 1024, "per node " + perNode);
        keep.clear();
    }

    @Test
    void oneSubscriberSlotCostsAtMost64BytesExcludingItsRecord() {
        final int slots = 1 << 18;
        long before = usedAfterGc();
        SlotTable t = new SlotTable(slots);
        long after = usedAfterGc();
        double perSlot = (after - before) / (double) slots;
        System.out.printf("subscriber slot: %.1f B per slot (slot table of %d, record bytes excluded)%n", perSlot, slots);
        assertTrue(t.capacity() == slots);
        assertTrue(perSlot > 16 && perSlot <= 64, "per slot " + perSlot);
    }
}
