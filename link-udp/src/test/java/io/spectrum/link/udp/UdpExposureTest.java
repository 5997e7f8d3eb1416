package io.spectrum.link.udp;

import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11 items 2, 4 and 6 on the UDP link: loopback unless told otherwise, one source host
 * cannot fill the peer table from many ports, and the receive buffer is asked for and read back.
 */
class UdpExposureTest {
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ManualClock clock = new ManualClock(0);

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    @Test
    void aBarePortMeansLoopback() {
        assertEquals(new InetSocketAddress("127.0.0.1", 7700), UdpLink.parseHostPort(":7700"));
        assertEquals(new InetSocketAddress("127.0.0.1", 7700), UdpLink.parseHostPort("7700"));
        assertEquals(new InetSocketAddress("0.0.0.0", 7700), UdpLink.parseHostPort("0.0.0.0:7700"));
    }

    @Test
    void aWildcardListenerSaysSo_aLoopbackOneDoesNot() throws Exception {
        UdpLink lo = UdpLink.listen(1, UdpLink.parseHostPort(":0"), new UdpLinkConfig(), clock);
        open.add(lo::close);
        assertFalse(lo.isWildcard());
        assertTrue(lo.localAddress().getAddress().isLoopbackAddress());
        UdpLink any = UdpLink.listen(2, UdpLink.parseHostPort("0.0.0.0:0"), new UdpLinkConfig(), clock);
        open.add(any::close);
        assertTrue(any.isWildcard());
    }

    @Test
    void theReceiveBufferIsRequestedAndTheGrantedSizeReadBack() throws Exception {
        UdpLink l = UdpLink.listen(1, UdpLink.parseHostPort(":0"), new UdpLinkConfig(), clock);
        open.add(l::close);
        assertEquals(UdpLinkConfig.DEFAULT_RECEIVE_BUFFER, l.receiveBufferRequested());
        assertTrue(l.receiveBufferGranted() > 0, "granted " + l.receiveBufferGranted());
        assertEquals(l.receiveBufferGranted() < l.receiveBufferRequested(), l.receiveBufferCapped());
        UdpLink small = UdpLink.listen(2, UdpLink.parseHostPort(":0"), new UdpLinkConfig().receiveBufferBytes(64 * 1024), clock);
        open.add(small::close);
        assertFalse(small.receiveBufferCapped(), "64 KiB is under any rmem_max");
    }

    private DatagramChannel sender(String ip) throws Exception {
        DatagramChannel ch = DatagramChannel.open();
        open.add(ch);
        ch.bind(new InetSocketAddress(ip, 0));
        return ch;
    }

    private static void hello(DatagramChannel ch, UdpLink to, int n) throws Exception {
        ch.send(ByteBuffer.wrap(Frames.value(n, 16)), to.localAddress());
    }

    @Test
    void oneHostCannotFillThePeerTableFromManyPorts() throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig().peerCapacity(4).peersPerHost(2).limitLoopbackPeers(true).peerTimeoutMillis(1000), clock);
        open.add(server::close);
        Collector at = new Collector();
        server.setPeerListener(at);
        DatagramChannel a1 = sender("127.0.0.1");
        DatagramChannel a2 = sender("127.0.0.1");
        DatagramChannel a3 = sender("127.0.0.1");
        hello(a1, server, 1);
        Collector.pollUntil(server, at, 1);
        hello(a2, server, 2);
        Collector.pollUntil(server, at, 2);
        hello(a3, server, 3); // the host's third port: over its share
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (server.stats().peersRefused() == 0 && System.nanoTime() < deadline) {
            server.poll(at, 16);
            Thread.sleep(1);
        }
        assertEquals(1, server.stats().peersRefused());
        assertEquals(1, server.peerTable().refused());
        assertEquals(2, server.peerTable().inUse());
        // another host (127.0.0.2: Linux routes all of 127/8 to loopback) still gets in
        DatagramChannel b = sender("127.0.0.2");
        hello(b, server, 4);
        Collector.pollUntil(server, at, 3);
        assertEquals(3, server.peerTable().inUse());
        assertEquals(3, at.frames.size());
        // once the host's peers are down, its new port takes one of their places (an eviction)
        clock.advanceMillis(1500);
        server.poll(at, 1);
        hello(a3, server, 5);
        Collector.pollUntil(server, at, 4);
        assertEquals(1, server.stats().peersEvicted());
        assertEquals(3, server.peerTable().inUse());
    }

    @Test
    void loopbackSendersAreHeldToAHostShareLikeAnyAddress() throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig().peerCapacity(4).peersPerHost(1), clock);
        open.add(server::close);
        Collector at = new Collector();
        hello(sender("127.0.0.1"), server, 0);
        Collector.pollUntil(server, at, 1);
        for (int i = 1; i < 3; i++) {
            hello(sender("127.0.0.1"), server, i);
        }
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (server.stats().peersRefused() < 2 && System.nanoTime() < deadline) {
            server.poll(at, 16);
            Thread.sleep(1);
        }
        assertEquals(1, server.peerTable().inUse());
        assertEquals(2, server.stats().peersRefused());
    }

    @Test
    void loopbackIsExemptOnlyWhenConfiguredSo() throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig().peerCapacity(4).peersPerHost(1).limitLoopbackPeers(false), clock);
        open.add(server::close);
        Collector at = new Collector();
        for (int i = 0; i < 3; i++) {
            hello(sender("127.0.0.1"), server, i);
            Collector.pollUntil(server, at, i + 1);
        }
        assertEquals(3, server.peerTable().inUse());
        assertEquals(0, server.stats().peersRefused());
    }
}
