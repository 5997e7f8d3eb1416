package io.spectrum.node;

import static io.spectrum.node.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.AccessPolicy;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The composed READ of a vertex with children (digest §6, §5.4): POINT{NAME leaf, [own value],
 * POINT per child in byte order}, pruning, $ names, backpressure, and leaves unchanged.
 */
class ComposedReadTest extends NodeHarness {
    static final NodePath SENSOR = NodePath.of("/sensor");
    // children below: deep (no value) { x = VALUE 3 }, hum = VALUE 2, temp = VALUE 1
    static final String X = "0740" + "0a00" + "0200010078" + "0100010003";                  // 14 B
    static final String DEEP = "0740" + "1600" + "0200040064656570" + X;                       // 26 B
    static final String HUM = "0740" + "0c00" + "02000300" + "68756d" + "0100010002";         // 16 B
    static final String TEMP = "0740" + "0d00" + "02000400" + "74656d70" + "0100010001";      // 17 B
    static final String NAME_SENSOR = "02000600" + "73656e736f72";                           // 10 B
    /** POINT{NAME sensor, POINT deep{POINT x}, POINT hum, POINT temp}: 10 + 26 + 16 + 17 = 69 = 0x45. */
    static final String SENSOR_TREE = "07404500" + NAME_SENSOR + DEEP + HUM + TEMP;

    @BeforeEach
    void tree() {
        // created out of byte order on purpose
        node.write(temp, Frames.value(1, 1), 0, 5);
        node.write(NodePath.of("/sensor/deep/x"), Frames.value(3, 1), 0, 5);
        node.write(NodePath.of("/sensor/hum"), Frames.value(2, 1), 0, 5);
    }

    static byte[] read(String path) {
        return Frames.fwd(0, NodePath.of(path).tlv(), null, Frames.REPLY_EP);
    }

    @Test
    void vertexWithChildren_answersTheComposedTree_byteForByte() {
        Frames.Reply r = request(read("/sensor"));
        assertEquals(io.spectrum.wire.FwdView.KIND_RESULT, r.kind);
        assertEquals(SENSOR_TREE, hex(r.payloadBytes()));
        assertEquals(TlvIndex.NONE, r.trailing, "the tree is the only payload");
        assertEquals(hex(Frames.REPLY_EP), hex(r.bytes(r.dst)), "routed back to the request's src");
        // a nested vertex with children but no value of its own: names, then its children
        assertEquals(DEEP, hex(request(read("/sensor/deep")).payloadBytes()));
    }

    @Test
    void ownValueFollowsTheName() {
        node.write(SENSOR, Frames.value(0x0102, 2), 0, 6);
        String body = NAME_SENSOR + "010002000201" + DEEP + HUM + TEMP; // 75 = 0x4b
        assertEquals("07404b00" + body, hex(request(read("/sensor")).payloadBytes()));
        assertEquals("010002000201", hex(readLocal(SENSOR)), "the local read stays the own value");
    }

    @Test
    void leafIsUnchanged_neverWrittenLeafAndAbsentAreNotFound() {
        assertEquals("0100010001", hex(request(read("/sensor/temp")).payloadBytes()));
        node.subscribe(NodePath.of("/sensor/quiet"), 0, (s, v, q, st) -> { }); // exists, never written
        assertEquals(WireError.PATH_NOT_FOUND, request(read("/sensor/quiet")).errorCode());
        assertEquals(WireError.PATH_NOT_FOUND, request(read("/nowhere")).errorCode());
        // the quiet child is listed by name only
        String quiet = "07400900" + "020005007175696574";
        assertEquals("07405200" + NAME_SENSOR + DEEP + HUM + quiet + TEMP, hex(request(read("/sensor")).payloadBytes()));
    }

    @Test
    void unreadableSubtreesArePruned_forThatCallerOnly() {
        NodeHarness h = new NodeHarness(c -> c.accessPolicy(new AccessPolicy() {
            @Override
            public boolean canRead(byte[] k, int o, int l, int linkId, int peer) {
                String key = new String(k, o, l, StandardCharsets.ISO_8859_1);
                return peer != OTHER_PEER || !(key.endsWith("hum") || key.endsWith("deep"));
            }
        }));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        h.node.write(NodePath.of("/sensor/deep/x"), Frames.value(3, 1), 0, 5);
        h.node.write(NodePath.of("/sensor/hum"), Frames.value(2, 1), 0, 5);
        assertEquals(SENSOR_TREE, hex(h.request(PEER, read("/sensor")).payloadBytes()));
        // deep is denied: its whole subtree goes, though x itself would be readable
        assertEquals("07401b00" + NAME_SENSOR + TEMP, hex(h.request(OTHER_PEER, read("/sensor")).payloadBytes()));
        assertEquals("0100010003", hex(h.request(OTHER_PEER, read("/sensor/deep/x")).payloadBytes()));
        assertEquals(WireError.ACCESS_DENIED, h.request(OTHER_PEER, read("/sensor/deep")).errorCode());
    }

