package io.spectrum.host.runtime;

import io.spectrum.client.Requests;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One declaration cache: a client's READ of a board vertex's {@code :settings.app} through the host
 * is answered from the host's copy of the board's declaration while the host holds a current one,
 * byte for byte what the board answers, and the board is not asked; without a current copy (none
 * read yet, an undeclared vertex, the board gone or restarted and not read again yet) it is
 * forwarded as before. Host on a {@link ManualClock}, its loop on the test's thread, the board a
 * NARROW node polled by the test, every link a {@link MemoryLink}.
 */
class HostDeclarationsTest {
    /** The marker in the clients' reply routes: a board-bound frame carrying it is a client's request. */
    private static final String MARK = "zq7";
    private static final VertexSchema CELSIUS = VertexSchema.value(2, true).unit("Cel").scale(0.01)
            .description("the shed").readOnly().build();
    private static final VertexSchema KELVIN = VertexSchema.value(2, true).unit("K").scale(0.01).offset(273.15)
            .readOnly().build();
    private static final List<String> FIELDS = List.of("settings.app", "settings.app.unit", "settings.app.scale",
            "settings.app.type", "settings.app.rights", "settings.app.description", "settings.app.nokey");

    private final ManualClock clock = new ManualClock(1_000_000_000L);
    private final List<AutoCloseable> closing = new ArrayList<>();
    private HostRuntime host;
    private IntSupplier cycle;
    private MemoryLink toBoard;
    private MemoryLink boardEnd;
    private MemoryLink client;
    private MemoryLink direct;
    private NarrowNode board;
    private int next;
    /** The board is away: nothing polls it. */
    private boolean away;
    private final java.util.Map<MemoryLink, java.util.ArrayDeque<String>> replies = new java.util.HashMap<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    /** A board declaring /sensor/temp as {@code temp}, with /plain undeclared and /secret declared without READ. */
    private NarrowNode board(VertexSchema temp) {
        NarrowNode b = new NarrowNode(NodeConfig.builder().clock(clock).build());
        closing.add(b::close);
        assertEquals(WireError.OK, b.declare(NodePath.of("/sensor/temp"), temp));
        assertEquals(WireError.OK, b.declare(NodePath.of("/secret"),
                VertexSchema.value(1, false).rights(AccessMask.WRITE).build()));
        byte[] t = value(2328, 2);
        byte[] p = value(7, 2);
        assertEquals(WireError.OK, b.write(NodePath.of("/sensor/temp"), t, 0, t.length));
        assertEquals(WireError.OK, b.write(NodePath.of("/plain"), p, 0, p.length));
        return b;
    }

