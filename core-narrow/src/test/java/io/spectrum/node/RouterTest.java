package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.stats.BoundedResource;
import io.spectrum.testing.Collector;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.PathView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * FWD forwarding in process: client → router A → router B → board, over {@link MemoryLink}s.
 * A mounts its client link as a listener ({@code /clients}) and B as {@code /b}; B mounts A as
 * {@code /a} and the board as {@code /board}. The client addresses {@code /b/board/...}.
 */
class RouterTest {
    private final ManualClock clock = new ManualClock(0);
    private final MemoryLink[] ca = MemoryLink.pair(); // [0] client, [1] A
    private final MemoryLink[] ab = MemoryLink.pair(); // [0] A, [1] B
    private final MemoryLink[] bb = MemoryLink.pair(); // [0] B, [1] board
    private final Collector client = new Collector();
    private final NodePath temp = NodePath.of("/sensor/temp");
    private ServingNode a;
    private ServingNode b;
    private ServingNode board;

    /** The core {@link NodeHarness#core} builds (NarrowNode here; core-wide runs this test on WideNode). */
    private ServingNode node(boolean serveSubscriptions) {
        return NodeHarness.core.apply(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true)
                .serveSubscriptionsUnderMounts(serveSubscriptions).build());
    }

    private void chain(boolean serveSubscriptionsAtA) {
        a = node(serveSubscriptionsAtA);
        b = node(false);
        board = node(false);
        a.attach(ca[1]);
        a.attach(ab[0]);
        b.attach(ab[1]);
        b.attach(bb[0]);
        board.attach(bb[1]);
        assertEquals(WireError.OK, a.mountListener("clients", ca[1]));
        assertEquals(WireError.OK, a.mount("b", ab[0], 0));
        assertEquals(WireError.OK, b.mount("a", ab[1], 0));
        assertEquals(WireError.OK, b.mount("board", bb[0], 0));
        assertEquals(WireError.OK, board.write(temp, Frames.value(2176, 2), 0, 6));
    }

    private void pump() {
        for (int i = 0; i < 100; i++) {
            if (a.poll() + b.poll() + board.poll() == 0) {
                return;
            }
        }
        throw new AssertionError("the nodes kept forwarding");
    }

    /** Sends a frame from the client to A, runs the chain, and returns what reached the client. */
    private List<Frames.Reply> send(byte[] frame) {
        ca[0].send(0, frame, 0, frame.length);
        pump();
        return received();
    }

    private List<Frames.Reply> received() {
        int before = client.frames.size();
        while (ca[0].poll(client, 64) > 0) {
            // drain
        }
        List<Frames.Reply> out = new ArrayList<>();
        for (int i = before; i < client.frames.size(); i++) {
            out.add(Frames.parse(client.frames.get(i)));
        }
        return out;
    }

    private static String path(Frames.Reply r, int e) {
        TlvIndex x = r.idx;
        return new PathView().wrap(x.buffer(), x.bodyOffset(e), x.bodyLength(e)).toText();
    }

    private static byte[] p(String path) {
        return NodePath.of(path).tlv();
    }

    private static Frames.Reply one(List<Frames.Reply> replies) {
        assertEquals(1, replies.size(), "one frame reached the client");
        return replies.get(0);
    }

    @Test
    void aDeclarationReadUnderAMount_isAnsweredFromTheRoutersCurrentCopy_elseForwarded() {
        chain(false);
        io.spectrum.node.api.VertexSchema cel = io.spectrum.node.api.VertexSchema.value(2, true).unit("Cel").scale(0.01)
                .readOnly().build();
        assertEquals(WireError.OK, board.declare(temp, cel));
        byte[] app = Frames.field("settings", "app");
        byte[] unit = Frames.field("settings", "app", "unit");
        Frames.Reply fromBoard = one(send(Frames.fwd(FwdView.OP_READ, p("/b/board/sensor/temp"), app, Frames.REPLY_EP)));
        Frames.Reply unitFromBoard = one(send(Frames.fwd(FwdView.OP_READ, p("/b/board/sensor/temp"), unit, Frames.REPLY_EP)));
        long forwarded = a.forwarded();
        // A keeps a copy of the board vertex with the board's declaration reported on it, and says it is current
        NodePath copy = NodePath.of("/b/board/sensor/temp");
        assertEquals(WireError.OK, a.write(copy, Frames.value(2176, 2), 0, 6));
        assertEquals(WireError.OK, a.report(copy, cel));
        boolean[] current = {true};
        a.server().answerDeclarationsHere((link, peer, buf, off, len) -> current[0] && link == ab[0] && peer == 0);

        Frames.Reply here = one(send(Frames.fwd(FwdView.OP_READ, p("/b/board/sensor/temp"), app, Frames.REPLY_EP)));
        assertArrayEquals(fromBoard.payloadBytes(), here.payloadBytes(), "the board's declaration, byte for byte");
        assertArrayEquals(unitFromBoard.payloadBytes(),
                one(send(Frames.fwd(FwdView.OP_READ, p("/b/board/sensor/temp"), unit, Frames.REPLY_EP))).payloadBytes());
        assertEquals(forwarded, a.forwarded(), "answered by A: nothing went on towards the board");
        one(send(Frames.fwd(FwdView.OP_READ, p("/b/board/sensor/temp"), Frames.field("schema"), Frames.REPLY_EP)));
        assertEquals(forwarded + 2, a.forwarded(), ":schema holds the board's core settings too: forwarded");

        current[0] = false; // no current copy (the board went away, say): forwarded, the board answers
        assertArrayEquals(fromBoard.payloadBytes(),
                one(send(Frames.fwd(FwdView.OP_READ, p("/b/board/sensor/temp"), app, Frames.REPLY_EP))).payloadBytes());
        assertEquals(forwarded + 4, a.forwarded());
    }

    @Test
    void aReadCrossesTwoRoutersAndItsReplyComesBack() {
        chain(false);
        Frames.Reply r = one(send(Frames.fwd(FwdView.OP_READ, p("/b/board/sensor/temp"), null, Frames.REPLY_EP)));
        assertEquals(FwdView.OP_REPLY, r.op);
        assertEquals(FwdView.KIND_RESULT, r.kind);
        assertEquals("/reply-ep", path(r, r.dst), "every hop stripped its run from the reply's dst");
        assertEquals("/sensor/temp", path(r, r.src), "a reply's src is not grown (libtracer)");
        assertArrayEquals(Frames.value(2176, 2), r.payloadBytes());
        // what the board saw: dst with both mounts stripped, src grown by both inbound runs
        Frames.Reply atBoard = Frames.parse(bb[0].sent().get(0));
        assertEquals("/sensor/temp", path(atBoard, atBoard.dst));
        assertEquals("/a/clients/0-1/reply-ep", path(atBoard, atBoard.src));
        assertEquals(2, a.forwarded());
        assertEquals(2, b.forwarded());
        assertEquals(0, a.routeRefused() + b.routeRefused());
    }

    @Test
    void writeAwaitAndChildrenAreForwarded() {
        chain(false);
        Frames.Reply w = one(send(Frames.fwd(FwdView.OP_WRITE, p("/b/board/sensor/temp"), null, Frames.REPLY_EP,
                Frames.value(2200, 2))));
        assertEquals(FwdView.KIND_RESULT, w.kind);
        byte[] v = new byte[16];
        assertEquals(6, board.read(temp, v, 0, v.length));
        assertArrayEquals(Frames.value(2200, 2), java.util.Arrays.copyOf(v, 6));

        assertEquals(0, send(Frames.fwd(FwdView.OP_AWAIT, p("/b/board/sensor/temp"), null, Frames.REPLY_EP)).size(),
                "the await waits at the board");
        board.write(temp, Frames.value(2300, 2), 0, 6);
        pump();
        Frames.Reply aw = one(received());
        assertEquals(FwdView.KIND_RESULT, aw.kind);
        assertArrayEquals(Frames.value(2300, 2), aw.payloadBytes());

        // the mount name alone addresses the board's root: its :children[] lists the board's tree
        Frames.Reply ch = one(send(Frames.fwd(FwdView.OP_READ, p("/b/board"), Frames.field("children"), Frames.REPLY_EP)));
        assertEquals(FwdView.KIND_RESULT, ch.kind);
        assertTrue(new String(ch.payloadBytes(), java.nio.charset.StandardCharsets.ISO_8859_1).contains("sensor"));
    }

    @Test
    void aForwardedSubscriptionsDeliveriesTravelBackHopByHop() {
        chain(false);
        byte[] mine = p("/mine/temp");
        Frames.Reply ack = one(send(Frames.fwd(FwdView.OP_WRITE, p("/b/board/sensor/temp"), Frames.subsField(-1, 1, -1),
                mine, Frames.subscriber("/mine/temp", 0, false, false))));
        assertEquals(FwdView.KIND_RESULT, ack.kind, "the board admitted the append");
        received();
        assertEquals(1, board.listenerCount(temp), "the subscription lives at the board");
        assertFalse(a.exists(NodePath.of("/b/board/sensor/temp")), "flag off: A forwarded it, serves nothing");
        board.write(temp, Frames.value(2400, 2), 0, 6);
        pump();
        Frames.Reply d = received().stream().filter(f -> f.op == FwdView.OP_WRITE).reduce((x, y) -> y).orElseThrow();
        assertEquals("/mine/temp", path(d, d.dst), "the delivery's dst is the client's own src again");
        assertEquals("/b/board", path(d, d.src), "a forwarded delivery's src grows by each hop's inbound run (libtracer)");
        assertArrayEquals(Frames.value(2400, 2), d.payloadBytes());
    }

    @Test
    void aClientsHolderPairStaysAtTheRouterAndTheFarEndHoldsTheForwardedAwaitForTheRouter() {
        chain(false);
        byte[] b = new byte[64];
        io.spectrum.wire.TlvWriter w = new io.spectrum.wire.TlvWriter().wrap(b, 0, b.length);
        byte[] holdPair = java.util.Arrays.copyOf(b, io.spectrum.wire.Extensions.announce(w, 0).length());
        // the client holds with a token at A ("none yet"); the board knows no such pair from A or B
        assertEquals(0, send(Frames.fwd(FwdView.OP_AWAIT, p("/b/board/sensor/temp"), null, Frames.REPLY_EP,
                Frames.value(5_000_000_000L, 8), holdPair)).size(), "held at the board, no challenge back");
        Frames.Reply atBoard = Frames.parse(bb[0].sent().get(bb[0].sent().size() - 1));
        assertEquals(TlvIndex.NONE, atBoard.trailing, "the client's pair went no further than A");
        board.write(temp, Frames.value(2500, 2), 0, 6);
        pump();
        Frames.Reply aw = one(received());
        assertEquals(FwdView.KIND_RESULT, aw.kind);
        assertArrayEquals(Frames.value(2500, 2), aw.payloadBytes());
    }

    @Test
    void theFarEndsErrorIsRoutedBack() {
        chain(false);
        Frames.Reply r = one(send(Frames.fwd(FwdView.OP_READ, p("/b/board/nope"), null, Frames.REPLY_EP)));
        assertEquals(FwdView.KIND_ERROR, r.kind);
        assertEquals(WireError.PATH_NOT_FOUND, r.errorCode());
        assertEquals("/reply-ep", path(r, r.dst));
        assertEquals("/nope", path(r, r.src));
    }

    @Test
    void aListenerNameWithAResidualThatIsNoLivePeerIsPathInvalid() {
        chain(false);
        Frames.Reply r = one(send(Frames.fwd(FwdView.OP_READ, p("/clients/9-9/x"), null, Frames.REPLY_EP)));
        assertEquals(WireError.PATH_INVALID, r.errorCode());
        assertEquals(1, a.routeRefused());
        // the listener's own name terminates at A (nothing there)
        Frames.Reply own = one(send(Frames.fwd(FwdView.OP_READ, p("/clients"), null, Frames.REPLY_EP)));
        assertEquals(WireError.PATH_NOT_FOUND, own.errorCode());
        assertEquals(1, a.routeRefused());
        assertEquals(0, ab[0].sent().size(), "nothing left A");
    }

    @Test
    void anUnknownMountIsTheTerminusAndAnUnmountedSenderHasNoRoute() {
        chain(false);
        Frames.Reply r = one(send(Frames.fwd(FwdView.OP_READ, p("/zzz/x"), null, Frames.REPLY_EP)));
        assertEquals(WireError.PATH_NOT_FOUND, r.errorCode());
        assertEquals(0, a.routeRefused());
        MemoryLink[] other = MemoryLink.pair();
        a.attach(other[1]);
        byte[] req = Frames.fwd(FwdView.OP_READ, p("/b/board/sensor/temp"), null, Frames.REPLY_EP);
        other[1].inject(req);
        pump();
        Collector c = new Collector();
        other[0].poll(c, 8);
        Frames.Reply nr = Frames.parse(c.frames.get(c.frames.size() - 1));
        assertEquals(WireError.PATH_NOT_FOUND, nr.errorCode(), "no inbound run: the reply could never come back");
        assertEquals(1, a.noRoute());
        assertEquals(0, ab[0].sent().size());
    }

    @Test
    void aReusedPeerHandleNeverGetsAnEarlierPeersReplies() {
        chain(false);
        byte[] req = Frames.fwd(FwdView.OP_READ, p("/b/sensor"), null, Frames.REPLY_EP);
        ca[1].inject(3, req);
        a.poll();
        Frames.Reply first = Frames.parse(ab[0].sent().get(0));
        assertEquals("/clients/3-1/reply-ep", path(first, first.src));
        a.onPeerDown(ca[1], 3); // peer 3 leaves; a new peer gets handle 3
        ca[1].inject(3, req);
        a.poll();
        Frames.Reply second = Frames.parse(ab[0].sent().get(1));
        assertEquals("/clients/3-2/reply-ep", path(second, second.src), "a new generation");
        int sentToClients = ca[1].sent().size();
        // the late reply to the first peer, and a new one to the second
        byte[] toFirst = Frames.fwd(FwdView.OP_REPLY, p("/clients/3-1/reply-ep"), null, p("/sensor"), Frames.value(0, 1));
        ab[1].send(0, toFirst, 0, toFirst.length);
        a.poll();
        assertEquals(sentToClients, ca[1].sent().size(), "the earlier peer's reply reached nobody");
        assertEquals(1, a.routeRefused());
        byte[] toSecond = Frames.fwd(FwdView.OP_REPLY, p("/clients/3-2/reply-ep"), null, p("/sensor"), Frames.value(0, 1));
        ab[1].send(0, toSecond, 0, toSecond.length);
        a.poll();
        assertEquals(sentToClients + 1, ca[1].sent().size());
        Frames.Reply got = Frames.parse(ca[1].sent().get(sentToClients));
        assertEquals("/reply-ep", path(got, got.dst));
    }

    @Test
    void withTheFlagOnAnUpstreamRouterServesSubscriptionsOnTheFullPath() {
        chain(true);
        Frames.Reply ack = one(send(Frames.fwd(FwdView.OP_WRITE, p("/b/board/sensor/temp"), Frames.subsField(-1, 1, -1),
                p("/mine"), Frames.subscriber("/mine", 0, false, false))));
        assertEquals(FwdView.KIND_RESULT, ack.kind);
        NodePath full = NodePath.of("/b/board/sensor/temp");
        assertTrue(a.exists(full), "the append created the vertex at A");
        assertEquals(1, a.listenerCount(full));
        assertEquals(0, ab[0].sent().size(), "nothing was forwarded");
        assertEquals(0, board.listenerCount(temp));
        // its list is A's too; a plain READ is still forwarded
        Frames.Reply list = one(send(Frames.fwd(FwdView.OP_READ, p("/b/board/sensor/temp"), Frames.subsField(-1, 1, -1),
                Frames.REPLY_EP)));
        assertEquals(FwdView.KIND_RESULT, list.kind);
        assertEquals(0, ab[0].sent().size());
        Frames.Reply read = one(send(Frames.fwd(FwdView.OP_READ, p("/b/board/sensor/temp"), null, Frames.REPLY_EP)));
        assertArrayEquals(Frames.value(2176, 2), read.payloadBytes());
        // a remote WRITE of a value under the mount creates nothing at A (it is forwarded)
        assertFalse(a.exists(NodePath.of("/b/board/other")));
    }

    @Test
    void aRefusedAppendUnderAServedMountLeavesNoVertexAtTheRouter() {
        chain(true);
        BoundedResource vertices = java.util.Arrays.stream(a.resources())
                .filter(r -> r.resourceName().endsWith(".vertices")).findFirst().orElseThrow();
        long before = vertices.inUse();
        byte[] targetless = {0x04, 0x40, 0x06, 0x00, 0x01, 0x00, 0x02, 0x00, 0x01, 0x00}; // SUBSCRIBER{VALUE u16}
        Frames.Reply r = one(send(Frames.fwd(FwdView.OP_WRITE, p("/b/board/new/deep/path"), Frames.subsField(-1, 1, -1),
                p("/mine"), targetless)));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, r.errorCode());
        assertFalse(a.exists(NodePath.of("/b")), "nothing of the path it would have created");
        assertEquals(before, vertices.inUse());
        // an admitted one under the same new path is still created whole
        assertEquals(FwdView.KIND_RESULT, one(send(Frames.fwd(FwdView.OP_WRITE, p("/b/board/new/deep/path"),
                Frames.subsField(-1, 1, -1), p("/mine"), Frames.subscriber("/mine", 0, false, false)))).kind);
        assertTrue(a.exists(NodePath.of("/b/board/new/deep/path")));
    }

    @Test
    void aFrameAddressedBackToItsOwnMountEndsHere() {
        chain(false);
        NodePath mirror = NodePath.of("/b/mirror");
        a.write(mirror, Frames.value(1, 1), 0, 5);
        // a delivery from B (the edge A's own subscribeRemote made, target under B's mount name)
        byte[] delivery = Frames.fwd(FwdView.OP_WRITE, mirror.tlv(), null, Frames.EMPTY_PATH, Frames.value(7, 1));
        ab[1].send(0, delivery, 0, delivery.length);
        a.poll();
        byte[] v = new byte[8];
        assertEquals(5, a.read(mirror, v, 0, v.length));
        assertArrayEquals(Frames.value(7, 1), java.util.Arrays.copyOf(v, 5));
        assertEquals(0, a.forwarded());
        assertEquals(0, ab[0].sent().size(), "not bounced back to B");
    }

    @Test
    void aRequestWhoseSrcCannotGrowIsDropped() {
        chain(false);
        byte[] ref = Frames.hex("14000800" + "0100000002000000"); // src PATH_REF: no route to grow
        assertEquals(0, send(Frames.fwd(FwdView.OP_READ, p("/b/board/sensor/temp"), null, ref)).size());
        assertEquals(1, a.routeRefused());
        assertEquals(0, ab[0].sent().size(), "not forwarded");
    }

    @Test
    void mountRefusalsAreTyped() {
        ServingNode n = NodeHarness.core.apply(NodeConfig.builder().maxMounts(2).build());
        MemoryLink[] l = MemoryLink.pair();
        assertEquals(WireError.TRANSPORT_DOWN, n.mount("x", l[0], 0), "not attached");
        n.attach(l[0]);
        assertEquals(WireError.PATH_INVALID, n.mount("a/b", l[0], 0));
        assertEquals(WireError.PATH_INVALID, n.mount("", l[0], 0));
        assertEquals(WireError.PATH_INVALID, n.mount("$node", l[0], 0), "the node's own names");
        assertEquals(WireError.OK, n.mount("x", l[0], 0));
        assertEquals(WireError.PATH_IN_USE, n.mountListener("x", l[0]));
        assertEquals(WireError.OK, n.mountListener("y", l[0]));
        assertEquals(WireError.FLOW_BACKPRESSURE, n.mount("z", l[0], 1));
        BoundedResource mounts = java.util.Arrays.stream(n.resources()).filter(r -> r.resourceName().equals("node.mounts"))
                .findFirst().orElseThrow();
        assertEquals(2, mounts.capacity());
        assertEquals(2, mounts.inUse());
        assertEquals(1, mounts.refused());
        assertEquals(WireError.OK, n.unmount("x"));
        assertEquals(WireError.PATH_NOT_FOUND, n.unmount("x"));
        assertEquals(1, mounts.inUse());
    }
}
