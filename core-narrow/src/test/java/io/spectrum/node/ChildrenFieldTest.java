package io.spectrum.node;

import static io.spectrum.node.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.node.api.AccessPolicy;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** READ {@code :children[]} (digest §5.4): the listing, its order, visibility, gate and refusals. */
class ChildrenFieldTest extends NodeHarness {
    static final byte[] EP = NodePath.of("/client/ep").tlv();
    /** POINT{ POINT{NAME "hum"} POINT{NAME "temp"} }. */
    static final String HUM_TEMP = "07401700" + "07400700" + "02000300" + "68756d" + "07400800" + "02000400" + "74656d70";

    @BeforeEach
    void tree() {
        // created out of order on purpose: the listing is in byte order of the names
        node.write(temp, Frames.value(1, 1), 0, 5);
        node.write(NodePath.of("/sensor/hum"), Frames.value(2, 1), 0, 5);
        node.write(NodePath.of("/board/led"), Frames.value(0, 1), 0, 5);
    }

    static byte[] childrenField(boolean list) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD).leaf(TlvType.NAME, "children".getBytes());
        if (list) {
            w.value(1, 1);
        }
        w.end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    static byte[] readChildren(String path, boolean list) {
        return Frames.fwd(0, NodePath.of(path).tlv(), childrenField(list), EP);
    }

    /** The child names in the listing, in order ("|"-joined), checking the exact shape on the way. */
    static String names(Frames.Reply r) {
        assertEquals(0, r.kind, "RESULT");
        var x = r.idx;
        assertEquals(TlvType.POINT, x.type(r.payload));
        StringBuilder sb = new StringBuilder();
        for (int p = x.firstChild(r.payload); p != -1; p = x.nextSibling(p)) {
            assertEquals(TlvType.POINT, x.type(p));
            int n = x.firstChild(p);
            assertEquals(TlvType.NAME, x.type(n));
            assertEquals(-1, x.nextSibling(n), "POINT{NAME seg} only");
            sb.append(sb.length() == 0 ? "" : "|")
                    .append(new String(r.frame, x.bodyOffset(n), x.bodyLength(n), java.nio.charset.StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    @Test
    void listOfASmallTree_isByteForByte_andTheScalarSpellingAnswersTheSame() {
        Frames.Reply list = request(readChildren("/sensor", true));
        assertEquals(0, list.kind);
        assertEquals(HUM_TEMP, hex(list.payloadBytes()));
        assertEquals(hex(EP), hex(list.bytes(list.dst)), "routed back to the request's src");
        assertEquals(HUM_TEMP, hex(request(readChildren("/sensor", false)).payloadBytes()));
    }

    @Test
    void leafListsNothing_absentVertexIsNotFound() {
        assertEquals("07400000", hex(request(readChildren("/sensor/temp", true)).payloadBytes()));
        assertEquals(WireError.PATH_NOT_FOUND, request(readChildren("/nowhere", true)).errorCode());
    }

    @Test
    void rootListing_hidesDollarNamesFromRemoteCallers_butTheOwnerSeesThem() {
        assertEquals("board|sensor", names(request(readChildren("/", true))));
        assertEquals("$node|board|sensor", names(owner(readChildren("/", true))));
        assertEquals("", names(request(readChildren("/$node", true))), "caps is node-internal");
        assertEquals("caps", names(owner(readChildren("/$node", true))));
    }

    @Test
    void orderIsByteOrderOfNames_notCreationOrder() {
        for (String s : new String[] {"b", "ab", "a", "B", "c"}) {
            node.write(NodePath.of("/o/" + s), Frames.value(0, 1), 0, 5);
        }
        assertEquals("B|a|ab|b|c", names(request(readChildren("/o", true))));
        assertEquals(WireError.OK, narrow().retire(NodePath.of("/o/a")));
        node.write(NodePath.of("/o/a"), Frames.value(0, 1), 0, 5);
        assertEquals("B|a|ab|b|c", names(request(readChildren("/o", true))), "re-created: same place");
    }

    @Test
    void retiredVertexVanishes() {
        assertEquals(WireError.OK, narrow().retire(NodePath.of("/sensor/hum")));
        assertEquals("temp", names(request(readChildren("/sensor", true))));
        assertEquals(WireError.OK, narrow().retire(temp));
        assertEquals("07400000", hex(request(readChildren("/sensor", true)).payloadBytes()));
    }

    @Test
    void readGate_onTheVertex_andUnreadableChildrenArePruned() {
        NodeHarness h = new NodeHarness(c -> c.accessPolicy(new AccessPolicy() {
            @Override
            public boolean canRead(byte[] k, int o, int l, int linkId, int peer) {
                String key = new String(k, o, l, java.nio.charset.StandardCharsets.ISO_8859_1);
                return peer != OTHER_PEER || !key.contains("hum");
            }
        }));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        h.node.write(NodePath.of("/sensor/hum"), Frames.value(1, 1), 0, 5);
        h.node.write(NodePath.of("/hum/x"), Frames.value(1, 1), 0, 5);
        assertEquals("hum|temp", names(h.request(PEER, readChildren("/sensor", true))));
        assertEquals("temp", names(h.request(OTHER_PEER, readChildren("/sensor", true))), "denied child pruned");
        assertEquals(WireError.ACCESS_DENIED, h.request(OTHER_PEER, readChildren("/hum", true)).errorCode());
    }

    @Test
    void writeHasNoMeaning_typeMismatch_andChangesNothing() {
        byte[] w = Frames.fwd(1, NodePath.of("/sensor").tlv(), childrenField(true), EP, Frames.value(1, 1));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, request(w).errorCode());
        byte[] absent = Frames.fwd(1, NodePath.of("/nowhere").tlv(), childrenField(false), EP, Frames.value(1, 1));
        assertEquals(WireError.PATH_NOT_FOUND, request(absent).errorCode());
        assertEquals(HUM_TEMP, hex(request(readChildren("/sensor", true)).payloadBytes()));
    }

    @Test
    void indexOrSubFieldIsSchemaNotFound_wildcardIsPathInvalid() {
        byte[] indexed = Frames.fwd(0, NodePath.of("/sensor").tlv(), subsLike("children", 0, 1), EP);
        assertEquals(WireError.SCHEMA_NOT_FOUND, request(indexed).errorCode());
        byte[] sub = Frames.fwd(0, NodePath.of("/sensor").tlv(), Frames.field("children", "x"), EP);
        assertEquals(WireError.SCHEMA_NOT_FOUND, request(sub).errorCode());
        byte[] wild = Frames.fwd(0, NodePath.of("/sensor").tlv(), subsLike("children", -1, 2), EP);
        assertEquals(WireError.PATH_INVALID, request(wild).errorCode());
    }

    @Test
    void emptySrcReadIsDropped() {
        assertEquals(0, exchange(PEER, Frames.fwd(0, NodePath.of("/sensor").tlv(), childrenField(true), Frames.EMPTY_PATH)).size());
    }

    @Test
    void listingLargerThanTheFrameBuffer_isBackpressure() {
        NodeHarness h = new NodeHarness(c -> c.frameBytes(128));
        for (int i = 0; i < 8; i++) {
            h.node.write(NodePath.of("/many/child-with-a-long-name-" + i), Frames.value(i, 1), 0, 5);
        }
        assertEquals(WireError.FLOW_BACKPRESSURE, h.request(PEER, readChildren("/many", true)).errorCode());
        h.narrow().retire(NodePath.of("/many/child-with-a-long-name-0"));
        for (int i = 1; i < 7; i++) {
            h.narrow().retire(NodePath.of("/many/child-with-a-long-name-" + i));
        }
        assertEquals("child-with-a-long-name-7", names(h.request(PEER, readChildren("/many", true))));
    }

    /** FIELD{NAME name [, VALUE u32 index], VALUE u8 mode}. */
    static byte[] subsLike(String name, int index, int mode) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD).leaf(TlvType.NAME, name.getBytes());
        if (index >= 0) {
            w.value(index, 4);
        }
        w.value(mode, 1);
        w.end();
        return java.util.Arrays.copyOf(b, w.length());
    }
}
