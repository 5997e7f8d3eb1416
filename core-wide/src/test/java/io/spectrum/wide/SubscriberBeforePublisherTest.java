package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A subscriber may come before the first publish (docs/node.md, "Vertices a subscription created"):
 * on a WIDE core, a caller that announced Spectrum's extensions subscribes to a vertex that does not
 * exist yet, anywhere, and gets the first value written there; the vertex is the subscriber's until
 * a value settles it, and goes with its slot. A plain v1 caller, and a NARROW node, answer
 * {@code path::not_found} as before.
 */
class SubscriberBeforePublisherTest {
    private final ManualClock clock = new ManualClock(0);
    private final WideNode host = new WideNode(NodeConfig.builder().clock(clock).maxVertices(256).maxSubscribers(64)
            .verticesPerPeer(8).maxKeyBytes(128).frameBytes(16 * 1024).build());
    private final MemoryLink[] c = MemoryLink.pair();
    private int route;

    @Test
    void anAnnouncingSubscriber_beforeAnyPublish_getsTheFirstValue() {
        assertEquals(WireError.OK, host.attach(c[0]));
        announce(host, 1);
        assertEquals(WireError.OK, append(host, 1, "/lab/future"));
        assertTrue(host.exists(NodePath.of("/lab/future")));
        assertEquals(1, host.listenerCount(NodePath.of("/lab/future")));

        int before = c[0].sentCount();
        byte[] v = Tlv.value(7, 1);
        WidePeer app = host.connect("app");
        assertEquals(WireError.OK, app.publish(NodePath.of("/lab/future"), v, 0, v.length));
        ModeWire.pump(host);
        boolean delivered = false;
        for (int k = before; k < c[0].sentCount(); k++) {
            ModeWire.Frame f = new ModeWire.Frame(c[0].sentAt(k));
            delivered |= f.opcode == FwdView.OP_WRITE && Arrays.equals(v, f.value);
        }
        assertTrue(delivered, "the subscriber that came first gets the first value");
        assertEquals(1, host.sequence(NodePath.of("/lab/future")));
    }

    @Test
    void theVertexGoesWithItsSlot_whenNothingSettledIt() {
        assertEquals(WireError.OK, host.attach(c[0]));
        announce(host, 1);
        assertEquals(WireError.OK, append(host, 1, "/lab/future"));
        assertEquals(WireError.OK, request(host, 1, ModeWire.fwd(FwdView.OP_WRITE, pathTlv("/lab/future"),
                ModeWire.slotField(0), pathTlv("/r/" + (++route)), Names.EMPTY_STATUS.copy())));
        assertFalse(host.exists(NodePath.of("/lab")), "an empty path it made goes again");
    }

    @Test
    void aPlainV1Subscriber_getsNotFound_andNothingIsMade() {
        assertEquals(WireError.OK, host.attach(c[0]));
        assertEquals(WireError.PATH_NOT_FOUND, append(host, 2, "/lab/future"));
        assertFalse(host.exists(NodePath.of("/lab")));
    }

    @Test
    void aNarrowNode_neverMakesIt() {
        NarrowNode board = new NarrowNode(NodeConfig.builder().clock(clock).build());
        assertEquals(WireError.OK, board.attach(c[0]));
        announce(board, 1);
        assertEquals(WireError.PATH_NOT_FOUND, append(board, 1, "/lab/future"));
        assertFalse(board.exists(NodePath.of("/lab/future")));
    }

    /** The peer announces the extensions (and a name) with a READ of the root. */
    private void announce(Node node, int peer) {
        byte[] b = new byte[512];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(FwdView.OP_READ, 1).raw(pathTlv("/")).raw(pathTlv("/r/" + (++route)));
        Extensions.announce(w, "viewer".getBytes(StandardCharsets.UTF_8));
        w.end();
        request(node, peer, Arrays.copyOf(b, w.length()));
    }

    private int append(Node node, int peer, String path) {
        return request(node, peer, ModeWire.fwd(FwdView.OP_WRITE, pathTlv(path), ModeWire.appendField(),
                pathTlv("/r/" + (++route)), ModeWire.record(pathTlv("/in/" + peer))));
    }

    private int request(Node node, int peer, byte[] frame) {
        return ModeWire.replyStatus(node, c[0], peer, frame);
    }

    private static byte[] pathTlv(String p) {
        NodePath n = NodePath.of(p);
        return Arrays.copyOf(n.tlv(), n.bodyOffset() + n.bodyLength());
    }
}
