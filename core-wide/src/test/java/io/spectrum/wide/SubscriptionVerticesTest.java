package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Vertices a subscription created (docs/node.md, "Vertices a subscription created"): a host (WIDE,
 * serving subscriptions under its mount) creates the path of a client's append under a mount; those
 * vertices count against the client's vertex share and go again once they hold nothing, their
 * handles reused without an old holder ever reaching the new vertex.
 */
class SubscriptionVerticesTest {
    private static final int SHARE = 100;
    private final ManualClock clock = new ManualClock(0);
    private NarrowNode board;
    private WideNode host;
    private MemoryLink[] clients;
    private int route;

    @BeforeEach
    void hostWithABoard() {
        board = new NarrowNode(NodeConfig.builder().clock(clock).build());
        board.declare(NodePath.of("/board/temp"), VertexSchema.value(2, true).readOnly().build());
        host = new WideNode(NodeConfig.builder().clock(clock).serveSubscriptionsUnderMounts(true).maxMounts(4)
                .maxVertices(512).maxSubscribers(8192).slotsPerPeer(4096).verticesPerPeer(SHARE).maxKeyBytes(128)
                .frameBytes(16 * 1024).build());
        MemoryLink[] mount = MemoryLink.pair();
        assertEquals(WireError.OK, host.attach(mount[0]));
        assertEquals(WireError.OK, board.attach(mount[1]));
        assertEquals(WireError.OK, host.mount("board1", mount[0], 0));
        clients = MemoryLink.pair();
        assertEquals(WireError.OK, host.attach(clients[0]));
        assertEquals(WireError.OK, host.mountListener("clients", clients[0]));
        host.tick();
        board.tick();
    }

    @Test
    void aClientSubscribingToThousandsOfMissingPathsLeavesTheVertexTableAsItWasAndAnotherClientIsServedThroughout() {
        assertEquals(WireError.OK, append(2, "/board1/board/temp"), "the legitimate subscription");
        final int before = host.vertexCount();

        int admitted = 0;
        int refused = 0;
        for (int i = 0; i < 3000; i++) {
            int status = append(1, missing(i));
            if (status == WireError.OK) {
                admitted++;
            } else {
                assertEquals(WireError.FLOW_BACKPRESSURE, status, "a refusal past the share is typed");
                refused++;
            }
            if (i % 500 == 499) { // the other client still gets a new subscription, and its own vertices
                String mine = "/board1/board/more" + i;
                assertEquals(WireError.OK, append(2, mine), "the other client is served while the hostile one is refused");
                assertEquals(WireError.OK, clearFirstSlot(2, mine));
                assertNull(host.findKey(key(mine), 0, key(mine).length), "its vertex went with its slot");
            }
        }
        assertTrue(admitted > 0 && admitted < SHARE, "the hostile client got at most its share: " + admitted);
        assertEquals(3000 - admitted, refused);
        assertEquals(refused, host.vertexShareRefused(), "each refusal is counted as the peer's share");
        assertTrue(host.vertexCount() <= before + SHARE, "the table holds at most one share more: " + host.vertexCount());

        host.onPeerDown(clients[0], 1); // its slots are reaped
        assertEquals(before, host.vertexCount(), "every vertex its subscriptions created went with them");
        for (int i = 0; i < admitted; i++) {
            assertTrue(!host.exists(NodePath.of(missing(i))), missing(i));
        }
        assertTrue(host.exists(NodePath.of("/board1/board/temp")), "the other client's vertex stays");
        assertEquals(WireError.OK, append(1, missing(0)), "a new peer at the same address has its whole share again");
    }

    @Test
    void aRemovedVertexsHandleIsReusedAndNoOldHolderReachesTheNewVertex() {
        assertEquals(WireError.OK, append(1, "/board1/gone/a"));
        Vertex a = find("/board1/gone/a");
        Vertex gone = find("/board1/gone");
        Vertex board1 = find("/board1");
        assertNotNull(a.creator, "a vertex the append created is its peer's");
        final Set<Integer> freed = new HashSet<>(List.of(a.id, gone.id, board1.id));
        final int count = host.vertexCount();

        assertEquals(WireError.OK, clearFirstSlot(1, "/board1/gone/a"));
        assertEquals(count - 3, host.vertexCount(), "the three vertices the append created went with its slot");
        for (Vertex old : List.of(a, gone, board1)) {
            assertEquals(-1, old.id, "a removed vertex has no handle");
            assertNull(host.findKey(old.key, 0, old.key.length), "its key names nothing");
        }

        assertEquals(WireError.OK, append(1, "/board1/new/b"));
        Vertex b = find("/board1/new/b");
        List<Vertex> fresh = List.of(find("/board1"), find("/board1/new"), b);
        for (Vertex v : fresh) {
            assertTrue(freed.contains(v.id), "a freed handle is reused: " + v.id + " of " + freed);
            assertSame(v, host.vertexAt(v.id));
        }
        for (Vertex old : List.of(a, gone, board1)) {
            for (Vertex v : fresh) {
                assertNotSame(old, v, "a removed vertex is never handed out again");
            }
        }
        assertNull(host.findKey(a.key, 0, a.key.length), "the old path still names nothing");
        assertEquals(1, b.edgeCount, "the new vertex holds only its own slot");
        everyVertexIsFoundByItsKeyAtItsHandle();
    }

