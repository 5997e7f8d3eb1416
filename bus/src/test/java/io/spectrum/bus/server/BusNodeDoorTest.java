package io.spectrum.bus.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusFrames;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.wide.Grants;
import io.spectrum.bus.state.HostBus;
import io.spectrum.bus.state.MemoryArtifactStore;
import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.link.local.InProcessLink;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.BusError;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bus connection as a door to the host's node (docs/bus.md, "The host's node through the bus"),
 * at the server: a frame not addressed to {@code /$bus} goes to the node through the connection's
 * own end of the door, named by its client id, and what the node sends that end comes back; the end
 * closes with the connection; a relay the end refuses is answered typed; without a door such a frame
 * is refused as before. The test plays the node: it polls and sends on the door's side itself.
 */
class BusNodeDoorTest {
    private final MemoryArtifactStore store = new MemoryArtifactStore();
    private final BusLimits limits = BusLimits.builder().maxClients(2).build();
    private final HostBus bus = new HostBus(store, new ManualClock(0), limits);
    private final BusServer server = new BusServer(bus, store, id -> Grants.open());
    private final InProcessLink clients = BusServer.inProcessLink(1, InProcessLink.MAX_ENDS, limits);

    /** What the node side of the door got: frames (with their peer) and peer events. */
    private static final class NodeSide implements FrameHandler, PeerListener {
        final List<byte[]> frames = new ArrayList<>();
        final List<Integer> peers = new ArrayList<>();
        final List<String> events = new ArrayList<>();

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            frames.add(Arrays.copyOfRange(buf, off, off + len));
            peers.add(peer);
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

    BusNodeDoorTest() {
        server.attach(clients);
    }

    /** FWD{op, PATH dst, PATH src, [payload]}: a plain libtracer request (or reply) for the node. */
    private static byte[] fwd(int op, String dst, String src, byte[] payload) {
        byte[] out = new byte[256 + (payload == null ? 0 : payload.length)];
        TlvWriter w = new TlvWriter().wrap(out, 0, out.length);
        w.begin(TlvType.FWD).value(op, 1).raw(NodePath.of(dst).tlv()).raw(NodePath.of(src).tlv());
        if (op == FwdView.OP_REPLY) {
            w.value(FwdView.KIND_RESULT, 1);
        }
        if (payload != null) {
            w.leaf(TlvType.DESCRIPTION, payload);
        }
        w.end();
        assertEquals(WireError.OK, w.error());
        assertEquals(dst, BusFrames.fwdDst(out, 0, w.length()), "a well-formed FWD");
        return Arrays.copyOf(out, w.length());
    }

    private static List<byte[]> drain(InProcessLink.End end) {
        List<byte[]> out = new ArrayList<>();
        for (byte[] f; (f = end.poll()) != null; ) {
            out.add(f);
        }
        return out;
    }

    @Test
    void withoutADoor_aFrameNotForTheBusIsRefusedAsBefore_unansweredAndNothingOpened() throws Exception {
        InProcessLink.End end = clients.connect("ctl");
        byte[] read = fwd(FwdView.OP_READ, "/board1/temp", "/bus-node/r/1", null);
        assertEquals(WireError.OK, end.send(read, 0, read.length));
        server.doWork();
        assertEquals(1, server.framesRefused(), "counted as a frame that is no bus request");
        assertEquals(0, server.framesRelayed());
        assertTrue(drain(end).isEmpty(), "no answer");
        assertNull(server.connectionOf("ctl"), "no bus connection opened for it");
        assertEquals(0, bus.stats().connections());
    }

