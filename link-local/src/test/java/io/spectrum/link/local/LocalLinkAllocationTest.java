package io.spectrum.link.local;

import io.spectrum.link.Lane;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.testing.SteadyStateAllocation;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;

import static io.spectrum.link.local.LocalLinkTest.poll;
import static io.spectrum.link.local.LocalLinkTest.pump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames written straight through (nothing waiting) and frames received allocate nothing per frame
 * on the link's thread; only frames that have to wait in a lane are copied. Surefire runs this module
 * with -XX:-DoEscapeAnalysis.
 */
class LocalLinkAllocationTest {
    @TempDir
    Path tmp;

    static final class Sink implements FrameHandler {
        long lastCounter = -1;
        int lastPeer = -1;
        long frames;

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v |= (buf[off + 4 + i] & 0xFFL) << (8 * i);
            }
            lastCounter = v;
            lastPeer = peer;
            frames++;
        }
    }

    private static void stamp(byte[] frame, long counter) {
        for (int i = 0; i < 8; i++) {
            frame[4 + i] = (byte) (counter >>> (8 * i));
        }
    }

    private static boolean roundTrip(LocalLink client, LocalLink server, Sink atServer, Sink atClient, byte[] frame,
                                     long counter, int peer) {
        stamp(frame, counter);
        if (client.send(0, frame, 0, frame.length, Lane.RPC) != WireError.OK) {
            return false;
        }
        long spins = 0;
        while (atServer.lastCounter != counter) {
            if (server.poll(atServer, 16) == 0 && ++spins > 50_000_000L) {
                return false;
            }
        }
        if (server.send(peer, frame, 0, frame.length, Lane.TOPIC) != WireError.OK) {
            return false;
        }
        spins = 0;
        while (atClient.lastCounter != counter) {
            if (client.poll(atClient, 16) == 0 && ++spins > 50_000_000L) {
                return false;
            }
        }
        return true;
    }

    @Test
    void roundTripsOverAUnixSocketAllocateNothing() throws Exception {
        LocalLink server = LocalLink.listen(1, UnixDomainSocketAddress.of(tmp.resolve("alloc.sock")),
                new LocalLinkConfig(), SystemClock.INSTANCE);
        LocalLink client = LocalLink.connect(2, server.localAddress(), "alloc", new LocalLinkConfig(),
                SystemClock.INSTANCE);
        try {
            Collector hello = new Collector();
            pump(() -> server.openPeers().length == 1, poll(server, hello), poll(client, hello));
            int peer = server.openPeers()[0];
            Sink atServer = new Sink();
            Sink atClient = new Sink();
            byte[] frame = Frames.value(0, 64);
            long counter = 0;
            for (int i = 0; i < 20_000; i++) {
                assertTrue(roundTrip(client, server, atServer, atClient, frame, ++counter, peer));
            }
            int rounds = 20_000;
            long[] windows = new long[4];
            for (int w = 0; w < windows.length; w++) {
                long before = SteadyStateAllocation.allocatedBytes();
                boolean ok = true;
                for (int i = 0; i < rounds && ok; i++) {
                    ok = roundTrip(client, server, atServer, atClient, frame, ++counter, peer);
                }
                windows[w] = SteadyStateAllocation.allocatedBytes() - before;
                assertTrue(ok, "a frame went missing");
            }
            SteadyStateAllocation.assertNone("local link round trips (2 frames each)", rounds, windows);
            assertEquals(peer, atServer.lastPeer);
            assertEquals(20_000 + 4 * rounds, atClient.frames);
        } finally {
            client.close();
            server.close();
        }
    }
}
