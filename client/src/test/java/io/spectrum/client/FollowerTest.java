package io.spectrum.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodePath;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * The one follower of a peer (the CLI's sub and record, the MQTT bridge): the stricter behaviour
 * of the two it replaced, each kept: a stale value always has a reason (the bridge's), declarations
 * are read again after a subscription was restored (the bridge's; the CLI kept its first reading
 * forever), and a path the node names that is no path renders raw instead of throwing (the bridge's).
 */
class FollowerTest {
    private static void settle(NodeFixture f) {
        while (f.client.pumpOnce() > 0) {
            // drain
        }
    }

    /** How many declaration reads ({@code :settings.app}) the client sends from now on. */
    private static List<String> declarationReads(PeerClient c) {
        List<String> reads = new ArrayList<>();
        FrameDecoder d = new FrameDecoder();
        TlvIndex x = new TlvIndex(64, 8);
        FwdView v = new FwdView();
        c.setTap((out, buf, off, len) -> {
            if (out && d.decode(buf, off, len, x) == WireError.OK && v.wrap(x, 0) == WireError.OK
                    && v.opcode() == FwdView.OP_READ && v.field() != TlvIndex.NONE) {
                FieldView field = new FieldView();
                if (field.wrap(x, v.field()) == WireError.OK && field.toText().equals(":settings.app")) {
                    reads.add(field.toText());
                }
            }
        });
        return reads;
    }

    @Test
    void aRestoredSubscriptionMakesTheFollowerReadTheDeclarationsAgain() {
        try (NodeFixture f = new NodeFixture()) {
            f.client.announceExtensions(true); // the slot's identity: the generation guard finds it gone
            assertEquals(WireError.OK, f.node.declare(NodePath.of("/board/temp"), ValueFormatTest.TEMP));
            f.set("/board/temp", 2328, 2);
            List<String> reads = declarationReads(f.client);
            Follower follower = new Follower(f.client);
            assertTrue(follower.follow("/board/temp", "/t/f/0").ok());
            settle(f);
            Follower.Sample first = follower.next();
            assertEquals("23.28 °C", first.value().text());
            assertEquals(1, reads.size(), "one declaration read: " + reads);

            f.node.onPeerDown(f.nodeEnd, 0); // the node drops the follower's slot (as a restarted peer has none)
            f.set("/board/temp", 2330, 2);
            settle(f);
            assertEquals(1, follower.verify(), "found gone by the generation guard and appended again");
            settle(f);
            Follower.Sample again = follower.next();
            assertEquals("23.30 °C", again.value().text());
            assertEquals(2, reads.size(), "the declaration is read again after the restore: " + reads);
        }
    }

    @Test
    void aQueuedDeliveryKeepsItsValue_notItsFrame() {
        try (NodeFixture f = new NodeFixture()) {
            assertEquals(WireError.OK, f.node.declare(NodePath.of("/board/temp"), ValueFormatTest.TEMP));
            f.set("/board/temp", 2328, 2);
            Follower follower = new Follower(f.client);
            assertTrue(follower.follow("/board/temp", "/t/f/0").ok());
            settle(f);
            f.set("/board/temp", 2329, 2);
            settle(f);
            Follower.Sample first = follower.next();
            Follower.Sample second = follower.next();
            assertNull(follower.next());
            assertEquals("23.28 °C", first.value().text());
            assertEquals("23.29 °C", second.value().text());
            assertEquals("/board/temp", second.path());
            assertArrayEquals(NodeFixture.value(2329, 2), second.delivery().value(), "the value, kept past the sink");
            assertEquals(0, second.delivery().frameLength(), "the whole frame was not copied");
            assertTrue(second.delivery().stamped());
        }
    }

    @Test
    void aStaleValueAlwaysHasAReason_aCurrentOneNone() {
        ValueText v = ValueText.NONE;
        Delivery staleNoReason = Delivery.of("/r", null, true, true, 5, true, false, "/x", 0, null, -1, 0, null, 0);
        Delivery staleWithReason = Delivery.of("/r", null, true, true, 5, true, false, "/x", 0, null, -1, 0, "board away", 0);
        Delivery current = Delivery.of("/r", null, true, true, 5, false, false, "/x", 0, null, -1, 0, null, 0);
        Delivery unstamped = Delivery.of("/r", null, true, false, 0, true, false, "/x", 0, null, -1, 0, null, 0);
        assertEquals(Follower.STALE_AT_NODE, new Follower.Sample("/x", v, staleNoReason).reason());
        assertEquals("board away", new Follower.Sample("/x", v, staleWithReason).reason());
        assertNull(new Follower.Sample("/x", v, current).reason());
        assertNull(new Follower.Sample("/x", v, unstamped).reason(), "no stamp: not known to be stale");
    }

    @Test
    void aPathTheNodeNamesThatIsNoPathHasNoDeclaration_insteadOfThrowing() {
        try (NodeFixture f = new NodeFixture()) {
            Follower follower = new Follower(f.client);
            assertNull(follower.schema("board//temp"));
        }
    }
}