    /** The board, the host mounting it as /board1 and following /board1/sensor/temp, a client of the host. */
    private void start() {
        MemoryLink[] b = MemoryLink.pair();
        toBoard = b[0];
        boardEnd = b[1];
        board = board(CELSIUS);
        assertEquals(WireError.OK, board.attach(boardEnd));
        MemoryLink[] d = MemoryLink.pair(); // the test asks the board itself over this one
        direct = d[0];
        assertEquals(WireError.OK, board.attach(d[1]));
        host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(clock).build()));
        closing.add(host::close);
        cycle = host.startOnCallerThread();
        host.mount(toBoard, "board1", List.of());
        MemoryLink[] c = MemoryLink.pair();
        client = c[1];
        host.attachListener(c[0]);
        toBoard.peerUp(0);
        c[0].peerUp(0);
        host.watch("/board1/sensor/temp", "test", null);
        settle();
    }

    static byte[] value(long v, int width) {
        byte[] out = new byte[16];
        TlvWriter w = new TlvWriter().wrap(out, 0, out.length);
        w.value(v, width);
        return java.util.Arrays.copyOf(out, w.length());
    }

    /** Runs host and board until neither has anything left to do at this instant, then steps the clock. */
    private void settle() {
        for (int round = 0; round < 20; round++) {
            clock.advanceMillis(100);
            int work = 0;
            for (int i = 0; i < 50; i++) {
                int w = cycle.getAsInt() + (away ? 0 : board.poll());
                work += w;
                if (w == 0) {
                    break;
                }
            }
            if (work == 0 && round > 3) {
                return;
            }
        }
    }

    /** Client READs of {@code :settings…} the host sent on towards the board so far. */
    private int boardAsked() {
        int n = 0;
        for (byte[] f : toBoard.sent()) {
            String s = new String(f, StandardCharsets.ISO_8859_1);
            if ("READ".equals(FwdView.opName(FwdView.peekOpcode(f, 0, f.length))) && s.contains(MARK)) {
                n++;
            }
        }
        return n;
    }

    /** Sends a READ of {@code path:field} on {@code link} to peer 0; its reply comes to the returned route. */
    private String send(MemoryLink link, String path, String field) {
        String route = "/" + MARK + "/" + (next++);
        byte[] frame = Requests.fwd(FwdView.OP_READ, Requests.path(path), Requests.field(field), Requests.path(route));
        assertEquals(WireError.OK, link.send(0, frame, 0, frame.length));
        return route;
    }

    /**
     * The next answer that arrived on {@code link}: its kind and payload TLV in hex, or null when none
     * came. Requests the host sends its client (its liveness probe) are not answers.
     */
    private String answer(MemoryLink link) {
        java.util.ArrayDeque<String> q = replies.computeIfAbsent(link, k -> new java.util.ArrayDeque<>());
        link.poll((l, peer, buf, off, len) -> {
            TlvIndex x = new TlvIndex();
            assertEquals(WireError.OK, new FrameDecoder().decode(buf, off, len, x));
            FwdView v = new FwdView();
            assertEquals(WireError.OK, v.wrap(x, 0));
            if (v.opcode() != FwdView.OP_REPLY) {
                return;
            }
            int p = v.payload();
            q.add((v.kind() == FwdView.KIND_ERROR ? "ERROR " : "RESULT ")
                    + (p == TlvIndex.NONE ? "-" : HexFormat.of().formatHex(buf, x.start(p), x.start(p) + x.totalLength(p))));
        }, 64);
        return q.poll();
    }

    /** What the client gets through the host for {@code path:field}, running host and board meanwhile. */
    private String throughHost(String path, String field) {
        send(client, path, field);
        settle();
        String a = answer(client);
        assertNotNull(a, "an answer through the host to " + path + ":" + field);
        return a;
    }

    /** What the board itself answers to the same READ. */
    private String fromBoard(String path, String field) {
        send(direct, path, field);
        board.poll();
        String a = answer(direct);
        assertNotNull(a, "the board's own answer to " + path + ":" + field);
        return a;
    }

    @Test
    void aHeldDeclarationIsAnsweredByTheHost_byteForByteTheBoards_andTheBoardIsNotAsked() {
        start();
        assertEquals("Cel", host.declaration("/board1/sensor/temp").unit(), "the host read the board's declaration");
        int before = boardAsked();
        for (String f : FIELDS) {
            assertEquals(fromBoard("/sensor/temp", f), throughHost("/board1/sensor/temp", f), ":" + f);
        }
        assertEquals(before, boardAsked(), "every :settings.app read was answered by the host");
        assertTrue(throughHost("/board1/sensor/temp", "settings.app").startsWith("RESULT "));
        assertTrue(throughHost("/board1/sensor/temp", "settings.app.nokey")
                .startsWith("ERROR "), "a key the declaration lacks: the board's refusal, from the host's copy");
    }

    @Test
    void whatTheHostHoldsNoCurrentCopyOfIsForwarded_theBoardAnswers() {
        start();
        int before = boardAsked();
        // undeclared on the board, declared without READ, never followed by the host; and the node-level fields
        assertEquals(fromBoard("/plain", "settings.app"), throughHost("/board1/plain", "settings.app"));
        assertEquals(fromBoard("/secret", "settings.app"), throughHost("/board1/secret", "settings.app"));
        assertEquals(fromBoard("/sensor/temp", "settings"), throughHost("/board1/sensor/temp", "settings"));
        assertEquals(fromBoard("/sensor/temp", "schema"), throughHost("/board1/sensor/temp", "schema"));
        assertEquals(before + 4, boardAsked(), "each of them was forwarded to the board");
        assertTrue(throughHost("/board1/secret", "settings.app").startsWith("ERROR "), "no READ right: the board's refusal");
    }

    @Test
    void beforeTheHostReadTheDeclaration_theReadIsForwarded() {
        MemoryLink[] b = MemoryLink.pair();
        toBoard = b[0];
        board = board(CELSIUS);
        assertEquals(WireError.OK, board.attach(b[1]));
        host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(clock).build()));
        closing.add(host::close);
        cycle = host.startOnCallerThread();
        host.mount(toBoard, "board1", List.of());
        MemoryLink[] c = MemoryLink.pair();
        client = c[1];
        host.attachListener(c[0]);
        // nobody follows /board1/sensor/temp: the host has read no declaration of it
        assertEquals(null, host.declaration("/board1/sensor/temp"));
        int before = boardAsked();
        String a = throughHost("/board1/sensor/temp", "settings.app");
        assertEquals(before + 1, boardAsked(), "forwarded");
        assertTrue(a.startsWith("RESULT "), a);
    }

    @Test
    void aBoardThatRestartsWithANewDeclaration_isAskedUntilTheHostReadItAgain_thenTheNewCopyAnswers() {
        start();
        String celsius = fromBoard("/sensor/temp", "settings.app");
        assertEquals(celsius, throughHost("/board1/sensor/temp", "settings.app"));
        int held = boardAsked();

        // the board goes away: the host's copy is no longer current, a client's read is forwarded
        toBoard.peerDown(0);
        away = true;
        settle();
        assertEquals("Cel", host.declaration("/board1/sensor/temp").unit(), "the host's views keep the last declaration");
        assertEquals("Cel", host.boardDeclarations().apply("/board1/sensor/temp").unit(),
                "and so does a client in the host's process, which renders the same stale values");
        send(client, "/board1/sensor/temp", "settings.app");
        settle();
        assertEquals(held + 1, boardAsked(), "forwarded while the board is away: the copy is not answered as current; "
                + answer(client));
        assertEquals(null, answer(client), "nobody answers for the board that is away");

        // it comes back restarted, declaring Kelvin; the first read is forwarded and gets the new declaration
        board = board(KELVIN);
        away = false;
        assertEquals(WireError.OK, board.attach(boardEnd));
        MemoryLink[] d = MemoryLink.pair();
        direct = d[0];
        assertEquals(WireError.OK, board.attach(d[1]));
        String kelvin = fromBoard("/sensor/temp", "settings.app");
        assertNotEquals(celsius, kelvin);
        send(client, "/board1/sensor/temp", "settings.app");
        cycle.getAsInt(); // forwarded before the host's own read of the declaration was answered
        assertEquals(held + 2, boardAsked());
        toBoard.peerUp(0);
        settle();
        List<String> got = new ArrayList<>();
        for (String a = answer(client); a != null; a = answer(client)) {
            got.add(a);
        }
        assertEquals(List.of(kelvin, kelvin), got, "both reads (the one sent while the board was away too) get the "
                + "restarted board's declaration, never the old copy");
        assertEquals("K", host.declaration("/board1/sensor/temp").unit(), "the host read it again");

        // now the host holds the new copy: answered here again
        int now = boardAsked();
        assertEquals(kelvin, throughHost("/board1/sensor/temp", "settings.app"));
        assertEquals(fromBoard("/sensor/temp", "settings.app.unit"), throughHost("/board1/sensor/temp", "settings.app.unit"));
        assertEquals(now, boardAsked(), "the new copy answers; the board is not asked");
        assertEquals("K", host.boardDeclarations().apply("/board1/sensor/temp").unit(), "replaced for the bridge too");
    }

    @Test
    void aClientInTheHostsProcess_takesTheHostsCopy_withoutAskingOverItsLink() {
        start();
        MemoryLink door = new MemoryLink(9); // nothing answers on it: a read over it would time out
        io.spectrum.client.PeerClient bridge = new io.spectrum.client.PeerClient(door, 0, java.time.Duration.ofMillis(1))
                .declarationsFrom(host.boardDeclarations());
        VertexSchema d = bridge.declaration("/board1/sensor/temp");
        assertNotNull(d, "the host's copy");
        assertEquals(CELSIUS.toString(), d.toString());
        assertEquals(0, door.sentCount(), "no READ over the client's link");
        assertEquals(null, host.boardDeclarations().apply("/board1/plain"), "not followed, undeclared: the host holds none");

        toBoard.peerDown(0); // the board goes away: its last values stay, stale, and render by the kept copy
        away = true;
        settle();
        assertEquals(CELSIUS.toString(), bridge.declaration("/board1/sensor/temp").toString());
        assertEquals(0, door.sentCount());
    }
}