    @Test
    void aVertexThatGotAValueOrADeclarationStaysWhenTheSlotGoes() {
        assertEquals(WireError.OK, append(1, "/board1/kept/value"));
        assertEquals(WireError.OK, append(1, "/board1/kept/declared"));
        byte[] v = Tlv.value(7, 4);
        assertEquals(WireError.OK, host.write(NodePath.of("/board1/kept/value"), v, 0, v.length));
        assertEquals(WireError.OK, host.report(NodePath.of("/board1/kept/declared"), VertexSchema.value(2, true).build()));
        host.onPeerDown(clients[0], 1);
        assertTrue(host.exists(NodePath.of("/board1/kept/value")));
        assertTrue(host.exists(NodePath.of("/board1/kept/declared")));
        assertNull(find("/board1/kept").creator, "its ancestors are kept too");
        everyVertexIsFoundByItsKeyAtItsHandle();
    }

    @Test
    void anAppendRefusedPastTheShareLeavesNoVertexAndNoPeer() {
        for (int i = 0; i < SHARE; i++) {
            append(1, missing(i));
        }
        final int vertices = host.vertexCount();
        final String peers = Arrays.toString(Arrays.stream(host.resources()).mapToLong(r -> r.inUse()).toArray());
        assertEquals(WireError.FLOW_BACKPRESSURE, append(1, "/board1/one/more/path"));
        assertEquals(vertices, host.vertexCount());
        assertEquals(peers, Arrays.toString(Arrays.stream(host.resources()).mapToLong(r -> r.inUse()).toArray()));
    }

    // ------------------------------------------------------------------ harness

    private static String missing(int i) {
        return "/board1/no/such/x" + i + "-" + "y".repeat(50);
    }

    private Vertex find(String path) {
        byte[] k = key(path);
        Vertex v = host.findKey(k, 0, k.length);
        assertNotNull(v, path);
        return v;
    }

    private static byte[] key(String path) {
        NodePath p = NodePath.of(path);
        return Arrays.copyOfRange(p.tlv(), p.bodyOffset(), p.bodyOffset() + p.bodyLength());
    }

    private void everyVertexIsFoundByItsKeyAtItsHandle() {
        int live = 0;
        List<Vertex> all = new ArrayList<>();
        for (Vertex v : host.handles.byId) {
            if (v != null) {
                all.add(v);
            }
        }
        for (Vertex v : all) {
            assertSame(v, host.findKey(v.key, 0, v.key.length));
            assertSame(v, host.vertexAt(v.id));
            live++;
        }
        assertEquals(host.vertexCount(), live);
    }

    /** A SUBSCRIBER append by client peer at path; the reply's status. */
    private int append(int peer, String path) {
        return request(peer, ModeWire.fwd(FwdView.OP_WRITE, pathTlv(path), ModeWire.appendField(),
                pathTlv("/r/" + (++route)), ModeWire.record(pathTlv("/in/" + peer))));
    }

    /** Clears slot [0] of path (the empty STATUS). */
    private int clearFirstSlot(int peer, String path) {
        return request(peer, ModeWire.fwd(FwdView.OP_WRITE, pathTlv(path), ModeWire.slotField(0),
                pathTlv("/r/" + (++route)), Names.EMPTY_STATUS.copy()));
    }

    private int request(int peer, byte[] frame) {
        int sent = clients[0].sent().size();
        clients[0].inject(peer, frame);
        for (int i = 0; i < 100 && host.poll() + board.poll() > 0; i++) {
            host.tick();
            board.tick();
        }
        List<byte[]> out = clients[0].sent().subList(sent, clients[0].sent().size());
        ModeWire.Frame answer = new ModeWire.Frame(out.get(out.size() - 1));
        assertEquals(FwdView.OP_REPLY, answer.opcode);
        return answer.status;
    }

    private static byte[] pathTlv(String p) {
        NodePath n = NodePath.of(p);
        return Arrays.copyOf(n.tlv(), n.bodyOffset() + n.bodyLength());
    }
}
