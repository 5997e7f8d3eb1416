package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.stats.BoundedResource;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A refused request changes nothing, on either core and through the router (docs/security.md,
 * "What a peer that can reach the port can do"): a host (WIDE, serving the subscriptions under its
 * mount, remote writes to undeclared vertices on) with a board (NARROW) mounted as {@code /board1}
 * over an in-memory link, clients on the host's listener mount and peers straight at the board.
 * Thousands of random well-formed requests that must be refused (random new and long paths,
 * malformed SUBSCRIBER records, over-limit delivery modes, writes to {@code $} names and to the
 * root, oversized and mistyped payloads, appends beyond a full slot share or a full share of the
 * vertices a client's appends under the mount created, AWAITs beyond a full await share, generation-guarded writes to missing slots, ...) each get one ERROR answer, and after
 * each one every table of both nodes (vertices, edges / slots, values, records, awaits, links,
 * remote requests, announced peers, shares, mounts, routed peers) has the inUse it had before.
 */
class RefusedRequestsChangeNothingTest {
    private static final int REQUESTS = 3000;
    private final ManualClock clock = new ManualClock(0);
    private NarrowNode board;
    private WideNode host;
    /** host end [0] to the clients; board end [0] to its direct peers. */
    private MemoryLink[] clients;
    private MemoryLink[] direct;
    private MemoryLink[] mount;
    private int route;

    @BeforeEach
    void hostWithABoardAndPeers() {
        board = new NarrowNode(NodeConfig.builder().clock(clock).slotsPerPeer(2).awaitsPerPeer(1).maxVertices(64)
                .build());
        board.declare(NodePath.of("/board/led"), VertexSchema.value(1, false).range(0, 1).writable().build());
        board.declare(NodePath.of("/board/temp"), VertexSchema.value(2, true).readOnly().build());
        assertEquals(WireError.OK, write(board, "/board/temp", Tlv.value(215, 2)));
        host = new WideNode(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true)
                .serveSubscriptionsUnderMounts(true).maxMounts(4).maxVertices(512).maxSubscribers(512)
                .maxKeyBytes(128).slotsPerPeer(2).awaitsPerPeer(1).verticesPerPeer(3).frameBytes(16 * 1024).build());
        assertEquals(WireError.OK, write(host, "/local/x", Tlv.value(1, 4)));

        mount = MemoryLink.pair();
        assertEquals(WireError.OK, host.attach(mount[0]));
        assertEquals(WireError.OK, board.attach(mount[1]));
        assertEquals(WireError.OK, host.mount("board1", mount[0], 0));
        clients = MemoryLink.pair();
        assertEquals(WireError.OK, host.attach(clients[0]));
        assertEquals(WireError.OK, host.mountListener("clients", clients[0]));
        direct = MemoryLink.pair();
        assertEquals(WireError.OK, board.attach(direct[0]));
        host.tick();
        board.tick(); // the first tick writes /$node/stats; the clock stands still from here

        // legitimate state: client 1's and direct peer 1's slot shares full, client 2's and direct
        // peer 2's await shares full, client 3 with one slot, client 4's vertex share full (its one
        // append under the mount created three vertices)
        ok(clients[0], 1, fwd(FwdView.OP_WRITE, "/board1/board/temp", appendField(), subscriber("/in/1/a")));
        ok(clients[0], 1, fwd(FwdView.OP_WRITE, "/local/x", appendField(), subscriber("/in/1/b")));
        ok(clients[0], 3, fwd(FwdView.OP_WRITE, "/board1/board/led", appendField(), subscriber("/in/3")));
        held(clients[0], 2, fwd(FwdView.OP_AWAIT, "/local/x", null, null));
        ok(clients[0], 4, fwd(FwdView.OP_WRITE, "/board1/v4/a/b", appendField(), subscriber("/in/4")));
        for (int peer = 1; peer <= 4; peer++) { // each client's return route through the router
            ok(clients[0], peer, fwd(FwdView.OP_READ, "/board1/board/temp", null, null));
        }
        ok(direct[0], 1, fwd(FwdView.OP_WRITE, "/board/temp", appendField(), subscriber("/in/d/a")));
        ok(direct[0], 1, fwd(FwdView.OP_WRITE, "/board/led", appendField(), subscriber("/in/d/b")));
        // a forwarded AWAIT, answered
        held(clients[0], 3, fwd(FwdView.OP_AWAIT, "/board1/board/temp", null, null));
        assertEquals(WireError.OK, write(board, "/board/temp", Tlv.value(216, 2)));
        int answered = clients[0].sent().size();
        pump();
        assertEquals(answered + 1, clients[0].sent().size(), "the forwarded AWAIT is answered");
        held(direct[0], 2, fwd(FwdView.OP_AWAIT, "/board/temp", null, null));
        ok(direct[0], 3, fwd(FwdView.OP_READ, "/board/temp", null, null));
    }

    @Test
    void everyRefusedRequestLeavesEveryTableOfBothCoresAsItWas() {
        final Map<String, Long> before = tables();
        final Random rnd = new Random(20261203L);
        final List<String> kinds = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            Request r = next(rnd);
            int sent = r.link.sent().size();
            r.link.inject(r.peer, r.frame);
            pump();
            List<byte[]> out = r.link.sent().subList(sent, r.link.sent().size());
            assertEquals(1, out.size(), r.what + ": one answer");
            ModeWire.Frame answer = new ModeWire.Frame(out.get(0));
            assertTrue(answer.opcode == FwdView.OP_REPLY && answer.status != WireError.OK,
                    r.what + ": refused, answered " + answer);
            assertEquals(before, tables(), r.what + " (" + WireError.identity(answer.status) + ") changed a table");
            if (!kinds.contains(r.kind)) {
                kinds.add(r.kind);
            }
        }
        assertEquals(17, kinds.size(), "every kind of request was tried: " + kinds);
    }

    // ------------------------------------------------------------------ the requests

    private record Request(String kind, String what, MemoryLink link, int peer, byte[] frame) {
    }

    private static final int KINDS = 14;

    private Request next(Random rnd) {
        final boolean viaHost = rnd.nextInt(3) > 0;
        final MemoryLink link = viaHost ? clients[0] : direct[0];
        final String board = viaHost ? "/board1" : "";
        final String anywhere = switch (rnd.nextInt(4)) {
            case 0 -> board + randomPath(rnd);
            case 1 -> board + "/board" + randomPath(rnd);
            case 2 -> viaHost ? "/local" + randomPath(rnd) : "/board/led" + randomPath(rnd);
            default -> viaHost && rnd.nextBoolean() ? randomPath(rnd) : board + "/board/temp";
        };
        final int kind = rnd.nextInt(KINDS);
        final int peer = 1 + rnd.nextInt(3);
        switch (kind) {
            case 0: // a SUBSCRIBER without its target
                return req("targetless SUBSCRIBER", link, peer, fwd(FwdView.OP_WRITE, anywhere, appendField(),
                        targetless()));
            case 1: // an append beyond a full slot share (peer 1's is full on both nodes)
                return req("append beyond the share", link, 1, fwd(FwdView.OP_WRITE, viaHost
                        ? board + randomPath(rnd) : (rnd.nextBoolean() ? "/board/temp" : "/board/led"), appendField(),
                        subscriber("/in/more" + rnd.nextInt(1000))));
            case 2: { // a delivery mode beyond its limits (a NARROW core has no modes: there, a path that is not)
                String at = viaHost ? board + randomPath(rnd) : "/board" + randomPath(rnd);
                ModeWire.Pair[] over = rnd.nextBoolean()
                        ? new ModeWire.Pair[] {ModeWire.mode(2), ModeWire.queue(10_000)}
                        : new ModeWire.Pair[] {ModeWire.mode(7 + rnd.nextInt(100))};
                return req("over-limit mode", link, 3, fwd(FwdView.OP_WRITE, at, appendField(),
                        ModeWire.record(path("/in/m"), over)));
            }
            case 3: // a value to a $ name
                return req("write to $", link, peer, fwd(FwdView.OP_WRITE, (viaHost && rnd.nextBoolean() ? "" : board)
                        + (rnd.nextBoolean() ? "/$node/caps" : "/$node/stats" + randomPath(rnd)), null,
                        Tlv.value(rnd.nextInt(), 4)));
            case 4: // an oversized value to a declared u8, or past the host's frame
                return rnd.nextBoolean()
                        ? req("oversized value", link, peer, fwd(FwdView.OP_WRITE, board + "/board/led", null,
                                Tlv.blob(64 + rnd.nextInt(900))))
                        : req("value past the frame", clients[0], peer, fwd(FwdView.OP_WRITE, "/local/x", null,
                                Tlv.blob(16 * 1024 + rnd.nextInt(4096))));
            case 5: // a value a declaration refuses (read-only, out of range)
                return req("declared refusal", link, peer, fwd(FwdView.OP_WRITE, board
                        + (rnd.nextBoolean() ? "/board/temp" : "/board/led"), null,
                        rnd.nextBoolean() ? Tlv.value(1, 2) : Tlv.value(2 + rnd.nextInt(200), 1)));
            case 6: // a generation-guarded write to a missing slot
                return req("guarded write to a missing slot", link, peer, fwd(FwdView.OP_WRITE, anywhere,
                        slotField(3 + rnd.nextInt(60), 1 + rnd.nextInt(50)), emptyStatus()));
            case 7: // a remote write never creates
                return req("write to a new path", link, peer, fwd(FwdView.OP_WRITE, board + "/new" + randomPath(rnd),
                        null, Tlv.value(rnd.nextInt(), 4)));
            case 8: // nobody but the owner writes the root
                return req("write to /", viaHost ? clients[0] : direct[0], peer, fwd(FwdView.OP_WRITE, "/", null,
                        Tlv.value(rnd.nextInt(), 4)));
            case 9: // an AWAIT beyond a full await share (peer 2's is full on both nodes)
                return req("AWAIT beyond the share", link, 2, fwd(FwdView.OP_AWAIT, viaHost ? "/local/x" : "/board/temp",
                        null, null));
            case 10: // an AWAIT with a field, or on a missing path
                return rnd.nextBoolean()
                        ? req("AWAIT with a field", link, peer, fwd(FwdView.OP_AWAIT, anywhere, appendField(), null))
                        : req("AWAIT on a missing path", link, peer, fwd(FwdView.OP_AWAIT, board + "/new" + randomPath(rnd),
                                null, null));
            case 13: // an append under the mount beyond a full vertex share (client 4's), its slot share not full
                return req("append beyond the vertex share", clients[0], 4, fwd(FwdView.OP_WRITE,
                        "/board1/v4/" + (char) ('c' + rnd.nextInt(20)) + randomPath(rnd), appendField(),
                        subscriber("/in/v" + rnd.nextInt(1000))));
            case 11: // :children has no write meaning; an unknown field
                return req("write to :children", link, peer, fwd(FwdView.OP_WRITE, rnd.nextBoolean() ? anywhere
                        : board + "/board/temp", children(), Tlv.value(1, 1)));
            default: // a value that is no SUBSCRIBER appended; [*] on a write
                return rnd.nextBoolean()
                        ? req("VALUE appended", link, peer, fwd(FwdView.OP_WRITE, anywhere, appendField(), Tlv.value(7, 4)))
                        : req("wildcard write", link, peer, fwd(FwdView.OP_WRITE, anywhere, wildcardField(), emptyStatus()));
        }
    }

    private static Request req(String kind, MemoryLink link, int peer, byte[] frame) {
        return new Request(kind, kind + " from peer " + peer + " at " + link.name(), link, peer, frame);
    }

    /** 1..8 segments of 1..24 letters: new paths, some long (past the host's 128-byte keys). */
    private static String randomPath(Random rnd) {
        StringBuilder s = new StringBuilder();
        int depth = 1 + rnd.nextInt(8);
        for (int i = 0; i < depth; i++) {
            s.append('/');
            int n = 1 + rnd.nextInt(24);
            for (int j = 0; j < n; j++) {
                s.append((char) ('a' + rnd.nextInt(26)));
            }
        }
        return s.toString();
    }

    // ------------------------------------------------------------------ harness

    /** name -> inUse of every table of both nodes. */
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

    private void ok(MemoryLink link, int peer, byte[] frame) {
        int sent = link.sent().size();
        link.inject(peer, frame);
        pump();
        ModeWire.Frame a = new ModeWire.Frame(link.sent().get(link.sent().size() - 1));
        assertTrue(link.sent().size() > sent && a.opcode == FwdView.OP_REPLY && a.status == WireError.OK, a.toString());
    }

    private void held(MemoryLink link, int peer, byte[] frame) {
        int sent = link.sent().size();
        link.inject(peer, frame);
        pump();
        assertEquals(sent, link.sent().size(), "the AWAIT is held, unanswered");
    }

    private static int write(Node n, String path, byte[] tlv) {
        return n.write(NodePath.of(path), tlv, 0, tlv.length);
    }

    /** FWD{VALUE u8 op, dst, [field], src (a fresh route), [payload]}. */
    private byte[] fwd(int op, String dst, byte[] field, byte[] payload) {
        byte[] b = new byte[32 * 1024];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(op, 1).raw(path(dst));
        if (field != null) {
            w.raw(field);
        }
        w.raw(path("/r/" + (++route)));
        if (payload != null) {
            w.raw(payload);
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

    private static byte[] appendField() {
        return ModeWire.appendField();
    }

    private static byte[] slotField(int n, long gen) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD);
        FieldView.element(w, Names.SUBSCRIBERS, n, gen).end();
        return Arrays.copyOf(b, w.length());
    }

    private static byte[] wildcardField() {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD);
        w.leaf(TlvType.NAME, Names.SUBSCRIBERS).value(FieldView.MODE_WILDCARD, 1).end();
        return Arrays.copyOf(b, w.length());
    }

    private static byte[] children() {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD);
        FieldView.element(w, Names.CHILDREN, -1, -1).end();
        return Arrays.copyOf(b, w.length());
    }

    private static byte[] targetless() {
        byte[] b = new byte[32];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.SUBSCRIBER).value(1, 4).end();
        return Arrays.copyOf(b, w.length());
    }

    private static byte[] emptyStatus() {
        return Names.EMPTY_STATUS.copy();
    }
}
