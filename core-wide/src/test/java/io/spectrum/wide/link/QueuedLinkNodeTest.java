package io.spectrum.wide.link;

import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.testing.Frames;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A node uses a {@link QueuedLink} unchanged: two NarrowNodes over UDP, each link wrapped (the board's
 * listener and the host's dialer), the host subscribes to a board vertex remotely and every value the
 * board writes arrives, in order, through both I/O threads; peer-up reached the nodes on their thread.
 */
class QueuedLinkNodeTest {
    @Test
    void twoNodesSubscribeAndDeliverThroughQueuedUdpLinks() throws Exception {
        NarrowNode board = new NarrowNode(NodeConfig.builder().remoteWritesToUndeclared(true).build());
        NarrowNode host = new NarrowNode(NodeConfig.builder().remoteWritesToUndeclared(true).build());
        UdpLink boardUdp = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig(), SystemClock.INSTANCE);
        QueuedLink boardLink = QueuedLink.wrap(boardUdp, QueuedLinkConfig.defaults());
        QueuedLink hostLink = QueuedLink.wrap(UdpLink.dial(2, boardUdp.localAddress(), new UdpLinkConfig(),
                SystemClock.INSTANCE), QueuedLinkConfig.defaults());
        try {
            assertTrue(board.attach(boardLink) >= 0);
            assertTrue(host.attach(hostLink) >= 0);
            NodePath temp = NodePath.of("/sensor/temp");
            NodePath mirror = NodePath.of("/boards/b1/temp");
            byte[] first = Frames.value(100, 8);
            assertEquals(0, board.write(temp, first, 0, first.length));
            List<Long> got = new ArrayList<>();
            host.subscribe(mirror, 0, (s, v, seq, stale) -> got.add(Frames.counter(v.copy(), 0)));
            int h = host.subscribeRemote(hostLink, 0, temp, mirror, 0x0020);
            assertTrue(h >= 0, "refused " + h);
            pump(board, host, () -> !got.isEmpty() && got.get(got.size() - 1) == 100L, "the retained value");
            for (int i = 101; i <= 300; i++) {
                byte[] v = Frames.value(i, 8);
                assertEquals(0, board.write(temp, v, 0, v.length));
                int n = i;
                pump(board, host, () -> got.get(got.size() - 1) == n, "value " + n);
            }
            for (int k = 1; k < got.size(); k++) {
                assertTrue(got.get(k) > got.get(k - 1), "in order: " + got);
            }
            assertEquals(300L, got.get(got.size() - 1));
            assertTrue(hostLink.isPeerUp(0), "the board answered: up, as the host's node thread was told");
            assertEquals(1, boardLink.peers().inUse(), "the host is the board's one peer");
            assertEquals(0, boardLink.queueStats().droppedTotal(), boardLink.queueStats().toString());
            assertEquals(0, hostLink.queueStats().droppedTotal(), hostLink.queueStats().toString());
            assertTrue(boardLink.queueStats().framesOut() >= 201, "deliveries left through the board's I/O thread");
        } finally {
            boardLink.close();
            hostLink.close();
        }
    }

    private static void pump(NarrowNode board, NarrowNode host, java.util.function.BooleanSupplier done, String what) {
        long guard = System.nanoTime() + NodeSide.GUARD_NANOS;
        while (!done.getAsBoolean()) {
            int work = board.poll() + host.poll();
            if (work == 0) {
                Thread.onSpinWait();
            }
            if (System.nanoTime() - guard > 0) {
                fail("never happened: " + what);
            }
        }
    }
}
