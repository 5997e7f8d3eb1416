package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.stats.BoundedResource;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The grants of a WIDE host's client doors ({@link WideNode#restrict}, {@link ClientGate}): a host
 * with a board (NARROW) mounted as {@code /board1} and a restricted client listener. Each refusal is
 * {@code tr::access::denied} and leaves every table of both nodes as it was; the mount link is never
 * checked, so the board's deliveries still land.
 */
class ClientGrantsTest {
    private final ManualClock clock = new ManualClock(0);
    private NarrowNode board;
    private WideNode host;
    private MemoryLink[] mount;
    private MemoryLink[] clients;
    private int route;

    /** ops may write /lab/* and read everything; writer may only write /lab/*; anonymous may read /lab/* and /board1/*. */
    private static final Map<String, Grants> FILE = Map.of(
            "ops", Grants.builder().publish(Grants.Pattern.prefix("/lab/")).subscribe(Grants.Pattern.any()).build(),
            "writer", Grants.builder().publish(Grants.Pattern.prefix("/lab/")).build(),
            "admin", Grants.open());
    private static final Grants ANONYMOUS = Grants.builder()
            .subscribe(Grants.Pattern.prefix("/lab/"), Grants.Pattern.prefix("/board1/")).build();

    @BeforeEach
    void hostWithABoardAndARestrictedListener() {
        board = new NarrowNode(NodeConfig.builder().clock(clock).maxVertices(64).build());
        board.declare(NodePath.of("/board/led"), VertexSchema.value(1, false).range(0, 1).writable().build());
        board.declare(NodePath.of("/board/temp"), VertexSchema.value(2, true).readOnly().build());
        assertEquals(WireError.OK, write(board, "/board/temp", Tlv.value(215, 2)));
        assertEquals(WireError.OK, write(board, "/board/led", Tlv.value(0, 1)));
        host = new WideNode(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true)
                .serveSubscriptionsUnderMounts(true).maxMounts(4).maxVertices(512).maxSubscribers(512)
                .maxKeyBytes(128).frameBytes(16 * 1024).build());
        assertEquals(WireError.OK, write(host, "/lab/setpoint", Tlv.value(1, 4)));
        assertEquals(WireError.OK, write(host, "/other/x", Tlv.value(1, 4)));
        mount = MemoryLink.pair();
        assertEquals(WireError.OK, host.attach(mount[0]));
        assertEquals(WireError.OK, board.attach(mount[1]));
        assertEquals(WireError.OK, host.mount("board1", mount[0], 0));
        clients = MemoryLink.pair();
        assertEquals(WireError.OK, host.attach(clients[0]));
        assertEquals(WireError.OK, host.mountListener("clients", clients[0]));
        host.restrict(clients[0], PeerAccess.of(name -> name == null ? ANONYMOUS : FILE.getOrDefault(name, ANONYMOUS)));
        host.tick();
        board.tick(); // the first tick writes /$node/stats; the clock stands still from here
        pump();
    }

    @Test
    void write_needsPublishOnThePath_namedByItsAnnouncement() {
        byte[] v = Tlv.value(7, 4);
        assertEquals(WireError.ACCESS_DENIED, refused(1, fwd(FwdView.OP_WRITE, "/lab/setpoint", null, v, null)));
        assertEquals(WireError.ACCESS_DENIED, refused(1, fwd(FwdView.OP_WRITE, "/lab/setpoint", null, v, "viewer")));
        assertEquals(1, host.sequence(NodePath.of("/lab/setpoint")), "refused writes spent nothing");
        assertEquals(WireError.OK, status(1, fwd(FwdView.OP_WRITE, "/lab/setpoint", null, v, "ops")));
        assertEquals(2, host.sequence(NodePath.of("/lab/setpoint")));
        assertEquals("ops", host.lastPublisher(NodePath.of("/lab/setpoint")));
        assertEquals(WireError.ACCESS_DENIED, refused(1, fwd(FwdView.OP_WRITE, "/other/x", null, v, "ops")));
        assertEquals(WireError.ACCESS_DENIED, refused(1, fwd(FwdView.OP_WRITE, "/lab", null, v, "ops")), "/lab/* is under /lab/ only");
        // once announced, the name is remembered for the peer's later requests without it
        assertEquals(WireError.OK, status(1, fwd(FwdView.OP_WRITE, "/lab/setpoint", null, Tlv.value(8, 4), null)));
        assertEquals(3, host.sequence(NodePath.of("/lab/setpoint")));
    }

    @Test
    void aRefusedWriteUnderAMount_isNeverForwarded() {
        byte[] on = Tlv.value(1, 1);
        long forwarded = host.server().parts().router.forwarded();
        assertEquals(WireError.ACCESS_DENIED, refused(2, fwd(FwdView.OP_WRITE, "/board1/board/led", null, on, "ops")));
        assertEquals(forwarded, host.server().parts().router.forwarded());
        assertEquals(1, board.sequence(NodePath.of("/board/led")), "the board's value untouched");
        // the negative control: a name granted /board1/* gets through to the board
        assertEquals(WireError.OK, status(2, fwd(FwdView.OP_WRITE, "/board1/board/led", null, on, "admin")));
        assertEquals(2, board.sequence(NodePath.of("/board/led")));
    }

    @Test
    void aRefusedWriteToANewPath_createsNoVertex() {
        assertEquals(WireError.ACCESS_DENIED, refused(1, fwd(FwdView.OP_WRITE, "/new/vertex", null, Tlv.value(1, 4), "ops")));
        assertFalse(host.exists(NodePath.of("/new")));
    }

    @Test
    void read_andAwait_needSubscribe() {
        assertEquals(WireError.OK, status(3, fwd(FwdView.OP_READ, "/lab/setpoint", null, null, null)));
        assertEquals(WireError.ACCESS_DENIED, refused(3, fwd(FwdView.OP_READ, "/other/x", null, null, null)));
        assertEquals(WireError.ACCESS_DENIED, refused(3, fwd(FwdView.OP_READ, "/other/x", children(), null, null)));
        assertEquals(WireError.ACCESS_DENIED, refused(3, fwd(FwdView.OP_AWAIT, "/other/x", null, null, null)));
        assertEquals(WireError.ACCESS_DENIED, refused(4, fwd(FwdView.OP_READ, "/lab/setpoint", null, null, "writer")));
        assertEquals(WireError.OK, status(4, fwd(FwdView.OP_READ, "/other/x", null, null, "ops")));
    }

    @Test
    void aRefusedSubscribe_leavesNoEdge_hereOrUnderTheMount() {
        assertEquals(WireError.ACCESS_DENIED,
                refused(5, fwd(FwdView.OP_WRITE, "/lab/setpoint", ModeWire.appendField(), subscriber("/in/5"), "writer")));
        assertEquals(0, host.listenerCount(NodePath.of("/lab/setpoint")));
        assertEquals(WireError.ACCESS_DENIED,
                refused(5, fwd(FwdView.OP_WRITE, "/board1/board/temp", ModeWire.appendField(), subscriber("/in/5"), "writer")));
        assertFalse(host.exists(NodePath.of("/board1/board/temp")), "the append under the mount created nothing");
        assertEquals(WireError.ACCESS_DENIED,
                refused(6, fwd(FwdView.OP_WRITE, "/other/x", ModeWire.appendField(), subscriber("/in/6"), null)));
        assertEquals(0, host.listenerCount(NodePath.of("/other/x")));
    }

    @Test
    void theMountLinkIsNotChecked_theBoardsDeliveriesLand() {
        // the host's own subscription at the board: its deliveries come back over the mount link as WRITEs to
        // /board1/board/temp, which no name of the file may publish; a client granted subscribe gets them
        NodePath mirror = NodePath.of("/board1/board/temp");
        assertTrue(host.subscribeRemote(mount[0], 0, NodePath.of("/board/temp"), mirror, 0x0020) >= 0);
        pump();
        assertEquals(WireError.OK,
                status(7, fwd(FwdView.OP_WRITE, "/board1/board/temp", ModeWire.appendField(), subscriber("/in/7"), null)));
        assertEquals(WireError.OK, write(board, "/board/temp", Tlv.value(230, 2)));
        pump();
        assertEquals(Tlv.value(230, 2).length, host.read(mirror, new byte[16], 0, 16));
        ModeWire.Frame last = new ModeWire.Frame(clients[0].lastSent());
        assertEquals(FwdView.OP_WRITE, last.opcode, "delivered to the client: " + last);

        // the negative control: the same mount link checked against the grants would refuse the deliveries
        host.restrict(mount[0], PeerAccess.of(name -> ANONYMOUS));
        long seq = host.sequence(mirror);
        assertEquals(WireError.OK, write(board, "/board/temp", Tlv.value(231, 2)));
        pump();
        assertEquals(seq, host.sequence(mirror));
    }

    @Test
    void clearingOnesOwnSlot_needsNoGrant() {
        assertEquals(WireError.OK,
                status(8, fwd(FwdView.OP_WRITE, "/lab/setpoint", ModeWire.appendField(), subscriber("/in/8"), null)));
        assertEquals(1, host.listenerCount(NodePath.of("/lab/setpoint")));
        host.restrict(clients[0], (name, permission, path) -> false); // nothing granted to anyone now
        assertEquals(WireError.ACCESS_DENIED,
                refused(8, fwd(FwdView.OP_WRITE, "/lab/setpoint", ModeWire.slotField(0), subscriber("/in/8"), null)));
        assertEquals(WireError.OK,
                status(8, fwd(FwdView.OP_WRITE, "/lab/setpoint", ModeWire.slotField(0), Names.EMPTY_STATUS.copy(), null)));
        assertEquals(0, host.listenerCount(NodePath.of("/lab/setpoint")));
    }

    @Test
    void aDeclarationWrite_needsManage() {
        byte[] field = settingsAppField("unit");
        byte[] value = Tlv.value(1, 1);
        assertEquals(WireError.ACCESS_DENIED, refused(9, fwd(FwdView.OP_WRITE, "/lab/setpoint", field, value, "ops")));
        int admin = status(9, fwd(FwdView.OP_WRITE, "/lab/setpoint", field, value, "admin"));
        assertEquals(WireError.SCHEMA_NOT_FOUND, admin, "past the gate, the node's own answer: " + WireError.identity(admin));
    }

    @Test
    void aClearingWrite_needsManage() {
        assertEquals(WireError.ACCESS_DENIED, refused(9, clearing("/lab/setpoint", "ops")), "publish is not enough");
        assertEquals(WireError.OK, status(9, clearing("/lab/setpoint", "admin")));
        assertEquals(0, host.valueSequence(NodePath.of("/lab/setpoint")), "its value is gone");
    }

    /** FWD{WRITE, dst, src, the empty STATUS, SETTINGS{spectrum.ext, spectrum.name name, spectrum.clear 1}}. */
    private byte[] clearing(String dst, String name) {
        byte[] b = new byte[512];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(FwdView.OP_WRITE, 1).raw(path(dst)).raw(path("/r/" + (++route)))
                .raw(io.spectrum.wire.Names.EMPTY_STATUS)
                .begin(TlvType.SETTINGS).leaf(TlvType.NAME, "spectrum.ext".getBytes(StandardCharsets.UTF_8)).value(1, 2)
                .leaf(TlvType.NAME, io.spectrum.wire.Names.PEER_NAME).leaf(TlvType.NAME, name.getBytes(StandardCharsets.UTF_8))
                .leaf(TlvType.NAME, io.spectrum.wire.Names.CLEAR).value(1, 1).end()
                .end();
        assertEquals(WireError.OK, w.error());
        return Arrays.copyOf(b, w.length());
    }

    @Test
    void aNameTheLinkGives_winsOverTheAnnouncedOne() {
        MemoryLink[] named = MemoryLink.pair();
        NamedLink door = new NamedLink(named[0], "ops");
        assertEquals(WireError.OK, host.attach(door));
        assertEquals(WireError.OK, host.mountListener("named", door));
        host.restrict(door, PeerAccess.of(name -> name == null ? ANONYMOUS : FILE.getOrDefault(name, ANONYMOUS)));
        assertEquals(WireError.OK, send(named[0], 1, fwd(FwdView.OP_WRITE, "/lab/setpoint", null, Tlv.value(9, 4), "nobody")));
        assertEquals("ops", door.asked);
        assertEquals(2, host.sequence(NodePath.of("/lab/setpoint")));
    }

    @Test
    void aQueuedDoor_keepsTheInnerLinksNamesForItsPeers() {
        // the host wraps every client listener in a QueuedLink: the name a DTLS or local link gives must pass through
        io.spectrum.wide.link.QueuedLink q = io.spectrum.wide.link.QueuedLink.wrap(
                new NamedLink(MemoryLink.pair()[0], "ops"), io.spectrum.wide.link.QueuedLinkConfig.defaults());
        try {
            assertEquals("ops", q.peerName(0));
        } finally {
            q.close();
        }
    }

    @Test
    void unrestrictedAgain_everythingGoes() {
        host.restrict(clients[0], null);
        assertEquals(WireError.OK, status(10, fwd(FwdView.OP_WRITE, "/other/x", null, Tlv.value(5, 4), null)));
        assertEquals(2, host.sequence(NodePath.of("/other/x")));
    }

    // ------------------------------------------------------------------ plumbing

    /** Sends, expects an ERROR answer, and checks every table of both nodes is as it was. */
    private int refused(int peer, byte[] frame) {
        Map<String, Long> before = tables();
        int code = status(peer, frame);
        assertEquals(before, tables(), "a refused request changes nothing");
        return code;
    }

    private int status(int peer, byte[] frame) {
        return send(clients[0], peer, frame);
    }

    private int send(MemoryLink link, int peer, byte[] frame) {
        int sent = link.sentCount();
        link.inject(peer, frame);
        pump();
        assertTrue(link.sentCount() > sent, "answered");
        for (int k = sent; k < link.sentCount(); k++) {
            ModeWire.Frame a = new ModeWire.Frame(link.sentAt(k));
            if (a.opcode == FwdView.OP_REPLY) {
                return a.status;
            }
        }
        throw new AssertionError("no REPLY");
    }

    private Map<String, Long> tables() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (BoundedResource r : host.resources()) {
            m.put("host " + r.resourceName(), r.inUse());
        }
        for (BoundedResource r : board.resources()) {
            m.put("board " + r.resourceName(), r.inUse());
        }
        return m;
    }

    private void pump() {
        for (int i = 0; i < 100; i++) {
            int n = host.poll() + board.poll();
            host.tick();
            board.tick();
            if (n == 0) {
                return;
            }
        }
        throw new AssertionError("the nodes did not settle");
    }

    private static int write(Node n, String path, byte[] tlv) {
        return n.write(NodePath.of(path), tlv, 0, tlv.length);
    }

    /** FWD{op, dst, [field], src (a fresh route), [payload], [the announcement with {@code name}]}. */
    private byte[] fwd(int op, String dst, byte[] field, byte[] payload, String name) {
        byte[] b = new byte[4096];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(op, 1).raw(path(dst));
        if (field != null) {
            w.raw(field);
        }
        w.raw(path("/r/" + (++route)));
        if (payload != null) {
            w.raw(payload);
        }
        if (name != null) {
            Extensions.announce(w, name.getBytes(StandardCharsets.UTF_8));
        }
        w.end();
        assertEquals(WireError.OK, w.error());
        return Arrays.copyOf(b, w.length());
    }

    private static byte[] path(String p) {
        NodePath n = NodePath.of(p);
        return Arrays.copyOf(n.tlv(), n.bodyOffset() + n.bodyLength());
    }

    private static byte[] subscriber(String to) {
        return ModeWire.record(path(to));
    }

    private static byte[] children() {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD);
        FieldView.element(w, Names.CHILDREN, -1, -1).end();
        return Arrays.copyOf(b, w.length());
    }

    private static byte[] settingsAppField(String key) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD);
        w.leaf(TlvType.NAME, Names.SETTINGS).leaf(TlvType.NAME, Names.APP)
                .leaf(TlvType.NAME, key.getBytes(StandardCharsets.US_ASCII)).end();
        return Arrays.copyOf(b, w.length());
    }

    /** A link that names its peers as a DTLS or local link does ({@link Link#peerName}). */
    static final class NamedLink implements Link {
        final Link inner;
        final String peerName;
        String asked;

        NamedLink(Link inner, String peerName) {
            this.inner = inner;
            this.peerName = peerName;
        }

        @Override
        public int id() {
            return inner.id();
        }

        @Override
        public String name() {
            return "named " + inner.name();
        }

        @Override
        public int send(int peer, byte[] buf, int off, int len) {
            return inner.send(peer, buf, off, len);
        }

        @Override
        public String peerName(int peer) {
            asked = peerName;
            return peerName;
        }

        @Override
        public int poll(FrameHandler handler, int maxFrames) {
            return inner.poll((l, p, b, o, n) -> handler.onFrame(this, p, b, o, n), maxFrames);
        }

        @Override
        public int maxFrame() {
            return inner.maxFrame();
        }

        @Override
        public void setPeerListener(PeerListener listener) {
            inner.setPeerListener(listener);
        }

        @Override
        public LinkStats stats() {
            return inner.stats();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
