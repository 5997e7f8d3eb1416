package io.spectrum.link.local;

import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LocalLink servers and clients over real Unix sockets and TCP loopback. */
class LocalLinkTest {
    @TempDir
    Path tmp;
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ManualClock clock = new ManualClock(0);

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    LocalLink server(SocketAddress at, LocalLinkConfig cfg) throws Exception {
        LocalLink l = LocalLink.listen(1, at, cfg, clock);
        open.add(l::close);
        return l;
    }

    LocalLink unixServer() throws Exception {
        return server(UnixDomainSocketAddress.of(tmp.resolve("bus.sock")), new LocalLinkConfig());
    }

    LocalLink client(LocalLink server, String name) throws Exception {
        LocalLink c = LocalLink.connect(2, server.localAddress(), name, new LocalLinkConfig(), clock);
        open.add(c::close);
        return c;
    }

    /** Polls until {@code done} or 5 s pass (a guard against hangs, not a timing assertion). */
    static void pump(BooleanSupplier done, Runnable... polls) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            for (Runnable p : polls) {
                p.run();
            }
            if (!done.getAsBoolean()) {
                Thread.sleep(1);
            }
        }
    }

    static Runnable poll(LocalLink link, Collector c) {
        return () -> link.poll(c, 64);
    }

    /** The server side's handle of the only connection, once its hello arrived. */
    static int onlyPeer(LocalLink server) {
        int[] p = server.openPeers();
        assertEquals(1, p.length);
        return p[0];
    }

    private void roundTrip(LocalLink server) throws Exception {
        LocalLink client = client(server, "svc");
        Collector atServer = new Collector();
        Collector atClient = new Collector();
        server.setPeerListener(atServer);
        client.setPeerListener(atClient);

        pump(() -> atServer.frames.size() == 1, poll(server, atServer), poll(client, atClient));
        int peer = onlyPeer(server);
        assertEquals(List.of("up " + peer), atServer.events);
        assertEquals("svc", server.peerName(peer));
        assertArrayEquals(LocalHello.frame("svc"), atServer.frames.get(0), "the hello reaches the node as a frame");
        assertTrue(server.isPeerUp(peer));

        byte[] up = Frames.value(11, 300);
        assertEquals(WireError.OK, client.send(0, up, 0, up.length));
        pump(() -> atServer.frames.size() == 2, poll(server, atServer), poll(client, atClient));
        assertArrayEquals(up, atServer.frames.get(1));
        assertEquals(peer, atServer.peers.get(1));

        byte[] down = Frames.value(12, 60_000);
        assertEquals(WireError.OK, server.send(peer, down, 0, down.length));
        pump(() -> atClient.frames.size() == 1, poll(server, atServer), poll(client, atClient));
        assertArrayEquals(down, atClient.frames.get(0));
        assertEquals(0, atClient.peers.get(0));
        assertEquals(List.of("up 0"), atClient.events);
        assertTrue(client.isPeerUp(0));
        assertEquals(2, server.stats().framesIn());
        assertEquals(1, server.stats().framesOut());
    }

    @Test
    void framesRoundTripBothWaysOverAUnixSocket() throws Exception {
        roundTrip(unixServer());
    }

    @Test
    void framesRoundTripBothWaysOverTcpLoopback() throws Exception {
        roundTrip(server(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new LocalLinkConfig()));
    }

    @Test
    void aTcpListenerOnANonLoopbackAddressNeedsTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LocalLink.listen(1, new InetSocketAddress("0.0.0.0", 0), new LocalLinkConfig(), clock));
        assertTrue(e.getMessage().contains("allowNonLoopback"), e.getMessage());
    }

    @Test
    void manyConnectionsGetDistinctHandlesAndNamesAndHandlesAreNeverReused() throws Exception {
        LocalLink server = unixServer();
        Collector atServer = new Collector();
        server.setPeerListener(atServer);
        List<LocalLink> clients = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            clients.add(client(server, "c" + i));
        }
        pump(() -> server.openPeers().length == 5, poll(server, atServer));
        int[] peers = server.openPeers();
        Set<String> names = new HashSet<>();
        for (int p : peers) {
            names.add(server.peerName(p));
        }
        assertEquals(Set.of("c0", "c1", "c2", "c3", "c4"), names);
        assertEquals(5, server.peers().inUse());

        // frames from each client arrive under that client's handle
        for (int i = 0; i < 5; i++) {
            byte[] f = Frames.value(100 + i, 32);
            assertEquals(WireError.OK, clients.get(i).send(0, f, 0, f.length));
        }
        pump(() -> atServer.frames.size() == 10, poll(server, atServer));
        for (int k = 5; k < 10; k++) {
            int p = atServer.peers.get(k);
            long counter = Frames.counter(atServer.frames.get(k), 0);
            assertEquals("c" + (counter - 100), server.peerName(p));
        }

        int gone = peers[2];
        String goneName = server.peerName(gone);
        clients.get(indexOf(goneName)).close();
        pump(() -> atServer.events.contains("down " + gone), poll(server, atServer));
        assertTrue(atServer.events.contains("down " + gone));
        assertFalse(server.isPeerUp(gone));
        assertNull(server.peerName(gone));

        client(server, goneName);
        pump(() -> server.openPeers().length == 5, poll(server, atServer));
        Set<Integer> before = new HashSet<>();
        for (int p : peers) {
            before.add(p);
        }
        for (int p : server.openPeers()) {
            if (goneName.equals(server.peerName(p))) {
                assertFalse(before.contains(p), "a new connection never inherits a handle");
            }
        }
        assertEquals(WireError.TRANSPORT_DOWN, server.send(gone, new byte[] {9, 0, 0, 0}, 0, 4));
    }

    private static int indexOf(String name) {
        return Integer.parseInt(name.substring(1));
    }

    @Test
    void connectionsOverCapacityAreRefusedAndCounted() throws Exception {
        LocalLink server = server(UnixDomainSocketAddress.of(tmp.resolve("cap.sock")),
                new LocalLinkConfig().connectionCapacity(2));
        Collector atServer = new Collector();
        client(server, "a");
        client(server, "b");
        pump(() -> server.openPeers().length == 2, poll(server, atServer));
        client(server, "c");
        pump(() -> server.peers().refused() == 1, poll(server, atServer));
        assertEquals(1, server.peers().refused());
        assertEquals(1, server.stats().peersRefused());
        assertEquals(2, server.peers().inUse());
        assertEquals(2, server.peers().peak());
        assertEquals(2, server.peers().capacity());
    }

    @Test
    void aFrameOverTheLimitIsRefusedAtSend() throws Exception {
        LocalLink server = unixServer();
        LocalLink client = client(server, "x");
        byte[] big = new byte[server.maxFrame() + 1];
        assertEquals(WireError.FRAME_INVALID, client.send(0, big, 0, big.length));
        assertEquals(WireError.FRAME_INVALID, client.send(0, big, 0, 3));
        assertEquals(2, client.stats().droppedOversize());
        assertEquals(1, client.stats().framesOut(), "only the hello went out");
    }

    @Test
    void aClientClosingReportsItsPeerDownOnEof() throws Exception {
        LocalLink server = unixServer();
        Collector atServer = new Collector();
        server.setPeerListener(atServer);
        LocalLink client = client(server, "eof");
        pump(() -> server.openPeers().length == 1, poll(server, atServer));
        int peer = onlyPeer(server);
        client.close();
        pump(() -> atServer.events.contains("down " + peer), poll(server, atServer));
        assertEquals(List.of("up " + peer, "down " + peer), atServer.events);
        assertEquals(1, server.localStats().closedByPeer());
        assertEquals(0, server.peers().inUse());
        assertEquals(1, atServer.frames.size(), "only the hello: a client sends no notice when it closes");
    }

    @Test
    void theServerClosingSendsANoticeAndTheClientSeesItsPeerGo() throws Exception {
        LocalLink server = unixServer();
        Collector atServer = new Collector();
        LocalLink client = client(server, "bye");
        Collector atClient = new Collector();
        client.setPeerListener(atClient);
        pump(() -> server.openPeers().length == 1, poll(server, atServer), poll(client, atClient));
        server.close();
        pump(() -> atClient.events.contains("down 0"), poll(client, atClient));
        assertEquals(List.of("up 0", "down 0"), atClient.events);
        assertEquals(1, atClient.frames.size());
        byte[] last = atClient.frames.get(0);
        assertEquals(WireError.TRANSPORT_DOWN, new ClosingNotice().reason(last, 0, last.length));
        assertEquals(WireError.TRANSPORT_DOWN, client.send(0, new byte[] {9, 0, 0, 0}, 0, 4));
    }

    @Test
    void connectionChannelsAreHandedToTheLoopsReadiness() throws Exception {
        LocalLink server = unixServer();
        List<Object> watchedByServer = new ArrayList<>();
        List<Object> watchedByClient = new ArrayList<>();
        assertFalse(server.setReadiness(recording(watchedByServer)), "a new connection does not wake the loop");
        LocalLink client = client(server, "r");
        assertTrue(client.setReadiness(recording(watchedByClient)), "a client's one channel signals every arrival");
        assertEquals(1, watchedByClient.size());
        Collector atServer = new Collector();
        pump(() -> server.openPeers().length == 1, poll(server, atServer));
        assertEquals(1, watchedByServer.size(), "each accepted connection is watched");
        assertTrue(watchedByServer.get(0) instanceof java.nio.channels.SocketChannel);
    }

    private static io.spectrum.link.Readiness recording(List<Object> watched) {
        return new io.spectrum.link.Readiness() {
            @Override
            public boolean watch(Object channel) {
                watched.add(channel);
                return true;
            }

            @Override
            public void wake() {
            }
        };
    }
}
