package io.spectrum.node;

import io.spectrum.testing.MemoryLink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.StaleReason;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A dropped delivery is never the last word between a board and a host that follows it
 * (docs/node.md "Dirty edges", docs/host.md "Gap repair"): the board resends its current value when
 * the host's delivery share refills, and a host that sees the board's sequence skip numbers marks
 * its copy stale ({@code sequence gap}) and fetches the board's current value. Two nodes joined by
 * fake links, an injected clock. Run on both cores (core-wide's WideGapRepairTest).
 */
class GapRepairTest {
    final ManualClock clock = new ManualClock(0);
    /** 10 deliveries/s per peer, a burst of 2. */
    final ServingNode board = boardNode(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true)
            .peerDeliveriesPerSecond(10).peerDeliveryBurst(2).build());
    final ServingNode host = hostNode(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true).build());
    final MemoryLink boardSide = new MemoryLink(1); // the board's; its peer 0 is the host
    final MemoryLink hostSide = new MemoryLink(2); // the host's; its peer 0 is the board
    int boardSent;
    int hostSent;
    final NodePath led = NodePath.of("/board/led");
    final NodePath copy = NodePath.of("/board1/board/led");
    final List<String> seen = new ArrayList<>();

    /** The board's core (the harness's); a subclass pairs other cores. */
    ServingNode boardNode(NodeConfig c) {
        return NodeHarness.core.apply(c);
    }

    ServingNode hostNode(NodeConfig c) {
        return NodeHarness.core.apply(c);
    }

    GapRepairTest() {
        board.attach(boardSide);
        host.attach(hostSide);
    }

    /** Moves frames both ways until nothing more is sent. */
    void pump() {
        for (int round = 0; round < 20; round++) {
            boolean moved = hostSent < hostSide.sentCount() || boardSent < boardSide.sentCount();
            while (hostSent < hostSide.sentCount()) {
                boardSide.inject(0, hostSide.sentAt(hostSent++));
            }
            while (boardSent < boardSide.sentCount()) {
                hostSide.inject(0, boardSide.sentAt(boardSent++));
            }
            board.poll();
            host.poll();
            if (!moved) {
                return;
            }
        }
    }

    /** What the board sent since the last pump is lost on the way (a datagram the network dropped). */
    void lose() {
        boardSent = boardSide.sentCount();
    }

    void write(ServingNode n, NodePath p, int v) {
        assertEquals(0, n.write(p, Frames.value(v, 1), 0, 5));
    }

    int hostValue() {
        byte[] b = new byte[8];
        assertEquals(5, host.read(copy, b, 0, b.length));
        return b[4];
    }

    void follow() {
        host.subscribe(copy, 0, (s, v, seq, stale) -> seen.add(Frames.hex(v.copy()).substring(8)
                + (stale ? " stale: " + host.staleReason(copy) : "")));
        assertTrue(host.subscribeRemote(hostSide, 0, led, copy, 0x0020) >= 0);
        pump();
    }

    /** The board publishes {@code v} after 100 ms (one delivery's worth of the host's share). */
    void later(int v) {
        clock.advanceMillis(100);
        write(board, led, v);
    }

    /** Delivers what the board sent since the last pump to the host, and lets the host handle it. */
    void deliver() {
        while (boardSent < boardSide.sentCount()) {
            hostSide.inject(0, boardSide.sentAt(boardSent++));
        }
        host.poll();
    }

    @Test
    void theBurstsDroppedLastDelivery_isResentByTheBoard_andTheHostConverges_aNewSubscriberGetsTheBoardsValue() {
        write(board, led, 0);
        follow();
        clock.advanceMillis(1000);
        for (int v = 1; v <= 20; v++) { // a burst: the board's share for the host lets two through
            write(board, led, v);
        }
        pump();
        assertTrue(hostValue() < 20, "the burst's last delivery was dropped: the host holds " + hostValue());
        clock.advanceMillis(100); // the share refills by one
        board.tick(); // the dirty edge: the current value, once
        pump();
        assertEquals(20, hostValue(), "the host converged to the board's value");
        assertFalse(host.isStale(copy), "and it is current: " + host.staleReason(copy));
        List<String> late = new ArrayList<>();
        host.subscribe(copy, 0x0020, (s, v, seq, stale) -> late.add(Frames.hex(v.copy()).substring(8) + (stale ? " stale" : "")));
        assertEquals(List.of("14"), late, "a new subscriber of the host gets the board's value, current");
    }

    @Test
    void aSequenceJump_marksTheCopyStaleWithSequenceGap_thenTheFetchedValueMakesItCurrent() {
        write(board, led, 1); // seq 1
        follow();
        later(2); // seq 2
        pump();
        later(3); // seq 3: lost on the way
        lose();
        later(4); // seq 4: delivered, the host sees 2 -> 4
        deliver();
        assertTrue(host.isStale(copy), "a jump in the board's sequence: the copy may be old");
        assertEquals(StaleReason.SEQUENCE_GAP, host.staleReason(copy));
        assertEquals(4, hostValue());
        assertEquals(1, host.remote().gaps());
        later(5); // seq 5: lost as well, while the host's READ is on its way
        lose();
        pump(); // the host's stamped READ of the board's value, and its answer
        assertEquals(5, hostValue(), "the fetched value replaced it");
        assertFalse(host.isStale(copy));
        assertEquals(List.of("01", "02", "04", "04 stale: sequence gap", "05"), seen);
    }

    @Test
    void theBoardsStaleMark_andItsReason_reachTheHostsCopy() {
        write(board, led, 1);
        follow();
        clock.advanceMillis(1000);
        assertEquals(0, board.markStale(led, "i2c 1/0x48 reg 0: read 0 of 2 bytes"));
        pump();
        assertTrue(host.isStale(copy));
        assertEquals("i2c 1/0x48 reg 0: read 0 of 2 bytes", host.staleReason(copy));
        assertEquals(1, hostValue(), "the value is kept");
        clock.advanceMillis(100);
        write(board, led, 2); // the source recovered
        pump();
        assertFalse(host.isStale(copy));
        assertEquals(2, hostValue());
    }

    /**
     * A delivery stamped stale is stored stale with the upstream's reason in one step: the host's own
     * subscribers see the value once, stale with the reason, never first as current (a host mounting a
     * host relays its copy's mark this way, docs/host.md "Freshness").
     */
    @Test
    void aDeliveryStampedStale_reachesTheHostsSubscribersOnlyStale_neverFirstAsCurrent() {
        write(board, led, 1);
        follow();
        clock.advanceMillis(1000);
        assertEquals(0, board.markStale(led, "i2c 1/0x48 reg 0: read 0 of 2 bytes"));
        pump();
        assertEquals(List.of("01", "01 stale: i2c 1/0x48 reg 0: read 0 of 2 bytes"), seen);
        List<String> late = new ArrayList<>();
        host.subscribe(copy, 0x0020, (s, v, seq, stale) -> late.add(Frames.hex(v.copy()).substring(8)
                + (stale ? " stale: " + host.staleReason(copy) : "")));
        assertEquals(List.of("01 stale: i2c 1/0x48 reg 0: read 0 of 2 bytes"), late, "a new subscriber: marked, with the reason");
    }


    /**
     * The board has no value for the vertex any more and says why (a declared vertex marked without a
     * value: its stale notice carries the empty STATUS): the host stores no empty value; the copy it
     * holds from before stays, marked with the board's reason, never shown as current.
     */
    @Test
    void anUpstreamWithNoValueYetAndAReason_marksTheCopyStale_storesNoEmptyValue() {
        assertEquals(0, board.declare(led, io.spectrum.node.api.VertexSchema.value(1, false).build()));
        write(board, led, 1);
        follow();
        assertEquals(0, board.clear(led, false));
        assertEquals(0, board.markStale(led, "i2c 1/0x48 reg 0: read 0 of 2 bytes"));
        pump();
        assertTrue(host.isStale(copy));
        assertEquals("i2c 1/0x48 reg 0: read 0 of 2 bytes", host.staleReason(copy));
        assertEquals(1, hostValue(), "the host's copy from before, marked: not an empty value");
        assertEquals(List.of("01", "01 stale: i2c 1/0x48 reg 0: read 0 of 2 bytes"), seen);
    }
}
