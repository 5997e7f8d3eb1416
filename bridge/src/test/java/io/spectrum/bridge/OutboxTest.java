package io.spectrum.bridge;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The Outbox with no broker side draining it (what a down broker looks like from the peer side):
 * every offer returns, newer state of a topic replaces its unsent older one, past the bound the
 * oldest goes, and every offered message is accounted for as queued, coalesced or dropped.
 */
class OutboxTest {
    private static Outgoing state(String topic, String value) {
        return Outgoing.state(topic, value.getBytes(StandardCharsets.UTF_8), 1, false);
    }

    private static String text(Outgoing m) {
        return new String(m.payload(), StandardCharsets.UTF_8);
    }

    @Test
    void aNewerStateReplacesTheUnsentOlderOneInPlace() throws Exception {
        Outbox o = new Outbox(100);
        o.offer(state("t/a", "1"));
        o.offer(state("t/b", "1"));
        o.offer(state("t/a", "2"));
        o.offer(state("t/a", "3"));
        assertEquals(2, o.queued());
        assertEquals(2, o.coalesced());
        Outgoing first = o.poll(0);
        assertEquals("t/a", first.topic()); // keeps its place in line, carries the newest value
        assertEquals("3", text(first));
        o.offer(state("t/a", "4")); // sent meanwhile: queued again, behind t/b
        assertEquals("t/b", o.poll(0).topic());
        assertEquals("4", text(o.poll(0)));
        assertNull(o.poll(0));
        assertEquals(2, o.coalesced());
        assertEquals(0, o.dropped());
    }

    @Test
    void eventsAreNeverCoalescedAndAClearReplacesAState() throws Exception {
        Outbox o = new Outbox(100);
        o.offer(Outgoing.event("t/a/set/error", "x".getBytes(StandardCharsets.UTF_8)));
        o.offer(Outgoing.event("t/a/set/error", "y".getBytes(StandardCharsets.UTF_8)));
        o.offer(state("t/a", "1"));
        o.offer(Outgoing.clear("t/a"));
        assertEquals(3, o.queued());
        assertEquals(1, o.coalesced());
        assertEquals("x", text(o.poll(0)));
        assertEquals("y", text(o.poll(0)));
        assertArrayEquals(new byte[0], o.poll(0).payload()); // the purge, not the stale state
        assertEquals(0, o.retainedTopics());
    }

    @Test
    void withNobodyDrainingEveryOfferReturnsAndIsAccountedFor() {
        int bound = 64;
        Outbox o = new Outbox(bound);
        int topics = 200;
        int rounds = 50;
        for (int r = 0; r < rounds; r++) {
            for (int t = 0; t < topics; t++) {
                o.offer(state("t/" + t, Integer.toString(r)));
            }
        }
        long offered = (long) topics * rounds;
        assertEquals(offered, o.offered());
        assertEquals(bound, o.queued());
        assertEquals(offered, o.queued() + o.coalesced() + o.dropped());
        assertEquals(topics, o.retainedTopics()); // the latest state of every topic is kept for the reconnect
        for (Outgoing m : o.latest()) {
            assertEquals(Integer.toString(rounds - 1), text(m));
        }
    }

    @Test
    void aPutBackMessageSupersededMeanwhileIsNotSentAgain() throws Exception {
        Outbox o = new Outbox(100);
        o.offer(state("t/a", "1"));
        Outgoing taken = o.poll(0);
        o.offer(state("t/a", "2"));
        o.putBack(taken); // the publish failed, but a newer value waits already
        assertEquals(1, o.queued());
        assertEquals(1, o.coalesced());
        assertEquals("2", text(o.poll(0)));
        o.putBack(state("t/b", "1"));
        assertEquals("t/b", o.poll(0).topic());
    }
}
