package io.spectrum.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.runtime.CapsProbe;
import io.spectrum.testing.MemoryLink;
import io.spectrum.testing.ReapingLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.WireError;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A client that is not polled for longer than the node's peer timeout is reaped by the node (its
 * slots dropped, nothing said to it). When it polls again, its follower appends the subscriptions
 * again at once and reports the gap; nothing is lost in silence. All on one manual clock: the board
 * (a NarrowNode behind a link with the links' liveness rules: 10 s timeout, 1 s caps ping) keeps
 * running while the client is stalled.
 */
class ReapedClientTest {
    private static final long TIMEOUT_NS = 10_000_000_000L;
    private static final long PING_NS = 1_000_000_000L;

    /** An empty round of a wait moves the manual clock on by 1 ms (the waits end on its time). */
    private static final class Advancing implements IdleStrategy {
        private final ManualClock clock;

        Advancing(ManualClock clock) {
            this.clock = clock;
        }

        @Override
        public void idle(int workCount) {
            if (workCount == 0) {
                clock.advanceMillis(1);
            }
        }

        @Override
        public void idle() {
            clock.advanceMillis(1);
        }

        @Override
        public void reset() {
        }
    }

    private final ManualClock clock = new ManualClock(1_000_000_000L);
    private final NarrowNode node = new NarrowNode(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true).build());
    private final MemoryLink[] pair = MemoryLink.pair();
    private final ReapingLink nodeEnd = new ReapingLink(pair[0], clock, TIMEOUT_NS, PING_NS);
    private final CapsProbe ping = new CapsProbe(node, 1, 1, 0);
    private final PeerClient client = new PeerClient(new LinkTransport(pair[1], 0), Duration.ofSeconds(2), "/t/r/")
            .time(clock, new Advancing(clock))
            .pollGapLimit(Duration.ofNanos(TIMEOUT_NS - PING_NS));

    ReapedClientTest() {
        assertEquals(WireError.OK, node.attach(nodeEnd));
        ping.install(nodeEnd);
        client.onPump(this::runNode);
    }

    private long nextHousekeeping;

    /** One round of the board's loop: poll its link; every 100 ms its housekeeping (as the node agent runs it). */
    private void runNode() {
        node.poll();
        if (clock.nanoTime() - nextHousekeeping >= 0) {
            nextHousekeeping = clock.nanoTime() + 100_000_000L;
            node.tick();
            ping.sweep();
        }
    }

    private void set(long v) {
        byte[] tlv = NodeFixture.value(v, 1);
        assertEquals(WireError.OK, node.write(NodePath.of("/x"), tlv, 0, tlv.length));
    }

    private int slotsInUse() {
        for (io.spectrum.stats.BoundedResource r : node.resources()) {
            if (r.resourceName().equals("node.slots")) {
                return (int) r.inUse();
            }
        }
        throw new AssertionError("no node.slots pool");
    }

    /** The application's loop for {@code seconds}: poll, then take what arrived (as spectrum sub does). */
    private List<Long> follow(Follower f, int seconds) {
        List<Long> got = new ArrayList<>();
        for (int i = 0; i < seconds * 10; i++) {
            client.pumpFor(Duration.ofMillis(100));
            for (Follower.Sample x = f.next(); x != null; x = f.next()) {
                got.add(Long.parseLong(x.value().text()));
            }
        }
        return got;
    }

    @Test
    void aClientNotPolledPastThePeerTimeoutIsReaped_andItsFollowerSubscribesAgainAndReportsTheGap() {
        client.announceExtensions(true); // the append answers the slot's identity: the generation guard is exact
        set(1);
        Follower f = new Follower(client);
        assertTrue(f.follow("/x", "/t/f/0").ok());
        assertEquals(List.of(1L), follow(f, 1), "the durability latch brings the current value");

        set(2);
        assertEquals(List.of(2L), follow(f, 15), "polled, the client answers the node's pings: 15 s and still subscribed");
        assertTrue(f.gaps().isEmpty());

        // The application stalls for 12 s (a GC pause, a blocked thread); the board runs on.
        for (int s = 1; s <= 12; s++) {
            clock.advanceMillis(1000);
            runNode();
            if (s == 2) {
                set(3); // sent before the reap: waits in the link for the client
            }
        }
        assertFalse(nodeEnd.isPeerUp(0), "the board reaped the silent client");
        assertEquals(0, slotsInUse(), "and dropped its slot");

        set(4); // after the reap: no slot, nobody is sent it
        set(5);
        List<Long> after = follow(f, 1);
        assertEquals(List.of(3L, 5L), after, "the value sent before the reap, then the current one (4 was missed, and said so)");
        List<Follower.Gap> gaps = f.gaps();
        assertEquals(1, gaps.size(), "the gap is reported once: " + gaps);
        Follower.Gap g = gaps.get(0);
        assertEquals("/x", g.vertex());
        assertTrue(g.lost().certain(), "the generation guard found the slot gone");
        assertTrue(g.lost().resubscribed());
        assertTrue(g.lost().gapNanos() >= 12_000_000_000L, "the gap in polling: " + g.lost().gapNanos());
        assertEquals(StaleReason.NOT_FOLLOWED, g.reason(), "what was held from before is stale, with a reason");
        assertTrue(g.notice().startsWith("/x: the client was not polled for "), g.notice());

        set(6);
        assertEquals(List.of(6L), follow(f, 1), "live again");
        assertTrue(f.gaps().isEmpty(), "told once");
        assertEquals(1, client.subscribers("/x").subscribers(), "one slot, not two");
        assertEquals(1, client.peerStateLosses());
    }

    /** The stall as above, of {@code seconds}, the board running on. */
    private void stall(int seconds) {
        for (int s = 0; s < seconds; s++) {
            clock.advanceMillis(1000);
            runNode();
        }
    }

    @Test
    void aPlainClientCannotCheckItsSlot_soAfterTheGapItAppendsAgainAndReportsWhatMayHaveBeenMissed() {
        set(1); // no extensions announced: the append answers no identity, there is no slot to check
        Follower f = new Follower(client);
        assertTrue(f.follow("/x", "/t/f/0").ok());
        assertEquals(List.of(1L), follow(f, 1));

        stall(12);
        assertEquals(0, slotsInUse(), "reaped");
        set(2);
        assertEquals(List.of(2L), follow(f, 1), "appended again at once: the current value");
        List<Follower.Gap> gaps = f.gaps();
        assertEquals(1, gaps.size());
        assertFalse(gaps.get(0).lost().certain(), "it may only say 'may have been missed'");
        assertTrue(gaps.get(0).notice().contains("may be missed"), gaps.get(0).notice());
        set(3);
        assertEquals(List.of(3L), follow(f, 1));
        assertEquals(1, client.subscribers("/x").subscribers(), "one slot, not two");
    }

    @Test
    void aGapShorterThanThePeerTimeoutLosesNothing_andTheGuardedCheckSaysSo() {
        client.announceExtensions(true);
        set(1);
        Follower f = new Follower(client);
        assertTrue(f.follow("/x", "/t/f/0").ok());
        assertEquals(List.of(1L), follow(f, 1));

        client.pollGapLimit(Duration.ofSeconds(3)); // shorter than the node's: the client checks, the slot is there
        stall(6);
        assertTrue(nodeEnd.isPeerUp(0), "not reaped: 6 s is within the board's 10 s");
        set(2);
        assertEquals(List.of(2L), follow(f, 1));
        assertEquals(1, client.peerStateLosses(), "the client did check");
        assertTrue(f.gaps().isEmpty(), "the generation guard found the slot there: nothing missed, nothing reported");
        assertEquals(1, client.subscribers("/x").subscribers());
    }
}
