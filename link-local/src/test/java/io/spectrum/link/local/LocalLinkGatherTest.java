package io.spectrum.link.local;

import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;

import static io.spectrum.link.local.LocalLinkTest.onlyPeer;
import static io.spectrum.link.local.LocalLinkTest.poll;
import static io.spectrum.link.local.LocalLinkTest.pump;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Gathered writes: once the driver flushes, the frames a step sends one connection leave in one socket
 * write at the flush, in order; a driver that never flushes has each frame written at once.
 */
class LocalLinkGatherTest {
    private static final int FRAMES = 10;

    @TempDir
    Path tmp;
    private final ManualClock clock = new ManualClock(0);
    private LocalLink server;
    private LocalLink client;
    private final Collector atServer = new Collector();
    private final Collector atClient = new Collector();
    private int peer;

    private void connect() throws Exception {
        server = LocalLink.listen(1, UnixDomainSocketAddress.of(tmp.resolve("gather.sock")), new LocalLinkConfig(), clock);
        client = LocalLink.connect(2, server.localAddress(), "reader", new LocalLinkConfig(), clock);
        server.setPeerListener(atServer);
        client.setPeerListener(atClient);
        pump(() -> server.openPeers().length == 1, poll(server, atServer));
        peer = onlyPeer(server);
    }

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private byte[][] send(int n) {
        byte[][] sent = new byte[n][];
        for (int i = 0; i < n; i++) {
            sent[i] = Frames.value(i, 32);
            assertEquals(WireError.OK, server.send(peer, sent[i], 0, sent[i].length));
        }
        return sent;
    }

    private void assertReceived(byte[][] sent) throws Exception {
        pump(() -> atClient.frames.size() >= sent.length, poll(client, atClient));
        assertEquals(sent.length, atClient.frames.size());
        for (int i = 0; i < sent.length; i++) {
            assertArrayEquals(sent[i], atClient.frames.get(i), "frame " + i + " in order");
        }
    }

    @Test
    void aStepsFramesLeaveInOneWriteAtTheFlush() throws Exception {
        connect();
        server.flush(); // the driver flushes once per step: gathering is on from here
        long before = server.localStats().writes();
        byte[][] sent = send(FRAMES);
        assertEquals(before, server.localStats().writes(), "nothing is written before the flush");
        assertEquals(FRAMES, server.stats().framesOut(), "each frame counted as sent when committed");
        server.flush();
        assertEquals(before + 1, server.localStats().writes(), "ten frames, one write");
        assertReceived(sent);
        server.flush();
        assertEquals(before + 1, server.localStats().writes(), "an empty flush writes nothing");
    }

    @Test
    void withoutAFlushingDriverEachFrameIsWrittenAtOnce() throws Exception {
        connect();
        long before = server.localStats().writes();
        byte[][] sent = send(FRAMES);
        assertEquals(before + FRAMES, server.localStats().writes());
        assertReceived(sent);
    }

    @Test
    void framesPastTheWriteBufferWaitInTheirLaneAndStillArriveInOrder() throws Exception {
        connect();
        server.flush();
        int n = 120; // 120 frames of 1 kB: more than the write buffer holds, fewer than the lane's 128
        byte[][] sent = new byte[n][];
        for (int i = 0; i < n; i++) {
            sent[i] = Frames.value(i, 1000);
            int rc = server.send(peer, sent[i], 0, sent[i].length);
            assertEquals(WireError.OK, rc, "frame " + i);
        }
        server.flush();
        pump(() -> atClient.frames.size() >= n, poll(client, atClient), poll(server, atServer));
        assertEquals(n, atClient.frames.size());
        for (int i = 0; i < n; i++) {
            assertArrayEquals(sent[i], atClient.frames.get(i), "frame " + i + " in order");
        }
        assertEquals(1, server.openPeers().length, "the connection stayed open");
    }
}
