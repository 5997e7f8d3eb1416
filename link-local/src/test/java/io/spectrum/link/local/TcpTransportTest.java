package io.spectrum.link.local;

import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.spectrum.link.local.LocalLinkTest.poll;
import static io.spectrum.link.local.LocalLinkTest.pump;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * libtracer's TCP transport ({@link LocalLinkConfig#helloRequired} off; docs/links.md, "TCP link"),
 * driven by a raw TCP socket that writes u32 little-endian length prefixes and frames as a libtracer
 * node does: no hello, frames cut at any byte, several per segment.
 */
class TcpTransportTest {
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ManualClock clock = new ManualClock(0);
    private final Collector atServer = new Collector();
    private LocalLink server;

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private void listen(LocalLinkConfig cfg) throws Exception {
        server = LocalLink.listen(1, new InetSocketAddress("127.0.0.1", 0), cfg.helloRequired(false), clock);
        open.add(server::close);
        server.setPeerListener(atServer);
    }

    private SocketChannel raw() throws IOException {
        SocketChannel ch = SocketChannel.open(server.localAddress());
        ch.configureBlocking(false);
        open.add(ch);
        return ch;
    }

    private static void write(SocketChannel ch, byte[] bytes, int off, int len) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes, off, len);
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static byte[] framed(byte[]... frames) {
        ByteBuffer b = ByteBuffer.allocate(Arrays.stream(frames).mapToInt(f -> 4 + f.length).sum())
                .order(ByteOrder.LITTLE_ENDIAN);
        for (byte[] f : frames) {
            b.putInt(f.length).put(f);
        }
        return b.array();
    }

    /** Reads what {@code ch} receives until the server closes it (polling the server meanwhile). */
    private byte[] readUntilEof(SocketChannel ch) throws Exception {
        ByteBuffer sink = ByteBuffer.allocate(4096);
        boolean[] eof = {false};
        pump(() -> eof[0], () -> {
            server.poll(atServer, 64);
            try {
                eof[0] = ch.read(sink) < 0;
            } catch (IOException e) {
                eof[0] = true;
            }
        });
        assertTrue(eof[0], "the server closed the connection");
        return Arrays.copyOf(sink.array(), sink.position());
    }

    @Test
    void aPeerWithoutAHelloIsUpAtOnceAndStaysPastTheHelloTimeout() throws Exception {
        listen(new LocalLinkConfig().helloTimeoutMillis(100));
        SocketChannel ch = raw();
        pump(() -> atServer.events.size() == 1, poll(server, atServer));
        assertEquals(List.of("up 0"), atServer.events, "connected is up: libtracer's TCP transport has no hello");
        clock.advanceMillis(10_000);
        byte[] f = Frames.value(7, 8);
        write(ch, framed(f), 0, 4 + f.length);
        pump(() -> atServer.frames.size() == 1, poll(server, atServer));
        assertArrayEquals(f, atServer.frames.get(0), "the first frame is delivered, not taken for a hello");
        assertEquals(0, server.localStats().helloTimeouts());
        assertEquals(0, server.localStats().helloRefused());
        assertTrue(server.isPeerUp(0));
        assertNull(server.peerName(0));
        assertEquals("tcp 127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort(), server.name());
    }

    @Test
    void aFrameSplitAcrossReadsIsDeliveredWhole() throws Exception {
        listen(new LocalLinkConfig());
        SocketChannel ch = raw();
        byte[] f = Frames.value(1, 40);
        byte[] wire = framed(f);
        int[] cuts = {2, 4, 11, wire.length}; // inside the prefix, after it, inside the frame, the end
        int at = 0;
        for (int cut : cuts) {
            write(ch, wire, at, cut - at);
            at = cut;
            for (int i = 0; i < 20; i++) { // let the bytes arrive and be read
                server.poll(atServer, 64);
                Thread.sleep(1);
            }
            if (cut < wire.length) {
                assertEquals(0, atServer.frames.size(), "nothing delivered from " + cut + " of " + wire.length + " bytes");
            }
        }
        pump(() -> atServer.frames.size() == 1, poll(server, atServer));
        assertArrayEquals(f, atServer.frames.get(0));
        assertEquals(1, server.stats().framesIn());
        assertEquals(f.length, server.stats().bytesIn(), "the prefix is not a frame's byte");
    }

    @Test
    void twoFramesInOneWriteAreTwoFramesInOrder() throws Exception {
        listen(new LocalLinkConfig());
        SocketChannel ch = raw();
        byte[] a = Frames.value(1, 8);
        byte[] b = Frames.value(2, 30);
        byte[] wire = framed(a, b);
        write(ch, wire, 0, wire.length);
        pump(() -> atServer.frames.size() == 2, poll(server, atServer));
        assertArrayEquals(a, atServer.frames.get(0));
        assertArrayEquals(b, atServer.frames.get(1));
        assertEquals(2, server.stats().framesIn());
    }

    @Test
    void anOversizedLengthClosesThatConnectionOnlyAndIsCounted() throws Exception {
        listen(new LocalLinkConfig().maxFrame(1024));
        SocketChannel good = raw();
        pump(() -> atServer.events.size() == 1, poll(server, atServer));
        SocketChannel bad = raw();
        pump(() -> atServer.events.size() == 2, poll(server, atServer));
        ByteBuffer prefix = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(1025).putInt(0);
        write(bad, prefix.array(), 0, 8);
        assertEquals(0, readUntilEof(bad).length, "a plain peer is closed without the Spectrum notice");
        assertEquals(1, server.stats().droppedOversize());
        assertEquals(1, server.localStats().badLength());
        assertEquals(0, server.stats().framesIn(), "the bad length is no frame");
        assertEquals(List.of("up 0", "up 1", "down 1"), atServer.events);
        byte[] f = Frames.value(3, 8);
        write(good, framed(f), 0, 4 + f.length);
        pump(() -> atServer.frames.size() == 1, poll(server, atServer));
        assertEquals(1, atServer.frames.size(), "the other connection still carries frames");
        assertEquals(List.of(0), atServer.peers);
    }

    @Test
    void aPeerClosingMidFrameIsDownAndDeliversNothing() throws Exception {
        listen(new LocalLinkConfig());
        SocketChannel ch = raw();
        byte[] wire = framed(Frames.value(4, 40));
        write(ch, wire, 0, 20);
        ch.close();
        pump(() -> atServer.events.size() == 2, poll(server, atServer));
        assertEquals(List.of("up 0", "down 0"), atServer.events);
        assertEquals(0, atServer.frames.size(), "half a frame is not delivered");
        assertEquals(1, server.localStats().closedByPeer());
        assertEquals(0, server.peers().inUse());
    }

    @Test
    void aHelloFirstIsAnOptionalAnnouncement_delivered_named_andItsConnectionGetsTheClosingNotice() throws Exception {
        listen(new LocalLinkConfig());
        SocketChannel spectrum = raw();
        byte[] hello = LocalHello.frame("svc");
        write(spectrum, framed(hello), 0, 4 + hello.length);
        pump(() -> atServer.frames.size() == 1, poll(server, atServer));
        assertArrayEquals(hello, atServer.frames.get(0), "the hello reaches the node like any frame");
        assertEquals("svc", server.peerName(0));
        assertEquals(1, server.localStats().announced());

        SocketChannel plain = raw();
        pump(() -> atServer.events.size() == 2, poll(server, atServer));
        byte[] f = Frames.value(5, 8);
        write(plain, framed(f), 0, 4 + f.length);
        pump(() -> atServer.frames.size() == 2, poll(server, atServer));
        assertNull(server.peerName(1));

        server.close();
        byte[] toSpectrum = readUntilEof(spectrum);
        byte[] notice = new byte[ClosingNotice.BYTES];
        ClosingNotice.write(notice, 0, WireError.TRANSPORT_DOWN);
        assertArrayEquals(framed(notice), toSpectrum, "the announced peer reads the closing notice");
        assertEquals(0, readUntilEof(plain).length, "a plain v1 peer sees only the EOF");
    }

    @Test
    void aDialerSendsNoHelloUnlessGivenAName() throws Exception {
        try (ServerSocketChannel ss = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            LocalLink dialer = LocalLink.connect(2, ss.getLocalAddress(), null, new LocalLinkConfig().helloRequired(false), clock);
            open.add(dialer::close);
            SocketChannel peer = ss.accept();
            open.add(peer);
            Collector atDialer = new Collector();
            dialer.setPeerListener(atDialer);
            dialer.poll(atDialer, 64);
            assertEquals(List.of("up 0"), atDialer.events);
            byte[] f = Frames.value(6, 8);
            assertEquals(WireError.OK, dialer.send(0, f, 0, f.length));
            ByteBuffer got = ByteBuffer.allocate(4 + f.length);
            while (got.hasRemaining()) {
                peer.read(got);
            }
            assertArrayEquals(framed(f), got.array(), "the first bytes are the frame's length and the frame");
            assertEquals("tcp->127.0.0.1:" + ((InetSocketAddress) ss.getLocalAddress()).getPort(), dialer.name());
        }
    }
}
