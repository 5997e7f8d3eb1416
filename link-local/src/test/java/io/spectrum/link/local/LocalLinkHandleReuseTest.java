package io.spectrum.link.local;

import static io.spectrum.link.local.LocalLinkTest.poll;
import static io.spectrum.link.local.LocalLinkTest.pump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.testing.Collector;
import io.spectrum.time.ManualClock;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Peer handles are reused with a generation, so a listener accepts connections for its whole life. */
class LocalLinkHandleReuseTest {
    @TempDir
    Path tmp;
    private final ManualClock clock = new ManualClock(0);

    @Test
    void connectionsAreAdmittedPastTheHandleSpace_andAReusedHandleHasANewGeneration() throws Exception {
        LocalLinkConfig cfg = new LocalLinkConfig().connectionCapacity(4).handleSpace(8);
        Collector atServer = new Collector();
        LocalLink server = LocalLink.listen(1, UnixDomainSocketAddress.of(tmp.resolve("r.sock")), cfg, clock);
        try {
            server.setPeerListener(atServer);
            int firstPeer = -1;
            long firstGen = 0;
            int cycles = 1_000; // 125 times the handle space
            for (int i = 0; i < cycles; i++) {
                int frames = atServer.frames.size();
                LocalLink client = LocalLink.connect(2, server.localAddress(), "c" + i, new LocalLinkConfig(), clock);
                Collector atClient = new Collector();
                client.setPeerListener(atClient);
                pump(() -> atServer.frames.size() > frames, poll(server, atServer), poll(client, atClient));
                assertEquals(frames + 1, atServer.frames.size(), "connection " + i + " was admitted");
                int[] open = server.openPeers();
                assertEquals(1, open.length);
                if (i == 0) {
                    firstPeer = open[0];
                    firstGen = server.peerGeneration(firstPeer);
                } else if (open[0] == firstPeer) {
                    assertNotEquals(firstGen, server.peerGeneration(firstPeer), "a reused handle has a new generation");
                }
                int downs = atServer.events.size();
                client.close();
                pump(() -> atServer.events.size() > downs, poll(server, atServer));
                assertEquals(0, server.openPeers().length);
            }
            assertEquals(0, server.peers().inUse(), "every connection's entry went");
            assertTrue(server.peerGeneration(firstPeer) == 0, "no current holder, no generation");
            assertFalse(server.isPeerUp(firstPeer));
        } finally {
            server.close();
        }
    }
}
