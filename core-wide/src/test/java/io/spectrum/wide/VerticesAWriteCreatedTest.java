package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.stats.BoundedResource;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Vertices a write created (docs/node.md): a WIDE node creates the path of a remote WRITE from a
 * caller that announced Spectrum's extensions and asked for an answer, within the caller's vertex
 * share; a plain v1 caller, a write without an answer route and a NARROW node never create, and a
 * refused write leaves no vertex and gives its share back.
 */
class VerticesAWriteCreatedTest {
    private static final int SHARE = 5;
    private final ManualClock clock = new ManualClock(0);
    private int route;

    private static WideNode host() {
        return new WideNode(NodeConfig.builder().clock(new ManualClock(0)).remoteWritesToUndeclared(true).maxVertices(256).maxSubscribers(64)
                .verticesPerPeer(SHARE).maxKeyBytes(128).payloadCap(64).frameBytes(16 * 1024).build());
    }

    @Test
    void anAnnouncingWriter_createsThePath_andItsValueIsEveryonesToRead() {
        WideNode host = host();
        MemoryLink[] c = client(host);
        assertFalse(host.exists(NodePath.of("/lab")));
        assertEquals(WireError.OK, send(host, c[0], 1, fwd(FwdView.OP_WRITE, "/lab/setpoint", Tlv.value(42, 1), "app")));
        assertTrue(host.exists(NodePath.of("/lab/setpoint")));
        assertEquals(1, host.sequence(NodePath.of("/lab/setpoint")));
        assertEquals("app", host.lastPublisher(NodePath.of("/lab/setpoint")));
        assertEquals(WireError.OK, send(host, c[0], 2, fwd(FwdView.OP_READ, "/lab/setpoint", null, null)),
                "another peer, plain v1, reads it");
        assertEquals(WireError.OK, send(host, c[0], 1, fwd(FwdView.OP_WRITE, "/lab/setpoint", Tlv.value(43, 1), null)),
                "the next write finds it");
        assertEquals(2, host.sequence(NodePath.of("/lab/setpoint")));
    }

    @Test
    void aPlainV1Writer_getsNotFound_andNothingIsCreated() {
        WideNode host = host();
        MemoryLink[] c = client(host);
        Map<String, Long> before = tables(host);
        assertEquals(WireError.PATH_NOT_FOUND, send(host, c[0], 1, fwd(FwdView.OP_WRITE, "/lab/setpoint", Tlv.value(42, 1), null)));
        assertFalse(host.exists(NodePath.of("/lab")));
        assertEquals(before, tables(host));
    }

    @Test
    void aWriteWithoutAnAnswerRoute_createsNothing() {
        WideNode host = host();
        MemoryLink[] c = client(host);
        send(host, c[0], 1, fwd(FwdView.OP_READ, "/", null, "app")); // announced before, by a request
        c[0].inject(1, silentWrite("/lab/setpoint", Tlv.value(42, 1)));
        ModeWire.pump(host);
        assertFalse(host.exists(NodePath.of("/lab")), "a silent write (a delivery's shape) never creates");
    }

    @Test
    void theWritersShare_boundsWhatItsWritesCreate_andARefusalLeavesNothing() {
        WideNode host = host();
        MemoryLink[] c = client(host);
        assertEquals(WireError.OK, send(host, c[0], 1, fwd(FwdView.OP_WRITE, "/a/b/c", Tlv.value(1, 1), "app")));
        Map<String, Long> before = tables(host);
        long shareRefused = host.vertexShareRefused();
        assertEquals(WireError.FLOW_BACKPRESSURE, send(host, c[0], 1, fwd(FwdView.OP_WRITE, "/d/e/f", Tlv.value(1, 1), null)),
                "3 + 3 vertices are past a share of 5");
        assertFalse(host.exists(NodePath.of("/d")));
        assertEquals(before, tables(host));
        assertEquals(shareRefused + 1, host.vertexShareRefused());
        assertEquals(WireError.OK, send(host, c[0], 1, fwd(FwdView.OP_WRITE, "/a/b/g", Tlv.value(1, 1), null)),
                "one more fits the share");
        assertEquals(WireError.OK, send(host, c[0], 2, fwd(FwdView.OP_WRITE, "/d/e/f", Tlv.value(1, 1), "other")),
                "another peer has its own share");
    }

    @Test
    void aWriteTheValueRuleRefuses_leavesNoVertex_andGivesTheShareBack() {
        WideNode host = host();
        MemoryLink[] c = client(host);
        send(host, c[0], 1, fwd(FwdView.OP_READ, "/", null, "app")); // the peer and its announcement, recorded first
        Map<String, Long> before = tables(host);
        byte[] tooBig = valueOf(new byte[100]); // over the payload cap of 64
        assertTrue(send(host, c[0], 1, fwd(FwdView.OP_WRITE, "/x/y/z", tooBig, null)) != WireError.OK);
        assertFalse(host.exists(NodePath.of("/x")));
        assertEquals(before, tables(host));
        for (int i = 0; i < SHARE; i++) { // the whole share is still there: five one-vertex paths
            assertEquals(WireError.OK, send(host, c[0], 1, fwd(FwdView.OP_WRITE, "/v" + i, Tlv.value(1, 1), null)));
        }
    }

    @Test
    void aNarrowNode_neverCreates_evenForAnAnnouncingWriter() {
        NarrowNode board = new NarrowNode(NodeConfig.builder().clock(clock).build());
        MemoryLink[] c = MemoryLink.pair();
        assertEquals(WireError.OK, board.attach(c[0]));
        assertEquals(WireError.PATH_NOT_FOUND, send(board, c[0], 1, fwd(FwdView.OP_WRITE, "/lab/setpoint", Tlv.value(42, 1), "app")));
        assertFalse(board.exists(NodePath.of("/lab/setpoint")));
    }

    private static MemoryLink[] client(WideNode host) {
        MemoryLink[] c = MemoryLink.pair();
        assertEquals(WireError.OK, host.attach(c[0]));
        return c;
    }

    /** Sends from the far end of {@code c}; the status of the REPLY it got. */
    private static int send(Node node, MemoryLink c, int peer, byte[] frame) {
        return ModeWire.replyStatus(node, c, peer, frame);
    }

    private static Map<String, Long> tables(WideNode host) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (BoundedResource r : host.resources()) {
            m.put(r.resourceName(), r.inUse());
        }
        return m;
    }

    /** FWD{op, dst, src (a fresh route), [payload], [the announcement with {@code name}]}. */
    private byte[] fwd(int op, String dst, byte[] payload, String name) {
        byte[] b = new byte[4096];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(op, 1).raw(path(dst)).raw(path("/r/" + (++route)));
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

    /** FWD{WRITE, dst, empty src, payload}: no answer wanted. */
    private static byte[] silentWrite(String dst, byte[] payload) {
        byte[] b = new byte[4096];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(FwdView.OP_WRITE, 1).raw(path(dst)).leaf(TlvType.PATH, new byte[0]).raw(payload).end();
        return Arrays.copyOf(b, w.length());
    }

    private static byte[] valueOf(byte[] body) {
        byte[] b = new byte[body.length + 8];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.leaf(TlvType.VALUE, body);
        return Arrays.copyOf(b, w.length());
    }

    private static byte[] path(String p) {
        NodePath n = NodePath.of(p);
        return Arrays.copyOf(n.tlv(), n.bodyOffset() + n.bodyLength());
    }
}
