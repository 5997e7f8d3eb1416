package io.spectrum.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared liveness rules, driven by explicit clock values (no sleeping). */
class PeerLivenessTest {
    private static final long PING = 100;
    private static final long TIMEOUT = 300;

    /** Records listener and probe calls as "up 0", "down 1", "probe 0". */
    private static final class Events implements PeerListener, LivenessProbe {
        final List<String> seen = new ArrayList<>();

        @Override
        public void onPeerUp(Link link, int peer) {
            seen.add("up " + peer);
        }

        @Override
        public void onPeerDown(Link link, int peer) {
            seen.add("down " + peer);
        }

        @Override
        public void probe(Link link, int peer) {
            seen.add("probe " + peer);
        }
    }

    private static PeerLiveness liveness(Events e, int peers, long timeout, boolean probeWhileDown) {
        PeerLiveness l = new PeerLiveness(null, peers, timeout, PING, probeWhileDown, 0);
        l.setListener(e);
        l.setProbe(e);
        return l;
    }

    @Test
    void aHeardPeerIsUpProbedWhenQuietAndDownAfterTheTimeout() {
        Events e = new Events();
        PeerLiveness l = liveness(e, 2, TIMEOUT, false);
        l.heard(1, 10);
        l.heard(1, 20);
        assertTrue(l.isUp(1));
        assertFalse(l.isUp(0));
        assertEquals(20, l.lastHeard(1));
        l.check(20 + PING - 1);
        assertEquals(List.of("up 1"), e.seen);
        l.check(20 + PING);
        assertEquals(List.of("up 1", "probe 1"), e.seen);
        l.check(20 + PING + 1);
        assertEquals(List.of("up 1", "probe 1"), e.seen, "one probe per ping interval");
        l.check(20 + TIMEOUT + 1);
        assertEquals(List.of("up 1", "probe 1", "down 1"), e.seen);
        assertFalse(l.isUp(1));
    }

    @Test
    void aDownPeerIsProbedOnlyWhenTheLinkAsksForIt() {
        Events listenerSide = new Events();
        PeerLiveness listener = liveness(listenerSide, 1, TIMEOUT, false);
        listener.check(PING * 5);
        assertEquals(List.of(), listenerSide.seen);

        Events dialerSide = new Events();
        PeerLiveness dialer = liveness(dialerSide, 1, TIMEOUT, true);
        dialer.check(PING);
        dialer.check(PING + 1);
        dialer.check(2 * PING);
        assertEquals(List.of("probe 0", "probe 0"), dialerSide.seen);
    }

    @Test
    void aPollGapLongerThanTheTimeoutTakesEveryPeerDown() {
        Events e = new Events();
        PeerLiveness l = liveness(e, 3, TIMEOUT, false);
        l.polled(0);
        l.heard(0, 0);
        l.heard(2, 0);
        l.polled(TIMEOUT);
        assertTrue(l.isUp(0) && l.isUp(2), "a gap of exactly the timeout is still fine");
        l.polled(2 * TIMEOUT + 1);
        assertEquals(List.of("up 0", "up 2", "down 0", "down 2"), e.seen);
        l.allDown();
        assertEquals(4, e.seen.size(), "down is reported once");
    }

    @Test
    void aZeroTimeoutNeverTakesAPeerDownBySilence() {
        Events e = new Events();
        PeerLiveness l = liveness(e, 1, 0, true);
        l.heard(0, 0);
        l.polled(1_000_000);
        l.check(1_000_000);
        assertTrue(l.isUp(0));
        assertEquals(List.of("up 0"), e.seen);
        l.down(0);
        assertEquals(List.of("up 0", "down 0"), e.seen);
    }
}