    @Test
    void withADoor_theLinksHello_opensNothing_andIsNotRelayed() throws Exception {
        NodeSide node = new NodeSide();
        InProcessLink door = BusServer.nodeDoorLink(9, limits, 4096, 1 << 16);
        door.setPeerListener(node);
        server.nodeDoor(door);
        InProcessLink.End end = clients.connect("ctl");
        // the local link's hello: READ /$node/caps with an empty src and the client's announcement
        byte[] out = new byte[256];
        TlvWriter w = new TlvWriter().wrap(out, 0, out.length);
        w.begin(TlvType.FWD).value(FwdView.OP_READ, 1).raw(NodePath.of("/$node/caps").tlv()).leaf(TlvType.PATH, new byte[0]);
        io.spectrum.wire.Extensions.announce(w, "ctl".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        w.end();
        byte[] hello = Arrays.copyOf(out, w.length());
        assertNull(BusFrames.relayDst(hello, 0, hello.length), "the hello is for nobody");
        assertEquals(WireError.OK, end.send(hello, 0, hello.length));
        server.doWork();
        door.poll(node, 16);
        assertEquals(0, server.framesRelayed(), "the hello is not the node's");
        assertTrue(node.frames.isEmpty() && node.events.isEmpty(), "no end opened: " + node.events);
        assertNull(server.connectionOf("ctl"), "and no bus connection: it opens at the first request");
        assertTrue(drain(end).isEmpty(), "no answer");
    }

    @Test
    void withADoor_framesGoToTheNodeAndBack_theEndNamedByTheClientId_andClosedWithTheConnection() throws Exception {
        NodeSide node = new NodeSide();
        InProcessLink door = BusServer.nodeDoorLink(9, limits, 4096, 1 << 16);
        door.setPeerListener(node);
        server.nodeDoor(door);
        InProcessLink.End end = clients.connect("ctl");
        byte[] hello = BusFrames.request("bus.hello", "/bus-client/r/1", BusFields.of());
        byte[] read = fwd(FwdView.OP_READ, "/board1/temp", "/bus-node/r/1", null);
        assertEquals(WireError.OK, end.send(hello, 0, hello.length));
        assertEquals(WireError.OK, end.send(read, 0, read.length));
        server.doWork();
        assertEquals(1, server.framesRelayed());
        assertEquals(0, server.framesRefused());

        door.poll(node, 16);
        assertEquals(List.of("up " + node.peers.get(0)), node.events);
        assertEquals(1, node.frames.size(), "the bus's own request stays at the bus");
        assertArrayEquals(read, node.frames.get(0), "the frame as the client sent it");
        int peer = node.peers.get(0);
        assertEquals("ctl", door.peerName(peer), "the node's peer is named by the bus client id");

        byte[] answer = fwd(FwdView.OP_REPLY, "/bus-node/r/1", "/board1/temp", new byte[] {'o', 'k'});
        assertEquals(WireError.OK, door.send(peer, answer, 0, answer.length));
        server.doWork();
        List<byte[]> got = drain(end);
        assertEquals(2, got.size(), "the hello's reply and the node's answer");
        assertTrue(BusFrames.decode(got.get(0), 0, got.get(0).length).isReply());
        assertArrayEquals(answer, got.get(1));
        assertEquals(1, server.framesFromNode());

        end.close(); // the bus client goes: its end of the door goes with it
        server.doWork();
        assertNull(server.connectionOf("ctl"));
        assertTrue(door.isPeerGone(peer), "the node sees its peer gone");
        door.poll(node, 16);
        assertEquals(List.of("up " + peer, "down " + peer), node.events, "and is told, so it reaps what the peer held");
    }

    @Test
    void anAnonymousClientsEndIsNamedByItsAnonymousId() throws Exception {
        NodeSide node = new NodeSide();
        InProcessLink door = BusServer.nodeDoorLink(9, limits, 4096, 1 << 16);
        server.nodeDoor(door);
        InProcessLink.End end = clients.connect(null);
        byte[] read = fwd(FwdView.OP_READ, "/lab/setpoint", "/bus-node/r/1", null);
        assertEquals(WireError.OK, end.send(read, 0, read.length));
        server.doWork();
        door.poll(node, 16);
        assertEquals(1, node.frames.size());
        String name = door.peerName(node.peers.get(0));
        assertNotNull(name);
        assertTrue(name.startsWith("anon-"), name);
        assertNotNull(server.connectionOf(name), "the name is the bus connection's anonymous id");
    }

    @Test
    void aRelayTheEndRefusesIsAnsweredTyped_aReplyIsOnlyCounted_andNothingIsLeftBehind() throws Exception {
        // a door whose node never polls: the end's budget fills, and the next request is refused
        InProcessLink door = BusServer.nodeDoorLink(9, limits, 4096, 600);
        server.nodeDoor(door);
        InProcessLink.End end = clients.connect("ctl");
        byte[] payload = new byte[200];
        Arrays.fill(payload, (byte) 'x');
        int sent = 0;
        for (int i = 1; i <= 4; i++) {
            byte[] write = fwd(FwdView.OP_WRITE, "/lab/setpoint", "/bus-node/r/" + i, payload);
            assertEquals(WireError.OK, end.send(write, 0, write.length));
            sent++;
        }
        server.doWork();
        assertEquals(2, server.framesRelayed(), "two fit the door's 600 bytes");
        assertEquals(2, server.relaysRefused());
        List<byte[]> got = drain(end);
        assertEquals(2, got.size(), "each refused request is answered");
        for (int i = 0; i < got.size(); i++) {
            BusFrames.Decoded d = BusFrames.decode(got.get(i), 0, got.get(i).length);
            assertTrue(d.isReply());
            assertEquals("/bus-node/r/" + (3 + i), d.dst(), "to the request's own route");
            assertEquals(FwdView.KIND_ERROR, d.kind());
            assertEquals(BusError.BACKPRESSURE, d.error().code(), "tr::flow::backpressure, as a hop refuses");
        }
        byte[] reply = fwd(FwdView.OP_REPLY, "/node/ping/1", "/$node/caps", payload);
        assertEquals(WireError.OK, end.send(reply, 0, reply.length));
        server.doWork();
        assertEquals(3, server.relaysRefused(), "a reply that does not fit is counted");
        assertTrue(drain(end).isEmpty(), "and never answered");
        assertEquals(4, sent);
    }

    @Test
    void aConnectionTheBusWillNotOpenGetsATypedRefusalForItsNodeFrame_andKeepsNoEnd() throws Exception {
        NodeSide node = new NodeSide();
        InProcessLink door = BusServer.nodeDoorLink(9, limits, 4096, 1 << 16);
        server.nodeDoor(door);
        List<InProcessLink.End> ends = new ArrayList<>();
        for (String n : List.of("a", "b", "c")) { // the bus takes 2 clients
            InProcessLink.End e = clients.connect(n);
            ends.add(e);
            byte[] read = fwd(FwdView.OP_READ, "/lab/setpoint", "/bus-node/r/1", null);
            assertEquals(WireError.OK, e.send(read, 0, read.length));
            server.doWork();
        }
        assertEquals(2, server.framesRelayed());
        assertEquals(1, server.relaysRefused());
        List<byte[]> refused = drain(ends.get(2));
        assertEquals(1, refused.size());
        BusFrames.Decoded d = BusFrames.decode(refused.get(0), 0, refused.get(0).length);
        assertEquals(FwdView.KIND_ERROR, d.kind(), "the third connection's read is refused typed");
        assertFalse(ends.get(2).isOpen(), "and the connection the bus would not open goes");
        door.poll(node, 16);
        assertEquals(2, node.frames.size(), "two ends at the node, none for the refused connection");
    }
}
