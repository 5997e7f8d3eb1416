package io.spectrum.link.local;

import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.spectrum.link.local.LocalLinkTest.poll;
import static io.spectrum.link.local.LocalLinkTest.pump;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hello rule and the length prefix, driven by a raw socket client. */
class LocalLinkHandshakeTest {
    @TempDir
    Path tmp;
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
        server = LocalLink.listen(1, UnixDomainSocketAddress.of(tmp.resolve("h.sock")), cfg, clock);
        open.add(server::close);
        server.setPeerListener(atServer);
    }

    private SocketChannel raw() throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(server.localAddress());
        ch.configureBlocking(false);
        open.add(ch);
        return ch;
    }

    private static void writeRaw(SocketChannel ch, long prefix, byte[] frame) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 + frame.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt((int) prefix).put(frame).flip();
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static void writeFrame(SocketChannel ch, byte[] frame) throws IOException {
        writeRaw(ch, frame.length, frame);
    }

    /** True once the server closed {@code ch} (EOF), polling the server meanwhile. */
    private boolean closedByServer(SocketChannel ch) throws Exception {
        ByteBuffer sink = ByteBuffer.allocate(4096);
        boolean[] eof = {false};
        pump(() -> eof[0], () -> {
            server.poll(atServer, 64);
            try {
                sink.clear();
                eof[0] = ch.read(sink) < 0;
            } catch (IOException e) {
                eof[0] = true;
            }
        });
        return eof[0];
    }

    @Test
    void aConnectionWithoutAHelloIsClosedWhenTheTimeoutPasses() throws Exception {
        listen(new LocalLinkConfig());
        SocketChannel ch = raw();
        pump(() -> server.peers().inUse() == 1, poll(server, atServer));
        assertEquals(1, server.peers().inUse());
        clock.advanceMillis(4_999);
        server.poll(atServer, 64);
        assertEquals(1, server.peers().inUse(), "still within the 5 s");
        assertEquals(0, server.localStats().helloTimeouts());
        clock.advanceMillis(1);
        server.poll(atServer, 64);
        assertEquals(0, server.peers().inUse());
        assertEquals(1, server.localStats().helloTimeouts());
        assertTrue(closedByServer(ch));
        assertEquals(List.of(), atServer.events, "a connection that never said hello was never up");
    }

    @Test
    void aHelloWithinTheTimeoutOpensTheConnection() throws Exception {
        listen(new LocalLinkConfig().helloTimeoutMillis(100));
        SocketChannel ch = raw();
        pump(() -> server.peers().inUse() == 1, poll(server, atServer));
        clock.advanceMillis(99);
        writeFrame(ch, LocalHello.frame("late"));
        pump(() -> server.openPeers().length == 1, poll(server, atServer));
        clock.advanceMillis(10_000);
        server.poll(atServer, 64);
        int peer = server.openPeers()[0];
        assertEquals("late", server.peerName(peer));
        assertEquals(0, server.localStats().helloTimeouts());
    }

    @Test
    void aFirstFrameThatIsNoHelloClosesTheConnection() throws Exception {
        listen(new LocalLinkConfig());
        SocketChannel ch = raw();
        writeFrame(ch, Frames.value(1, 16));
        assertTrue(closedByServer(ch));
        assertEquals(1, server.localStats().helloRefused());
        assertEquals(List.of(), atServer.frames);
    }

    @Test
    void aHelloWithoutANameOpensAnUnnamedConnection() throws Exception {
        listen(new LocalLinkConfig());
        SocketChannel ch = raw();
        writeFrame(ch, LocalHello.frame(null));
        pump(() -> server.openPeers().length == 1, poll(server, atServer));
        int peer = server.openPeers()[0];
        assertNull(server.peerName(peer));
        assertTrue(server.isPeerUp(peer));
        assertTrue(ch.isConnected());
    }

    @Test
    void aLengthOverTheLimitClosesOnlyThatConnection() throws Exception {
        listen(new LocalLinkConfig().maxFrame(1024));
        SocketChannel bad = raw();
        SocketChannel good = raw();
        writeFrame(bad, LocalHello.frame("bad"));
        writeFrame(good, LocalHello.frame("good"));
        pump(() -> server.openPeers().length == 2, poll(server, atServer));
        int badPeer = -1;
        int goodPeer = -1;
        for (int p : server.openPeers()) {
            if ("bad".equals(server.peerName(p))) {
                badPeer = p;
            } else {
                goodPeer = p;
            }
        }
        writeRaw(bad, 1025, new byte[0]);
        assertTrue(closedByServer(bad));
        assertEquals(1, server.localStats().badLength());
        assertEquals(1, server.stats().droppedOversize());
        assertTrue(atServer.events.contains("down " + badPeer));

        byte[] f = Frames.value(5, 1000);
        writeFrame(good, f);
        pump(() -> atServer.frames.size() == 3, poll(server, atServer));
        assertArrayEquals(f, atServer.frames.get(2));
        assertEquals(goodPeer, atServer.peers.get(2));
        assertTrue(server.isPeerUp(goodPeer));
    }

    @Test
    void aLengthBelowAFrameClosesTheConnection() throws Exception {
        listen(new LocalLinkConfig());
        SocketChannel ch = raw();
        writeFrame(ch, LocalHello.frame("z"));
        writeRaw(ch, 0, new byte[0]);
        assertTrue(closedByServer(ch));
        assertEquals(1, server.localStats().badLength());
    }

    @Test
    void aFrameWhoseBytesAreNoLibtracerFrameIsDroppedAndTheConnectionStays() throws Exception {
        listen(new LocalLinkConfig());
        SocketChannel ch = raw();
        writeFrame(ch, LocalHello.frame("z"));
        writeFrame(ch, new byte[] {1, 0, 9, 0, 0, 0}); // declares 9 payload bytes, carries 2
        byte[] f = Frames.value(3, 8);
        writeFrame(ch, f);
        pump(() -> atServer.frames.size() == 2, poll(server, atServer));
        assertArrayEquals(f, atServer.frames.get(1));
        assertEquals(1, server.stats().droppedInvalid());
        assertEquals(1, server.openPeers().length);
    }

    @Test
    void framesSplitAcrossWritesAreReassembled() throws Exception {
        listen(new LocalLinkConfig());
        SocketChannel ch = raw();
        writeFrame(ch, LocalHello.frame("z"));
        byte[] f = Frames.value(8, 5000);
        ByteBuffer b = ByteBuffer.allocate(4 + f.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(f.length).put(f).flip();
        for (int cut : new int[] {2, 3000, b.limit()}) {
            ByteBuffer part = b.duplicate();
            part.limit(cut);
            while (part.hasRemaining()) {
                ch.write(part);
            }
            b.position(cut);
            server.poll(atServer, 64);
        }
        pump(() -> atServer.frames.size() == 2, poll(server, atServer));
        assertArrayEquals(f, atServer.frames.get(1));
    }

    @Test
    void sendsToAConnectionThatHasNotSaidHelloAreRefused() throws Exception {
        listen(new LocalLinkConfig());
        raw();
        pump(() -> server.peers().inUse() == 1, poll(server, atServer));
        byte[] f = Frames.value(1, 8);
        assertEquals(WireError.TRANSPORT_DOWN, server.send(0, f, 0, f.length));
    }
}
