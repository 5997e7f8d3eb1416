package io.spectrum.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.WireError;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The shared test link does what its hooks say, and a steady run through it allocates nothing. */
class MemoryLinkTest {
    private final List<String> got = new ArrayList<>();
    private final FrameHandler collect = (l, peer, b, off, len) -> got.add(l.id() + "<-" + peer + ":" + new String(b, off, len));

    private static byte[] f(String s) {
        return s.getBytes();
    }

    @Test
    void aPairCrossesPeerZeroOnlyCapturesEverySendAndClosesBothWays() {
        MemoryLink[] p = MemoryLink.pair();
        assertEquals(WireError.OK, p[0].send(0, f("xhello"), 1, 5));
        assertEquals(WireError.OK, p[0].send(7, f("nowhere"), 0, 7)); // captured, not crossed
        assertEquals(1, p[1].pending());
        assertEquals(1, p[1].poll(collect, 10));
        assertEquals(List.of("2<-0:hello"), got);
        assertEquals(2, p[0].sent().size());
        assertEquals(7, p[0].sentPeer(1));
        assertArrayEquals(f("nowhere"), p[0].lastSent());
        assertTrue(p[0].isPeerUp(0));
        assertFalse(p[0].isPeerUp(7));
        p[1].close();
        assertEquals(WireError.TRANSPORT_DOWN, p[0].send(0, f("x"), 0, 1));
        assertEquals(WireError.TRANSPORT_DOWN, p[1].send(0, f("x"), 0, 1));
        assertEquals(3, p[0].sendCalls());
    }

    @Test
    void aLoneEndKeepsARingOfItsSendsAndQueuesWhatItIsFed() {
        MemoryLink l = new MemoryLink(5);
        for (int i = 0; i < MemoryLink.RING + 3; i++) {
            assertEquals(WireError.OK, l.send(i % 4, f("s" + i), 0, ("s" + i).length()));
        }
        assertEquals(MemoryLink.RING + 3, l.sentCount());
        assertArrayEquals(f("s" + (MemoryLink.RING + 2)), l.lastSent());
        assertArrayEquals(f("s" + MemoryLink.RING), l.sentAt(MemoryLink.RING), "the ring reused the first slot");
        for (int i = 0; i < 200; i++) { // deeper than the first ring: it grows, nothing is lost
            l.inject(i, f("in" + i));
        }
        assertEquals(200, l.poll(collect, 1000));
        assertEquals("5<-0:in0", got.get(0));
        assertEquals("5<-199:in199", got.get(199));
        assertFalse(l.isPeerUp(0), "a lone end knows no peer up");
        l.clearSent();
        assertEquals(0, l.sentCount());
        assertNull(l.lastSent());
        l.record(false);
        l.send(0, f("x"), 0, 1);
        assertEquals(0, l.sentCount());
    }

    @Test
    void refusalsAnswerTheirCodeAndCaptureNothing() {
        MemoryLink[] p = MemoryLink.pair();
        p[0].refuse(3, WireError.FLOW_BACKPRESSURE).gone(4);
        assertEquals(WireError.FLOW_BACKPRESSURE, p[0].send(3, f("a"), 0, 1));
        assertEquals(1, p[0].refusals());
        assertEquals(WireError.TRANSPORT_DOWN, p[0].send(4, f("a"), 0, 1));
        assertTrue(p[0].isPeerGone(4));
        assertFalse(p[0].isPeerUp(4));
        p[0].failSends(WireError.FLOW_BACKPRESSURE);
        assertEquals(WireError.FLOW_BACKPRESSURE, p[0].send(0, f("a"), 0, 1));
        p[0].failSends(WireError.OK);
        p[1].capacity(1);
        assertEquals(WireError.OK, p[0].send(0, f("a"), 0, 1));
        assertEquals(WireError.FLOW_BACKPRESSURE, p[0].send(0, f("b"), 0, 1), "the other end is full");
        assertEquals(1, p[0].stats().sendRefused());
        assertEquals(1, p[0].sentCount(), "only the frame taken is captured");
        assertEquals(0, p[0].sentTo(3));
        assertEquals(1, p[0].sentTo(0));
    }

    @Test
    void transmitRespondAndBeforePollShapeThePath() {
        MemoryLink[] p = MemoryLink.pair(1, 2, 4096);
        p[0].transmit(x -> new String(x).equals("drop") ? List.of() : List.of(x, x));
        p[0].send(0, f("drop"), 0, 4);
        p[0].send(0, f("twice"), 0, 5);
        List<String> order = new ArrayList<>();
        p[1].beforePoll(() -> order.add("before"));
        p[1].poll((l, peer, b, off, len) -> order.add(new String(b, off, len)), 10);
        assertEquals(List.of("before", "twice", "twice"), order);
        MemoryLink lone = new MemoryLink(9).respond(x -> List.of(f("re:" + new String(x))));
        lone.send(0, f("q"), 0, 1);
        lone.poll(collect, 10);
        assertEquals(List.of("9<-0:re:q"), got);
    }

    @Test
    void peerEventsAreToldOnTheNextPollWithAListener() {
        MemoryLink l = new MemoryLink(1);
        l.peerUp(2);
        assertTrue(l.isPeerUp(2), "marked at once");
        assertEquals(0, l.poll(collect, 10), "no listener yet: kept");
        List<String> events = new ArrayList<>();
        l.setPeerListener(new PeerListener() {
            @Override
            public void onPeerUp(Link link, int peer) {
                events.add("up " + peer);
            }

            @Override
            public void onPeerDown(Link link, int peer) {
                events.add("down " + peer);
            }
        });
        l.peerDown(2);
        assertFalse(l.isPeerUp(2));
        assertEquals(List.of(), events);
        assertEquals(2, l.poll(collect, 10));
        assertEquals(List.of("up 2", "down 2"), events);
        assertEquals(0, l.poll(collect, 10), "told once");
        MemoryLink[] p = MemoryLink.pair();
        p[0].tracksLiveness(false);
        assertFalse(p[0].isPeerUp(0));
    }

    @Tag("alloc")
    @Test
    void aSteadyExchangeAllocatesNothing() {
        MemoryLink[] p = MemoryLink.pair(1, 2, 4096);
        MemoryLink lone = new MemoryLink(3);
        byte[] frame = new byte[100];
        long[] sum = new long[1];
        FrameHandler h = (l, peer, b, off, len) -> sum[0] += len + b[off];
        Runnable round = () -> {
            for (int i = 0; i < 8; i++) {
                p[0].send(0, frame, 0, frame.length);
                lone.inject(i, frame, 0, frame.length);
                lone.send(i, frame, 0, frame.length);
            }
            p[1].poll(h, 16);
            lone.poll(h, 16);
            p[0].clearSent();
        };
        for (int i = 0; i < 20_000; i++) {
            round.run();
        }
        long[] windows = new long[3];
        for (int w = 0; w < windows.length; w++) {
            long before = SteadyStateAllocation.allocatedBytes();
            for (int i = 0; i < 20_000; i++) {
                round.run();
            }
            windows[w] = SteadyStateAllocation.allocatedBytes() - before;
        }
        assertTrue(sum[0] > 0);
        SteadyStateAllocation.assertNone("memory link frames", 20_000 * 24, windows);
    }
}
