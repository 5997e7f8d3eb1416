package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PathTest {
    private static int key(String bodyHex) {
        byte[] b = Hex.bytes(bodyHex);
        return PathKeys.validateKey(b, 0, b.length);
    }

    private static int frame(String bodyHex) {
        byte[] b = Hex.bytes(bodyHex);
        return PathKeys.validateFrame(b, 0, b.length);
    }

    @Test
    void handleEncodesCanonicalBytes() {
        PathHandle h = PathHandle.of("/sensor/temp");
        assertEquals("06000C000673656E736F720474656D70", Hex.of(h.frame(), 0, h.frameLength()));
        assertEquals(2, h.segmentCount());
        assertEquals("/sensor/temp", h.text());
        assertEquals("06000000", Hex.of(PathHandle.of("/").frame(), 0, 4));
        assertTrue(PathHandle.of("/").isRoot());
        assertEquals(PathHandle.of("/sensor"), h.parent());
        assertEquals(PathHandle.of("/"), PathHandle.of("/sensor").parent());
        assertNull(PathHandle.of("/").parent());
    }

    @Test
    void handleRefusesBadText() {
        for (String bad : new String[] {"", "a", "/a/", "//a", "/a:b", "/a.b", "/frame[7]", "/a*", "/a?", "/a\u0000b",
                "/" + "x".repeat(65)}) {
            assertEquals(WireError.PATH_INVALID, PathHandle.check(bad), bad);
            assertNull(PathHandle.parse(bad), bad);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PathHandle.of("/a:b"));
        assertTrue(e.getMessage().startsWith("tr::path::invalid"));
        assertEquals(WireError.OK, PathHandle.check("/" + "x".repeat(64)));
        assertEquals(WireError.OK, PathHandle.check("/caf\u00e9/\u6e29\u5ea6"));
    }

    @Test
    void segmentAndBodyLimits() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 255; i++) {
            sb.append("/a");
        }
        assertEquals(WireError.OK, PathHandle.check(sb.toString()));
        assertEquals(WireError.PATH_INVALID, PathHandle.check(sb + "/a"), "256 segments");
        // 1024-byte body: 15 segments of 64 + 1 of 63 = 15*65 + 64 = 1039 > 1024; 15*65 + 49 = 1024
        String s64 = "/" + "y".repeat(64);
        String ok = s64.repeat(15) + "/" + "z".repeat(48);
        assertEquals(1024, PathHandle.of(ok).bodyLength());
        assertEquals(WireError.PATH_INVALID, PathHandle.check(ok + "z"));
    }

    @Test
    void keyContextRules() {
        assertEquals(WireError.OK, key("0673656E736F720474656D70"));
        assertEquals(WireError.PATH_INVALID, key("0673656e736f7200160401000200"), "escape in key");
        assertEquals(WireError.PATH_INVALID, key("0673656e736f720974656d70"), "record overruns");
        assertEquals(WireError.PATH_INVALID, key("0663616d657261086672616d655b375d"), "brackets");
        assertEquals(WireError.PATH_INVALID, key("02c328"), "bad utf-8");
        assertEquals(WireError.PATH_INVALID, key("026100"), "NUL");
        assertEquals(WireError.OK, key(""));
    }

    @Test
    void frameContextRules() {
        assertEquals(WireError.OK, frame("0673656e736f72001604010002000474656d700016040201ffff"));
        assertEquals(WireError.OK, frame("0673656e736f72001702aabb"), "foreign escape kind stepped over");
        assertEquals(WireError.PATH_INVALID, frame("0673656e736f72001603010002"), "label n=3");
        assertEquals(WireError.PATH_INVALID, frame("0673656e736f720974656d70"));
        assertEquals(WireError.PATH_INVALID, frame("0016"));
    }

    @Test
    void viewWalksLabelsAndFormats() {
        byte[] b = Hex.bytes("06001a000673656e736f72001604010002000474656d700016040201ffff");
        PathView v = new PathView().wrap(b, 4, b.length - 4);
        assertEquals(4, v.recordCount());
        int r = v.first();
        assertTrue(v.segmentEquals(r, Utf8.bytes("sensor")));
        r = v.next(r);
        assertTrue(v.isLabel(r));
        assertEquals(1, v.labelIndex(r));
        assertEquals(2, v.labelGeneration(r));
        r = v.next(v.next(r));
        assertEquals(258, v.labelIndex(r));
        assertEquals(0xFFFF, v.labelGeneration(r));
        assertEquals(-1, v.next(r));
        assertEquals("/sensor/~label(1,2)/temp/~label(258,65535)", v.toText());
        byte[] rag = Hex.bytes("0673656e736f720974656d70");
        assertEquals("/sensor/~ragged", new PathView().wrap(rag, 0, rag.length).toText());
        assertEquals("/", new PathView().wrap(rag, 0, 0).toText());
    }

    @Test
    void parentPrefixRelation() {
        PathHandle a = PathHandle.of("/sensor");
        PathHandle ab = PathHandle.of("/sensor/temp");
        PathHandle other = PathHandle.of("/sensors");
        assertTrue(a.isStrictAncestorOf(ab));
        assertTrue(a.isAncestorOrSelfOf(a));
        assertFalse(a.isStrictAncestorOf(a));
        assertFalse(a.isAncestorOrSelfOf(other));
        assertFalse(ab.isAncestorOrSelfOf(a));
        assertTrue(PathHandle.of("/").isStrictAncestorOf(a));
    }

    @Test
    void viewOverIndexChecksType() {
        TlvIndex idx = Hex.decode("06000c000673656e736f720474656d70");
        PathView v = new PathView();
        assertEquals(WireError.OK, v.wrap(idx, 0));
        assertEquals("/sensor/temp", v.toText());
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, v.wrap(Hex.decode("09000000"), 0));
    }

    @Test
    void pathRefElements() {
        TlvIndex idx = Hex.decode("140018000700000003000000130000000C0000002A00000001000000");
        PathRefView v = new PathRefView();
        assertEquals(WireError.OK, v.wrap(idx, 0));
        assertEquals(3, v.count());
        assertEquals(19, v.index(1));
        assertEquals(12, v.generation(1));
        assertEquals(1, v.generation(2));
        assertEquals(WireError.FRAME_INVALID, v.wrap(new byte[12], 0, 12));
        assertEquals(WireError.OK, v.wrap(new byte[0], 0, 0));
        assertEquals(0, v.count());
    }
}
