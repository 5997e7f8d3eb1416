package io.spectrum.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wire.FieldView;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tree walk through :children[], its depth bound, and the composed-READ fallback. */
class TreeWalkTest {
    private static List<String> paths(TreeWalk.Vertex v, List<String> out) {
        out.add(v.path() + "@" + v.depth());
        for (TreeWalk.Vertex c : v.children()) {
            paths(c, out);
        }
        return out;
    }

    private static NodeFixture tree() {
        NodeFixture f = new NodeFixture();
        f.set("/a/b", 1, 1);
        f.set("/a/c", 2, 1);
        f.set("/a", 9, 1);
        f.set("/d", 3, 1);
        return f;
    }

    @Test
    void walksChildrenInTheNodesOrderWithOwnValues() {
        try (NodeFixture f = tree()) {
            List<String> visited = new ArrayList<>();
            TreeWalk.Vertex root = f.client.walk("/", 8, v -> visited.add(v.path()));
            assertEquals(List.of("/@0", "/a@1", "/a/b@2", "/a/c@2", "/d@1"), paths(root, new ArrayList<>()));
            assertEquals(List.of("/", "/a", "/a/b", "/a/c", "/d"), visited, "each vertex visited before its children");
            TreeWalk.Vertex a = root.children().get(0);
            assertTrue(a.walked());
            assertArrayEquals(NodeFixture.value(9, 1), a.value().value(), "a vertex with children keeps its own value");
            assertArrayEquals(NodeFixture.value(1, 1), a.children().get(0).value().value());
        }
    }

    @Test
    void theDepthBoundCountsWhatItDidNotWalk() {
        try (NodeFixture f = tree()) {
            TreeWalk.Vertex a = f.client.walk("/a", 0, v -> { });
            assertFalse(a.walked());
            assertTrue(a.children().isEmpty());
            assertEquals(0, a.notWalked(), "depth 0 reads no listing");
            TreeWalk.Vertex root = f.client.walk("/", 1, v -> { });
            assertEquals(2, root.children().size());
            assertEquals(2, root.children().get(0).notWalked(), "/a has two children below the bound");
        }
    }

    @Test
    void withoutAChildrenFieldItWalksTheComposedRead() {
        try (NodeFixture f = tree()) {
            PeerClient plain = new PeerClient(new NoChildrenField(f), Duration.ofSeconds(5), "/t/p/");
            TreeWalk.Vertex root = plain.walk("/a", 8, v -> { });
            assertEquals(WireError.SCHEMA_NOT_FOUND, root.childrenError());
            assertTrue(root.walked(), "the composed READ lists the children");
            assertEquals(List.of("/a@0", "/a/b@1", "/a/c@1"), paths(root, new ArrayList<>()));
            assertArrayEquals(NodeFixture.value(9, 1), root.value().value());
        }
    }

    @Test
    void anAbsentVertexIsNotAnswered() {
        try (NodeFixture f = tree()) {
            TreeWalk.Vertex v = f.client.walk("/nope", 8, x -> { });
            assertFalse(v.answered());
            assertFalse(v.walked());
        }
    }

    // ---- ownValue (moved from the CLI's LsTree) --------------------------------------------------

    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h);
    }

    @Test
    void composedTreeGivesItsOwnValueOrNoValue() {
        // POINT{NAME "s", VALUE 2, POINT{NAME "t", VALUE 1}}
        Reply withValue = Reply.result(hex("0740" + "1800" + "0200010073" + "0100010002" + "07400a00" + "0200010074"
                + "0100010001"), new byte[0]);
        Reply own = TreeWalk.ownValue(withValue);
        assertEquals(WireError.OK, own.code());
        assertArrayEquals(hex("0100010002"), own.value());
        // POINT{NAME "s", POINT{NAME "t", VALUE 1}}: names only
        Reply names = Reply.result(hex("0740" + "1300" + "0200010073" + "07400a00" + "0200010074" + "0100010001"),
                new byte[0]);
        assertEquals(WireError.PATH_NOT_FOUND, TreeWalk.ownValue(names).code());
        assertEquals(List.of("t"), TreeWalk.composedChildren(names.value()));
    }

    @Test
    void otherAnswersAreKept() {
        Reply leaf = Reply.result(hex("0100010007"), new byte[0]);
        assertSame(leaf, TreeWalk.ownValue(leaf));
        Reply storedPoint = Reply.result(hex("07400500" + "0100010007"), new byte[0]);
        assertSame(storedPoint, TreeWalk.ownValue(storedPoint), "a POINT without a leading NAME is a stored value");
        Reply refused = Reply.error(WireError.ACCESS_DENIED, new byte[0]);
        assertSame(refused, TreeWalk.ownValue(refused));
    }

    /**
     * The node behind a peer that has no {@code :children} field (a plain v1 peer): such READs are
     * answered {@code schema::not_found} here, everything else goes to the node.
     */
    private static final class NoChildrenField implements Transport {
        private final NodeFixture f;
        private final LinkTransport inner;
        private byte[] refusal;

        NoChildrenField(NodeFixture f) {
            this.f = f;
            this.inner = new LinkTransport(f.clientEnd, 0);
        }

        @Override
        public int send(byte[] frame, int off, int len) {
            TlvIndex x = new TlvIndex(64, 8);
            FwdView v = new FwdView();
            FieldView fv = new FieldView();
            if (new FrameDecoder().decode(frame, off, len, x) == WireError.OK && v.wrap(x, 0) == WireError.OK
                    && v.field() != TlvIndex.NONE && fv.wrap(x, v.field()) == WireError.OK
                    && fv.nameEquals(0, Names.CHILDREN)) {
                byte[] src = java.util.Arrays.copyOfRange(frame, x.start(v.src()), x.end(v.src()));
                byte[] dst = java.util.Arrays.copyOfRange(frame, x.start(v.dst()), x.end(v.dst()));
                byte[] status = Requests.build(w -> w.status(WireError.SCHEMA_NOT_FOUND));
                refusal = Requests.fwd(FwdView.OP_REPLY, src, null, dst,
                        NodeFixture.value(FwdView.KIND_ERROR, 1), status);
                return WireError.OK;
            }
            return inner.send(frame, off, len);
        }

        @Override
        public int poll(Sink sink, int max) {
            f.node.poll();
            if (refusal != null) {
                byte[] r = refusal;
                refusal = null;
                sink.frame(r, 0, r.length);
                return 1;
            }
            return inner.poll(sink, max);
        }
    }

}
