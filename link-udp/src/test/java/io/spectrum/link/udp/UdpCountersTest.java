package io.spectrum.link.udp;

import io.spectrum.link.LinkStats;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Garbage and valid datagrams at a listener with a node attached: every datagram is counted in
 * exactly one of the link's disjoint counters, and the node's rejections are a subset of framesIn
 * (docs/links.md, "Counters").
 */
class UdpCountersTest {
    /** Not one libtracer frame: type 0. */
    private static final byte[] NOT_A_FRAME = {0x00, 0x00, 0x01, 0x00, 0x2A};
    /** One frame by its outer header, but its child claims more bytes than the container holds. */
    private static final byte[] UNDECODABLE = {0x0F, 0x40, 0x05, 0x00, 0x01, 0x00, 0x09, 0x00, 0x00};
    /** FWD{READ, dst /$node/caps, src /r}: a request the node serves. */
    private static final byte[] READ_CAPS = {
            0x0F, 0x40, 0x1A, 0x00,
            0x01, 0x00, 0x01, 0x00, 0x00,
            0x06, 0x00, 0x0B, 0x00, 0x05, '$', 'n', 'o', 'd', 'e', 0x04, 'c', 'a', 'p', 's',
            0x06, 0x00, 0x02, 0x00, 0x01, 'r'};
    private static final int MAX_FRAME = 256;

    @Test
    void eachGarbageOrValidDatagramIsCountedExactlyOnce() throws Exception {
        ManualClock clock = new ManualClock(0);
        int notFrames = 100;
        int oversize = 50;
        int undecodable = 50;
        int valid = 100;
        try (NarrowNode node = new NarrowNode(NodeConfig.builder().clock(clock).build());
             DatagramChannel sender = DatagramChannel.open()) {
            UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    new UdpLinkConfig().maxFrame(MAX_FRAME), clock);
            node.attach(server);
            sender.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            InetSocketAddress to = server.localAddress();
            int sent = 0;
            for (int i = 0; i < 100; i++) {
                if (i < notFrames) {
                    sender.send(ByteBuffer.wrap(NOT_A_FRAME), to);
                    sent++;
                }
                if (i < oversize) {
                    sender.send(ByteBuffer.wrap(new byte[MAX_FRAME + 1 + i]), to);
                    sent++;
                }
                if (i < undecodable) {
                    sender.send(ByteBuffer.wrap(UNDECODABLE), to);
                    sent++;
                }
                if (i < valid) {
                    sender.send(ByteBuffer.wrap(READ_CAPS), to);
                    sent++;
                }
                if (i % 10 == 9) {
                    node.poll(); // keep the socket buffer short
                }
            }
            LinkStats s = server.stats();
            long deadline = System.nanoTime() + 5_000_000_000L; // a hang guard, not a timing assertion
            while (received(s) < sent && System.nanoTime() < deadline) {
                if (node.poll() == 0) {
                    Thread.sleep(1);
                }
            }
            assertEquals(0, s.droppedByOs(), "nothing lost before the link");
            assertEquals(sent, received(s), "framesIn + droppedInvalid + droppedOversize + droppedCorrupt"
                    + " + peersRefused = datagrams sent");
            assertEquals(notFrames, s.droppedInvalid());
            assertEquals(oversize, s.droppedOversize());
            assertEquals(undecodable + valid, s.framesIn());
            assertEquals(undecodable, node.linkStats(server).framesRejected(), "the node's rejections, a subset of framesIn");
            assertEquals(valid, s.framesOut(), "every valid request answered");
        }
    }

    private static long received(LinkStats s) {
        return s.framesIn() + s.droppedInvalid() + s.droppedOversize() + s.droppedCorrupt() + s.peersRefused();
    }
}
