package io.spectrum.wide.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link QueuedLink} over a real UDP listener ({@link UdpLink}) with 100 peers (100 dialing UdpLinks on
 * loopback): the I/O thread selects on the listener's channel, the node thread echoes every frame back to
 * its sender. Rounds keep the burst within the sockets' buffers (UDP may drop beyond them, which is not what
 * this test is about); the outcome is every frame, both ways, in order per peer.
 */
class QueuedLinkUdpTest {
    static final int CLIENTS = 100;
    static final int ROUNDS = 50;
    static final int LEN = 24;

    static void frame(byte[] b, int client, int seq) {
        b[0] = 0x01; // a libtracer frame: type, opt 0, 2-byte body length, body
        b[1] = 0;
        b[2] = (byte) (LEN - 4);
        b[3] = 0;
        b[4] = (byte) seq;
        b[5] = (byte) (seq >>> 8);
        b[6] = (byte) client;
        b[7] = (byte) (client >>> 8);
    }

    static int seqOf(byte[] b, int off) {
        return (b[off + 4] & 0xFF) | (b[off + 5] & 0xFF) << 8;
    }

    static int clientOf(byte[] b, int off) {
        return (b[off + 6] & 0xFF) | (b[off + 7] & 0xFF) << 8;
    }

    /** The node: echoes each frame to its sender, checks order per peer and which client a peer is. */
    static final class Echo implements FrameHandler, PeerListener {
        final int[] clientOfPeer = new int[CLIENTS * 2];
        final int[] nextSeq = new int[CLIENTS * 2];
        int frames;
        int disorder;
        int ups;
        int echoRefused;

        Echo() {
            java.util.Arrays.fill(clientOfPeer, -1);
        }

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            int c = clientOf(buf, off);
            if (clientOfPeer[peer] < 0) {
                clientOfPeer[peer] = c;
            }
            if (clientOfPeer[peer] != c || seqOf(buf, off) != nextSeq[peer]) {
                disorder++;
            }
            nextSeq[peer] = seqOf(buf, off) + 1;
            frames++;
            if (link.send(peer, buf, off, len) != WireError.OK) {
                echoRefused++;
            }
        }

        @Override
        public void onPeerUp(Link link, int peer) {
            ups++;
        }

        @Override
        public void onPeerDown(Link link, int peer) {
        }
    }

    /** One client's side: the echoes it got, in order. */
    static final class Client implements FrameHandler {
        final int index;
        int next;
        int disorder;

        Client(int index) {
            this.index = index;
        }

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            if (clientOf(buf, off) != index || seqOf(buf, off) != next) {
                disorder++;
            }
            next = seqOf(buf, off) + 1;
        }
    }

    @Test
    void oneHundredUdpPeersGetEveryFrameBothWaysInOrder() throws Exception {
        // every client is on loopback, one address: it may hold the whole table here
        UdpLinkConfig udp = new UdpLinkConfig().peerCapacity(CLIENTS + 28).peersPerHost(CLIENTS + 28);
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), udp,
                SystemClock.INSTANCE);
        QueuedLink link = QueuedLink.wrap(server, QueuedLinkConfig.defaults());
        Echo echo = new Echo();
        link.setPeerListener(echo);
        UdpLink[] clients = new UdpLink[CLIENTS];
        Client[] got = new Client[CLIENTS];
        try {
            assertEquals("select", link.ioWaitMode(), "the I/O thread sleeps in a selector on the UDP channel");
            for (int c = 0; c < CLIENTS; c++) {
                clients[c] = UdpLink.dial(100 + c, server.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE);
                got[c] = new Client(c);
            }
            byte[] f = new byte[LEN];
            for (int r = 0; r < ROUNDS; r++) {
                for (int c = 0; c < CLIENTS; c++) {
                    frame(f, c, r);
                    assertEquals(WireError.OK, clients[c].send(0, f, 0, LEN));
                }
                long guard = System.nanoTime() + NodeSide.GUARD_NANOS;
                int done = 0;
                while (done < CLIENTS) {
                    link.poll(echo, 256);
                    done = 0;
                    for (int c = 0; c < CLIENTS; c++) {
                        clients[c].poll(got[c], 16);
                        if (got[c].next == r + 1) {
                            done++;
                        }
                    }
                    if (System.nanoTime() - guard > 0) {
                        fail("round " + r + ": " + done + " of " + CLIENTS + " echoes back; " + link.queueStats());
                    }
                }
            }
            for (int c = 0; c < CLIENTS; c++) {
                assertEquals(ROUNDS, got[c].next, "client " + c + " got every echo");
                assertEquals(0, got[c].disorder, "client " + c + " in order");
            }
            assertEquals(CLIENTS * ROUNDS, echo.frames);
            assertEquals(0, echo.disorder, "the node got each peer's frames in order");
            assertEquals(0, echo.echoRefused);
            assertEquals(CLIENTS, echo.ups, "every peer reported up, on the node thread");
            assertEquals(CLIENTS, link.peers().inUse());
            QueuedLinkStats st = link.queueStats();
            assertEquals(0, st.droppedTotal(), st.toString());
            assertEquals((long) CLIENTS * ROUNDS, st.framesOut());
            assertEquals((long) CLIENTS * ROUNDS, link.stats().framesIn());
            assertTrue(link.peerQueue(0).peak() >= 1);
        } finally {
            link.close();
            for (UdpLink c : clients) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }
}
