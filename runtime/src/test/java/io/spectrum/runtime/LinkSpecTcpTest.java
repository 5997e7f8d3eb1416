package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.link.local.LocalLink;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code tcp://} spelling, owned by {@link LinkSpec}: what it opens and how it refuses. */
class LinkSpecTcpTest {
    private final ManualClock clock = new ManualClock(0);

    @Test
    void tcpDialReachesATcpListenerWithNoHelloAndFramesFlowBothWays() throws Exception {
        Link server = LinkSpec.tcpListen(1, ":0", new LinkSettings(), clock);
        try {
            int port = ((InetSocketAddress) ((LocalLink) server).localAddress()).getPort();
            assertEquals("tcp 127.0.0.1:" + port, server.name(), "a bare :PORT binds loopback");
            Link dialer = LinkSpec.dial(2, "tcp://127.0.0.1:" + port, new LinkSettings(), clock);
            try {
                assertEquals("tcp->127.0.0.1:" + port, dialer.name());
                Collector atServer = new Collector();
                Collector atDialer = new Collector();
                server.setPeerListener(atServer);
                byte[] f = Frames.value(1, 8);
                assertEquals(WireError.OK, dialer.send(0, f, 0, f.length));
                Collector.pollUntil(server, atServer, 1);
                assertArrayEquals(f, atServer.frames.get(0), "the dialer's first frame is its own, not a hello");
                assertEquals("up 0", atServer.events.get(0));
                byte[] g = Frames.value(2, 8);
                assertEquals(WireError.OK, server.send(0, g, 0, g.length));
                Collector.pollUntil(dialer, atDialer, 1);
                assertArrayEquals(g, atDialer.frames.get(0));
                assertEquals(LinkSettings.DEFAULT_LISTEN_PEERS, server.peers().capacity());
            } finally {
                dialer.close();
            }
        } finally {
            server.close();
        }
    }

    @Test
    void anyOtherPeerSpellingIsUdp() throws Exception {
        Link a = LinkSpec.dial(1, "127.0.0.1:9", new LinkSettings(), clock);
        Link b = LinkSpec.dial(2, "udp://127.0.0.1:9", new LinkSettings(), clock);
        try {
            assertInstanceOf(UdpLink.class, a);
            assertInstanceOf(UdpLink.class, b);
        } finally {
            a.close();
            b.close();
        }
    }

    @Test
    void aRefusedTcpConnectIsOneLineSayingWhere() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        int p = port;
        ConnectException e = assertThrows(ConnectException.class,
                () -> LinkSpec.dial(1, "tcp://127.0.0.1:" + p, new LinkSettings(), clock));
        assertTrue(e.getMessage().startsWith("tcp://127.0.0.1:" + p + ": nothing accepts there"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void aWildcardTcpListenerGetsTheExposureLine() throws Exception {
        NarrowNode node = new NarrowNode(NodeConfig.builder().clock(clock).build());
        Link any = LinkSpec.tcpListen(1, "0.0.0.0:0", new LinkSettings(), clock);
        Link lo = LinkSpec.tcpListen(2, "tcp://127.0.0.1:0", new LinkSettings().peers(3), clock);
        try {
            assertEquals(1, LinkNotices.atStart(any, node).stream().filter(s -> s.contains("every interface")).count());
            assertTrue(LinkNotices.atStart(lo, node).isEmpty());
            assertEquals(3, lo.peers().capacity());
        } finally {
            any.close();
            lo.close();
        }
    }
}
