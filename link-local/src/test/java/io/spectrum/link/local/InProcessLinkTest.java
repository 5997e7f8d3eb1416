package io.spectrum.link.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Lane;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.link.Readiness;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-memory link's own rules: an end as a {@link Link}, wake-ups both ways, the byte budget each way. */
class InProcessLinkTest {

    /** Counts wakes; watches nothing. */
    static final class Wakes implements Readiness {
        int count;

        @Override
        public boolean watch(Object selectableChannel) {
            return false;
        }

        @Override
        public void wake() {
            count++;
        }
    }

    /** Records frames and peer events. */
    static final class Seen implements FrameHandler, PeerListener {
        final List<byte[]> frames = new ArrayList<>();
        final List<String> events = new ArrayList<>();

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            byte[] f = new byte[len];
            System.arraycopy(buf, off, f, 0, len);
            frames.add(f);
            events.add("frame " + peer);
        }

        @Override
        public void onPeerUp(Link link, int peer) {
            events.add("up " + peer);
        }

        @Override
        public void onPeerDown(Link link, int peer) {
            events.add("down " + peer);
        }
    }

    @Test
    void anEndIsALinkWhosePeerZeroIsTheLinksSide_upFromTheConnect() {
        InProcessLink link = new InProcessLink(7, 64, 1_000);
        Seen side = new Seen();
        Seen client = new Seen();
        link.setPeerListener(side);
        InProcessLink.End end = link.connect(null, 9);
        end.setPeerListener(client);
        assertEquals(9, end.id());
        assertEquals(0, link.poll(side, 16));
        assertEquals(List.of("up 0"), side.events, "up when it connects, before any frame");
        assertTrue(link.isPeerUp(0) && end.isPeerUp(0) && !end.isPeerGone(0));

        byte[] f = {1, 2, 3};
        assertEquals(WireError.OK, end.send(0, f, 0, f.length));
        assertEquals(WireError.TRANSPORT_DOWN, end.send(1, f, 0, f.length), "an end has one peer, 0");
        assertEquals(1, link.poll(side, 16));
        assertArrayEquals(f, side.frames.get(0));
        byte[] g = {4, 5};
        assertEquals(WireError.OK, link.send(0, g, 0, g.length));
        assertEquals(1, end.poll(client, 16));
        assertEquals(List.of("up 0", "frame 0"), client.events);
        assertArrayEquals(g, client.frames.get(0));
        assertEquals(1, end.stats().framesOut());
        assertEquals(1, end.stats().framesIn());
        assertEquals(1, end.stats().sendRefused());

        link.close();
        end.poll(client, 16);
        assertEquals("down 0", client.events.get(client.events.size() - 1));
        assertTrue(end.isPeerGone(0));
        end.poll(client, 16);
        assertEquals(1, client.events.stream().filter("down 0"::equals).count(), "told once");
    }

    @Test
    void eachArrivalWakesTheReceivingSide() {
        InProcessLink link = new InProcessLink(1, 64, 1_000);
        Wakes side = new Wakes();
        Wakes client = new Wakes();
        assertTrue(link.setReadiness(side));
        InProcessLink.End end = link.connect("c");
        assertTrue(end.setReadiness(client));
        assertEquals(1, side.count, "a connect wakes the link's side");
        InProcessLink.End other = link.connect("d");
        byte[] f = {1};
        end.send(0, f, 0, 1);
        assertEquals(3, side.count, "a frame from an end wakes the link's side");
        link.send(end.peer(), f, 0, 1);
        assertEquals(1, client.count, "a frame for an end wakes that end only");
        other.close();
        assertEquals(4, side.count, "a close wakes the link's side");
        link.disconnect(end.peer());
        assertEquals(2, client.count, "the link's side dropping an end wakes it");
    }

    @Test
    void theQueueToAnEndIsBoundedByTheBudget_refusedAndCounted_roomAgainOnceRead() {
        InProcessLink link = new InProcessLink(1, 64, 100);
        InProcessLink.End end = link.connect("slow");
        Seen client = new Seen();
        byte[] f = new byte[40];
        assertEquals(WireError.OK, link.send(end.peer(), f, 0, f.length));
        assertEquals(WireError.OK, link.send(end.peer(), f, 0, f.length, Lane.TOPIC));
        assertEquals(WireError.FLOW_BACKPRESSURE, link.send(end.peer(), f, 0, f.length));
        assertEquals(WireError.FLOW_BACKPRESSURE, link.send(end.peer(), f, 0, f.length, Lane.RPC));
        assertEquals(2, link.stats().sendRefused());
        assertEquals(WireError.FRAME_INVALID, link.send(end.peer(), new byte[65], 0, 65), "above the frame size");
        assertEquals(2, end.poll(client, 16), "nothing refused was queued");
        assertEquals(WireError.OK, link.send(end.peer(), f, 0, f.length), "room again once the end read them");
    }

    @Test
    void controlFramesMayFillTheBudgetTwice_thenTheEndIsClosedAndItsPeerGoesDown() {
        InProcessLink link = new InProcessLink(1, 64, 100);
        Seen side = new Seen();
        link.setPeerListener(side);
        InProcessLink.End end = link.connect("stuck");
        link.poll(side, 16);
        byte[] f = new byte[50];
        for (int i = 0; i < 4; i++) {
            assertEquals(WireError.OK, link.send(end.peer(), f, 0, f.length, Lane.CONTROL));
        }
        assertEquals(WireError.TRANSPORT_DOWN, link.send(end.peer(), f, 0, f.length, Lane.CONTROL));
        assertFalse(end.isOpen());
        assertTrue(link.isPeerGone(end.peer()));
        link.poll(side, 16);
        assertEquals(List.of("up 0", "down 0"), side.events);
    }

    @Test
    void framesFromEndsAreBoundedByTheBudgetOverAllEnds() {
        InProcessLink link = new InProcessLink(1, 64, 100);
        InProcessLink.End a = link.connect("a");
        InProcessLink.End b = link.connect("b");
        byte[] f = new byte[50];
        assertEquals(WireError.OK, a.send(0, f, 0, f.length));
        assertEquals(WireError.OK, b.send(0, f, 0, f.length));
        assertEquals(WireError.FLOW_BACKPRESSURE, a.send(0, f, 0, f.length));
        assertEquals(1, a.stats().sendRefused());
        assertEquals(2, link.poll(new Seen(), 16));
        assertEquals(WireError.OK, a.send(0, f, 0, f.length));
    }
}
