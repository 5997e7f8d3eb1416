package io.spectrum.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wire.FwdView;
import io.spectrum.wire.PathHandle;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A delivery is a view of the link's bytes during the sink call: its value is not copied unless the
 * application asks ({@link Delivery#value()}, {@link Delivery#detach()}), a detached one survives the
 * link reusing its buffer, and a view kept past its call without detaching fails loudly instead of
 * showing another frame's bytes.
 */
class DeliveryViewTest {
    /** Where the test frame starts in the "link's" buffer: not 0, so offsets are checked too. */
    private static final int AT = 7;

    /** A subscription delivery FWD WRITE{dst route, src empty, VALUE v (2 bytes)} written at {@code b[AT..]}. */
    private static int write(byte[] b, String route, int v) {
        TlvWriter w = new TlvWriter(4).wrap(b, AT, b.length - AT);
        w.begin(TlvType.FWD).value(FwdView.OP_WRITE, 1).raw(PathHandle.of(route).frame())
                .leaf(TlvType.PATH, new byte[0]).value(v, 2).end();
        return w.length();
    }

    /** The VALUE TLV {@code v} as the frame carries it. */
    private static byte[] tlv(int v) {
        return NodeFixture.value(v, 2);
    }

    @Test
    void theValueIsReadInTheLinksBuffer_andCopiedOnlyWhenAsked() {
        Inbox inbox = new Inbox(() -> 42);
        byte[] link = new byte[128];
        final int len = write(link, "/t/sub", 0x1234);
        List<Delivery> detached = new ArrayList<>();
        List<Delivery> views = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        inbox.deliverTo(d -> {
            views.add(d); // kept without detaching: the bug a sink must not have
            assertEquals("/t/sub", d.route());
            assertTrue(d.srcEmpty());
            assertEquals(42, d.receivedNanos());
            assertEquals(tlv(0x1234).length, d.valueLength());
            assertEquals(len, d.frameLength());
            Delivery kept = d.detach();
            detached.add(kept);
            assertNotSame(d, kept);
            assertSame(kept, kept.detach(), "a detached delivery is already independent");

            // the view reads the link's bytes in place: change them under it and it shows the change
            int low = AT + len - 2; // the value (little-endian) ends the frame: its low byte, then its high one
            assertEquals(0x34, link[low] & 0xFF);
            link[low] = 0x35;
            assertArrayEquals(tlv(0x1235), d.value(), "no copy was made: the view reads the buffer");
            assertEquals("4661", d.render(null).text());
            byte[] into = new byte[d.valueLength() + 3];
            assertEquals(d.valueLength(), d.valueInto(into, 3));
            assertArrayEquals(tlv(0x1235), Arrays.copyOfRange(into, 3, into.length));
            assertArrayEquals(Arrays.copyOfRange(link, AT, AT + len), d.frame());
            // value() and frame() are the application's own copies
            d.value()[0] = 0;
            assertArrayEquals(tlv(0x1235), d.value());
            // the detached one was copied before the change
            assertArrayEquals(tlv(0x1234), kept.value());
            seen.add(d.route());
        });
        inbox.frame(link, AT, len);
        assertEquals(List.of("/t/sub"), seen);

        // the link reuses its buffer for the next frame
        Arrays.fill(link, (byte) 0x7F);
        final int len2 = write(link, "/t/other", 7);
        inbox.deliverTo(d -> {
            assertSame(views.get(0), d, "one view, re-pointed at each frame");
            assertEquals("/t/other", d.route());
            detached.add(d.detach());
        });
        inbox.frame(link, AT, len2);
        Arrays.fill(link, (byte) 0);

        Delivery first = detached.get(0);
        assertEquals("/t/sub", first.route());
        assertArrayEquals(tlv(0x1234), first.value(), "a detached delivery survives the buffer being overwritten");
        assertEquals(42, first.receivedNanos());
        assertArrayEquals(tlv(7), detached.get(1).value());
        assertEquals("/t/other", detached.get(1).route());
        assertEquals(tlv(7).length, detached.get(1).valueLength());

        // the view kept past its call: every use throws rather than reading another frame's bytes
        Delivery kept = views.get(0);
        IllegalStateException e = assertThrows(IllegalStateException.class, kept::route);
        assertTrue(e.getMessage().contains("detach()"), e.getMessage());
        assertThrows(IllegalStateException.class, kept::value);
        assertThrows(IllegalStateException.class, kept::seq);
        assertThrows(IllegalStateException.class, kept::detach);
        assertEquals("Delivery[released view]", kept.toString());
    }

    @Test
    void aSinkThatKeepsTheViewIsCaught_oneThatDetachesKeepsEachDelivery() {
        try (NodeFixture f = new NodeFixture()) {
            List<Delivery> keptViews = new ArrayList<>();
            List<Delivery> kept = new ArrayList<>();
            f.client.onDelivery(d -> {
                keptViews.add(d);
                kept.add(d.detach());
            });
            f.set("/board/temp", 1, 2);
            assertTrue(f.client.subscribe("/board/temp", "/t/s", 0, false).ok());
            f.set("/board/temp", 2, 2);
            f.set("/board/temp", 3, 2);
            f.client.pumpUntil(() -> kept.size() >= 2, Duration.ofSeconds(5));
            assertEquals(2, kept.size());
            assertArrayEquals(tlv(2), kept.get(0).value());
            assertArrayEquals(tlv(3), kept.get(1).value());
            assertSame(keptViews.get(0), keptViews.get(1), "the sink got one view, re-pointed");
            assertThrows(IllegalStateException.class, () -> keptViews.get(0).value(),
                    "the kept view is caught at its first use after the call");
        }
    }

    @Test
    void detachValueKeepsTheFieldsAndACopyOfTheValue_notTheFrame() {
        Inbox inbox = new Inbox(() -> 42);
        byte[] link = new byte[128];
        final int len = write(link, "/t/sub", 0x1234);
        List<Delivery> kept = new ArrayList<>();
        inbox.deliverTo(d -> kept.add(d.detachValue()));
        inbox.frame(link, AT, len);
        Arrays.fill(link, (byte) 0x7F); // the link reuses its buffer

        Delivery d = kept.get(0);
        assertArrayEquals(tlv(0x1234), d.value(), "a copy of the value, made in the sink call");
        assertEquals(tlv(0x1234).length, d.valueLength());
        assertEquals("4660", d.render(null).text());
        assertNull(d.frame(), "the frame was not copied");
        assertEquals(0, d.frameLength());
        assertEquals("/t/sub", d.route());
        assertTrue(d.srcEmpty());
        assertEquals(42, d.receivedNanos());
        assertSame(d, d.detachValue(), "already without a frame: itself");
        assertSame(d, d.detach());
        Delivery made = Delivery.of("/r", tlv(5), true, false, 0, false, false, null, 0, new byte[] {1, 2}, -1, 0,
                null, 0);
        Delivery valueOnly = made.detachValue();
        assertNotSame(made, valueOnly, "a detached one with a frame: a new one without it");
        assertNull(valueOnly.frame());
        assertArrayEquals(tlv(5), valueOnly.value());
    }

    @Test
    void ofMakesADetachedDelivery_thatOwnsItsBytes() {
        byte[] v = tlv(5);
        Delivery d = Delivery.of("/r", v, true, true, 9, false, false, "/x", 3, null, -1, 0, null, 0);
        v[v.length - 1] = 0;
        assertArrayEquals(tlv(5), d.value(), "the parts were copied");
        assertSame(d, d.detach());
        assertNull(d.frame());
        assertEquals(0, d.frameLength());
        assertEquals(9, d.seq());
        Delivery none = Delivery.of("/r", null, true, false, 0, false, false, null, 0, null, -1, 0, null, 0);
        assertNull(none.value());
        assertEquals(0, none.valueLength());
        assertEquals(0, none.valueInto(new byte[0], 0));
        assertFalse(none.stamped());
    }
}
