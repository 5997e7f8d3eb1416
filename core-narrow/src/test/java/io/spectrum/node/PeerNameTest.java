package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.node.api.NodePath;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The {@code spectrum.name} announcement key (docs/extensions.md, "Peer name"): its bytes and bounds,
 * and a NARROW node, which knows callers by address only, serving a naming peer as any announcing one.
 */
class PeerNameTest {
    private static int nameEntry(byte[] frame) {
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(frame, 0, frame.length, x));
        int c = x.firstChild(0);
        while (x.nextSibling(c) != TlvIndex.NONE) {
            c = x.nextSibling(c);
        }
        int v = new Extensions().announcedName(x, c);
        return v == TlvIndex.NONE ? -1 : x.bodyLength(v);
    }

    private static byte[] read(byte[] name) {
        return Frames.named(Frames.fwd(0, NodePath.of("/a").tlv(), null, Frames.REPLY_EP), name);
    }

    @Test
    void theKey_bytesAndBounds() {
        byte[] b = Frames.named(Frames.fwd(0, NodePath.of("/a").tlv(), null, Frames.REPLY_EP), "svc");
        String tail = Frames.hex(Arrays.copyOfRange(b, b.length - 50, b.length));
        assertEquals("0b402e00" + "02000c00" + Frames.hex("spectrum.ext".getBytes()) + "01000200" + "0100"
                + "02000d00" + Frames.hex("spectrum.name".getBytes()) + "02000300" + Frames.hex("svc".getBytes()), tail);
        assertEquals(3, nameEntry(b));
        byte[] max = new byte[Names.PEER_NAME_MAX];
        Arrays.fill(max, (byte) 'n');
        assertEquals(Names.PEER_NAME_MAX, nameEntry(read(max)));
        assertEquals(-1, nameEntry(read(Arrays.copyOf(max, Names.PEER_NAME_MAX + 1))), "longer than 64 bytes: no name");
        assertEquals(-1, nameEntry(read(new byte[] {'a', (byte) 0xC3})), "not UTF-8: no name");
        assertEquals(-1, nameEntry(Frames.announced(Frames.fwd(0, NodePath.of("/a").tlv(), null, Frames.REPLY_EP))),
                "an announcement without the key");
    }

    @Test
    void narrowNode_servesANamingPeerAsAnAnnouncingOne() {
        NodeHarness h = new NodeHarness();
        h.node.write(h.temp, Frames.value(0, 1), 0, 5); // a NARROW node's remote write needs the vertex
        Frames.Reply w = h.request(Frames.named(Frames.fwd(1, h.temp.tlv(), null, Frames.REPLY_EP, Frames.value(3, 1)), "svc"));
        assertEquals(0, w.kind, "refused: " + w.errorCode());
        byte[] out = new byte[8];
        assertEquals(5, h.node.read(h.temp, out, 0, 8), "the payload is the VALUE, not the announcement");
        Frames.Reply a = h.request(h.subscribeReq("/c", 0, false, false, Frames.REPLY_EP));
        assertEquals(0, a.kind);
        assertEquals(TlvType.FIELD, a.idx.type(a.payload), "announced: the extended append answer");
        Frames.Reply plain = h.request(NodeHarness.OTHER_PEER, h.subscribeReq("/d", 0, false, false, Frames.REPLY_EP));
        assertEquals(TlvIndex.NONE, plain.payload, "a plain peer: RESULT, no payload");
        assertEquals(2, h.node.listenerCount(h.temp));
    }
}