    @Test
    void root_hasAnEmptyName_andDollarChildrenAreOmittedForRemoteCallers() {
        node.write(NodePath.of("/board/led"), Frames.value(0, 1), 0, 5);
        String led = "0740" + "0c00" + "02000300" + "6c6564" + "0100010000";            // 16 B
        String board = "0740" + "1900" + "02000500" + "626f617264" + led;                 // 29 B
        String sensor = "07404500" + NAME_SENSOR + DEEP + HUM + TEMP;                     // 73 B
        String remote = hex(request(read("/")).payloadBytes());
        assertEquals("0740" + "6a00" + "02000000" + board + sensor, remote); // 4 + 29 + 73 = 106
        Frames.Reply own = owner(read("/"));
        assertEquals("", names(own.frame, own.idx, own.payload).get(0), "root NAME is empty");
        assertEquals("[, $node, board, sensor]", names(own.frame, own.idx, own.payload).toString(),
                "the owner sees $ children");
        // /$node's only child is node-internal: to a remote caller it is a childless vertex with no value
        assertEquals(WireError.PATH_NOT_FOUND, request(read("/$node")).errorCode());
        Frames.Reply caps = owner(read("/$node"));
        assertEquals("[$node, caps]", names(caps.frame, caps.idx, caps.payload).toString());
    }

    @Test
    void localReadTree_isTheOwnersTree_andReadOfALeafIsUnchanged() {
        byte[] b = new byte[512];
        int n = node.readTree(SENSOR, b, 0, b.length);
        assertEquals(SENSOR_TREE, hex(java.util.Arrays.copyOf(b, n)));
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(SENSOR, b, 0, b.length), "read keeps the own value");
        n = node.readTree(temp, b, 0, b.length);
        assertEquals("0100010001", hex(java.util.Arrays.copyOf(b, n)));
        assertEquals(-WireError.PATH_NOT_FOUND, node.readTree(NodePath.of("/nowhere"), b, 0, b.length));
        assertEquals(-WireError.FLOW_BACKPRESSURE, node.readTree(SENSOR, b, 0, 40));
        n = node.readTree(NodePath.of("/"), b, 0, b.length);
        assertTrue(hex(java.util.Arrays.copyOf(b, n)).startsWith("0740"), "root tree");
    }

    @Test
    void treeLargerThanTheFrameBuffer_isBackpressure_andTheNodeKeepsServing() {
        NodeHarness h = new NodeHarness(c -> c.frameBytes(128));
        for (int i = 0; i < 8; i++) {
            h.node.write(NodePath.of("/many/child-" + i), Frames.value(i, 4), 0, 8);
        }
        assertEquals(WireError.FLOW_BACKPRESSURE, h.request(PEER, read("/many")).errorCode());
        assertEquals("0100040005000000", hex(h.request(PEER, read("/many/child-5")).payloadBytes()), "a leaf still answers");
        for (int i = 1; i < 8; i++) {
            h.narrow().retire(NodePath.of("/many/child-" + i));
        }
        assertEquals(io.spectrum.wire.FwdView.KIND_RESULT, h.request(PEER, read("/many")).kind, "fits again");
    }

    @Test
    void deepestTreeTheKeyLimitAllows_isWrittenWholly() {
        StringBuilder p = new StringBuilder();
        for (int i = 0; i < config.maxKeyBytes() / 2; i++) {
            p.append("/d");
        }
        assertEquals(WireError.OK, node.write(NodePath.of(p.toString()), Frames.value(9, 1), 0, 5));
        byte[] b = new byte[4096];
        int n = node.readTree(NodePath.of("/d"), b, 0, b.length);
        assertTrue(n > 0, "written: " + n);
        TlvIndex x = new TlvIndex(1024, 64);
        assertEquals(WireError.OK, new FrameDecoder().decode(b, 0, n, x));
        int depth = 0;
        for (int e = 0; e != TlvIndex.NONE; e = x.findSibling(x.firstChild(e), TlvType.POINT)) {
            depth++;
        }
        assertEquals(config.maxKeyBytes() / 2, depth, "one POINT per level");
        java.util.List<byte[]> out = exchange(PEER, read("/d")); // remote: FWD + the same 32 levels
        assertEquals(1, out.size());
        TlvIndex y = new TlvIndex(1024, 64);
        assertEquals(WireError.OK, new FrameDecoder().decode(out.get(0), 0, out.get(0).length, y));
        assertEquals(n, y.totalLength(y.nextSibling(y.child(0, 3))), "RESULT kind, then the tree");
    }

    private byte[] readLocal(NodePath p) {
        byte[] b = new byte[64];
        int n = node.read(p, b, 0, b.length);
        return java.util.Arrays.copyOf(b, Math.max(0, n));
    }

    /** The NAMEs of a POINT and of its direct child POINTs, in order. */
    static java.util.List<String> names(byte[] f, TlvIndex x, int point) {
        java.util.List<String> out = new java.util.ArrayList<>();
        out.add(name(f, x, point));
        for (int c = x.firstChild(point); c != TlvIndex.NONE; c = x.nextSibling(c)) {
            if (x.type(c) == TlvType.POINT) {
                out.add(name(f, x, c));
            }
        }
        return out;
    }

    private static String name(byte[] f, TlvIndex x, int point) {
        int n = x.firstChild(point);
        assertEquals(TlvType.NAME, x.type(n), "NAME first");
        return new String(f, x.bodyOffset(n), x.bodyLength(n), StandardCharsets.UTF_8);
    }
}
