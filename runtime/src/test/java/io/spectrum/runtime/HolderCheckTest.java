package io.spectrum.runtime;

import io.spectrum.testing.MemoryLink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 1, no silent loss: a host whose slot at the board is gone (evicted, cleared by
 * someone) learns it at its next slot check, marks the mirror stale for the gap, re-appends, and
 * shows the board's current value again, all within two liveness periods. In-process links, one
 * ManualClock; nothing sleeps.
 */
class HolderCheckTest {
    static final long PERIOD = CapsProbe.VERIFY_NANOS;
    static final long STEP = 100_000_000L;

    final ManualClock clock = new ManualClock(0);
    final NarrowNode board = new NarrowNode(NodeConfig.builder().clock(clock).build());
    final NarrowNode host = new NarrowNode(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true).build());
    final MemoryLink[] pair = MemoryLink.pair();
    final MemoryLink boardSide = pair[0];
    final MemoryLink hostSide = pair[1];
    final CapsProbe hostProbe = new CapsProbe(host, 1, 1);
    final NodePath counter = NodePath.of("/board/counter");
    final NodePath mirror = NodePath.of("/boards/b1/counter");
    final byte[] buf = new byte[16];
    int h;

    HolderCheckTest() {
        board.attach(boardSide);
        host.attach(hostSide);
        hostProbe.install(hostSide);
        boardWrite(1);
        h = host.subscribeRemote(hostSide, 0, counter, mirror, DeliveryPolicy.DURABILITY_REQUEST);
        hostProbe.sweep(); // the agent's first housekeeping round: the board is up, the period starts
        pump();
        assertEquals(RemoteClient.ACKED, host.remote().state(h));
        assertEquals(1, hostValue());
    }

    void boardWrite(long v) {
        int n = new TlvWriter(4).wrap(buf, 0, buf.length).value(v, 4).length();
        board.write(counter, buf, 0, n);
    }

    long hostValue() {
        byte[] out = new byte[16];
        return host.read(mirror, out, 0, out.length) == 8 ? (out[4] & 0xFF) | (out[5] & 0xFF) << 8 : -1;
    }

    void pump() {
        for (int i = 0; i < 10; i++) {
            board.poll();
            host.poll();
        }
    }

    /** One housekeeping round of both nodes (as NodeAgent runs it), after moving the clock one step. */
    void step() {
        clock.advanceNanos(STEP);
        board.tick();
        host.tick();
        hostProbe.sweep();
        pump();
    }

    /** Steps until the host mirrors {@code want} and is not stale; returns the clock time it took. */
    long stepsUntilCurrent(long want) {
        long start = clock.nanoTime();
        for (long t = 0; t <= 3 * PERIOD; t += STEP) {
            if (hostValue() == want && !host.isStale(mirror)) {
                return clock.nanoTime() - start;
            }
            step();
        }
        return Long.MAX_VALUE;
    }

    @Test
    void anEvictedSlotIsRestoredWithinTwoLivenessPeriods() {
        // the board drops the host from its peer table (a flood filled it): its slots are reaped,
        // while the host still hears the board and never sees it go down
        board.onPeerDown(boardSide, 0);
        boardWrite(2);
        pump();
        assertEquals(1, hostValue(), "the update is lost: no slot");
        long took = stepsUntilCurrent(2);
        assertTrue(took <= 2 * PERIOD, "current again after " + took + " ns");
        assertEquals(1, host.remote().restores(h));
        assertEquals(RemoteClient.ACKED, host.remote().state(h));
        boardWrite(3);
        pump();
        assertEquals(3, hostValue(), "live again");
    }

    @Test
    void aSlotClearedBySomeoneElseIsRestored_andTheMirrorIsStaleWhileTheGapLasts() {
        // the board's owner (or anyone the board lets) clears slot N: generation G is gone
        byte[] reply = new byte[256];
        int n = board.handleOwnerRequest(clear(host.remote().remoteIndex(h)), 0, clearLen, reply, 0, reply.length);
        assertTrue(n > 0);
        assertEquals(0, board.listenerCount(counter));
        boardWrite(2);
        // one period on, the check goes out; the board answers not_found; the host marks the gap
        for (long t = 0; t < PERIOD; t += STEP) {
            clock.advanceNanos(STEP);
            hostProbe.sweep();
        }
        host.poll();      // (nothing yet)
        board.poll();     // the check: READ :subscribers[N@G] -> not_found
        host.poll();      // not_found: mirror stale, append sent again
        assertTrue(host.isStale(mirror), "the gap shows as stale");
        assertEquals(1, hostValue());
        pump();           // the board admits it anew; the durability latch brings the value
        assertEquals(2, hostValue());
        assertFalse(host.isStale(mirror));
        assertEquals(1, host.remote().restores(h));
        assertEquals(1, board.listenerCount(counter));
    }

    @Test
    void aClearSpoofedFromTheHostsAddressIsRefused_theHostStaysCurrent() {
        // a third socket forges the host's source address (the board's peer 0) and clears slot N@G
        int sent = boardSide.sent().size();
        byte[] forged = clear(host.remote().remoteIndex(h));
        boardSide.inject(0, java.util.Arrays.copyOf(forged, clearLen));
        board.poll();
        assertEquals(1, board.listenerCount(counter), "refused: the host holds with a token the forger never saw");
        assertEquals(sent + 1, boardSide.sent().size(), "one answer (access::denied), to the host's address");
        boardWrite(2);
        pump();
        assertEquals(2, hostValue(), "the host's edge still delivers");
        assertEquals(0, host.remote().restores(h));
    }

    @Test
    void aSlotThatIsThereIsLeftAlone() {
        int sends = host.remote().sends(h);
        for (long t = 0; t < 3 * PERIOD; t += STEP) {
            step();
        }
        assertTrue(hostProbe.checks() >= 2, "checked every period");
        assertEquals(0, host.remote().restores(h));
        assertEquals(1, board.listenerCount(counter));
        assertEquals(sends, host.remote().sends(h), "never re-appended");
    }

    int clearLen;

    /** FWD{WRITE, /board/counter, :subscribers[n], src /o, empty STATUS}. */
    byte[] clear(int n) {
        byte[] b = new byte[128];
        TlvWriter w = new TlvWriter(4).wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(FwdView.OP_WRITE, 1).raw(counter.tlv())
                .begin(TlvType.FIELD).leaf(TlvType.NAME, Names.SUBSCRIBERS).value(n, 4).value(1, 1).end()
                .raw(NodePath.of("/o").tlv()).raw(Names.EMPTY_STATUS).end();
        clearLen = w.length();
        return b;
    }
}
