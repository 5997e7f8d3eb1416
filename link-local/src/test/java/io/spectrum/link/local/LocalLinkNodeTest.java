package io.spectrum.link.local;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;

import static io.spectrum.link.local.LocalLinkTest.pump;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A node served over the local link: the hello is a request the node takes silently, and READs are answered. */
class LocalLinkNodeTest {
    @TempDir
    Path tmp;

    @Test
    void aClientReadsAVertexOfANodeServedOverTheLink() throws Exception {
        ManualClock clock = new ManualClock(0);
        NarrowNode node = new NarrowNode(NodeConfig.builder().clock(clock).build());
        NodePath a = NodePath.of("/a");
        byte[] value = Frames.value(42, 8);
        assertEquals(WireError.OK, node.write(a, value, 0, value.length));
        LocalLink server = LocalLink.listen(1, UnixDomainSocketAddress.of(tmp.resolve("node.sock")),
                new LocalLinkConfig(), clock);
        LocalLink client = LocalLink.connect(2, server.localAddress(), "reader", new LocalLinkConfig(), clock);
        try {
            assertEquals(WireError.OK, node.attach(server));
            Collector atClient = new Collector();
            pump(() -> server.openPeers().length == 1, node::poll, () -> client.poll(atClient, 64));
            for (int i = 0; i < 20; i++) {
                node.poll(); // the hello has an empty src: the node answers nothing
                client.poll(atClient, 64);
            }
            assertEquals(0, atClient.frames.size());

            byte[] read = new byte[128];
            TlvWriter w = new TlvWriter(4).wrap(read, 0, read.length);
            w.begin(TlvType.FWD).value(FwdView.OP_READ, 1).raw(a.tlv()).raw(NodePath.of("/r").tlv()).end();
            assertEquals(WireError.OK, client.send(0, read, 0, w.length()));
            pump(() -> atClient.frames.size() == 1, node::poll, () -> client.poll(atClient, 64));

            byte[] reply = atClient.frames.get(0);
            TlvIndex x = new TlvIndex();
            assertEquals(WireError.OK, new FrameDecoder().decode(reply, 0, reply.length, x));
            FwdView v = new FwdView();
            assertEquals(WireError.OK, v.wrap(x, 0));
            assertEquals(FwdView.OP_REPLY, v.opcode());
            assertEquals(FwdView.KIND_RESULT, v.kind());
            int p = v.payload();
            assertArrayEquals(value, Arrays.copyOfRange(reply, x.start(p), x.start(p) + x.totalLength(p)));
        } finally {
            client.close();
            server.close();
        }
    }
}
