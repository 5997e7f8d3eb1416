package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wire.DeliveryMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The delivery-mode rule both the node's edges and the bus's subscriptions queue through. */
class ModeQueueTest {

    @Test
    void latest_keepsOneValue_handsBackTheReplacedOne_andReportsTheCountOnceWithTheNextDelivery() {
        ModeQueue<String> q = new ModeQueue<>(true, 1, 1);
        assertNull(q.offer("a"));
        assertEquals("a", q.offer("b"));
        assertEquals("b", q.offer("c"));
        assertEquals(List.of("c"), q.waiting());
        assertFalse(q.full(), "a latest queue never refuses a publish");
        assertEquals("c", q.poll());
        assertEquals(2, q.sent(), "a and b were replaced");
        assertEquals(0, q.replaced());
        assertNull(q.offer("d"));
        assertEquals(0, q.sent());
    }

    @Test
    void bounded_isFullAtMaxQueued_andKeepsOrder() {
        ModeQueue<Integer> q = new ModeQueue<>(false, 3, 2);
        for (int i = 1; i <= 3; i++) {
            assertFalse(q.full());
            assertNull(q.offer(i));
        }
        assertTrue(q.full());
        assertEquals(1, q.poll());
        assertFalse(q.full());
        q.putBack(1);
        assertTrue(q.full(), "a value put back holds its place");
        assertEquals(List.of(1, 2, 3), q.waiting());
    }

    @Test
    void credits_limitDeliveriesInFlight_andComeBackCumulativelyOrOneAtATime() {
        ModeQueue<Integer> q = new ModeQueue<>(false, 8, 2);
        for (int i = 1; i <= 4; i++) {
            q.offer(i);
        }
        assertEquals(1, q.nextDelivery());
        q.poll();
        q.sent();
        q.poll();
        q.sent();
        assertFalse(q.canSend());
        assertFalse(q.ready(), "two wait, but no credit is free");
        assertEquals(2, q.inFlight());
        assertFalse(q.consumeUpTo(3), "delivery 3 was never sent");
        assertEquals(2, q.inFlight(), "a refused consume changes nothing");
        assertTrue(q.consumeUpTo(1));
        assertTrue(q.consumeUpTo(1), "cumulative consumed is idempotent");
        assertEquals(1, q.inFlight());
        assertTrue(q.ready());
        assertTrue(q.consumeOne());
        assertFalse(q.consumeOne(), "no delivery is out");
        assertEquals(0, q.inFlight());
        assertEquals(2, q.delivered());
    }

    @Test
    void theNodesPackedModes_giveTheSameQueue() {
        ModeQueue<Object> latest = ModeQueue.of(DeliveryMode.pack(DeliveryMode.LATEST, 1, 1));
        assertTrue(latest.latest());
        assertEquals(1, latest.maxQueued());
        ModeQueue<Object> bounded = ModeQueue.of(DeliveryMode.pack(DeliveryMode.BOUNDED, 16, 4));
        assertTrue(bounded.bounded());
        assertEquals(16, bounded.maxQueued());
        assertEquals(4, bounded.maxInFlight());
    }

    @Test
    void aQueueWithoutRoomOrCredit_orALatestQueueOfMore_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ModeQueue<>(false, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ModeQueue<>(false, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new ModeQueue<>(true, 2, 1));
    }

    @Test
    void clear_dropsWhatWaits_andTheReplacedCount() {
        ModeQueue<String> q = new ModeQueue<>(true, 1, 1);
        q.offer("a");
        q.offer("b");
        q.clear();
        assertTrue(q.isEmpty());
        assertEquals(0, q.replaced());
    }
}
