package io.spectrum.link.udp;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.testing.Frames;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Drop, duplicate and reorder between two UdpLinks: nothing breaks and the latest value converges. */
class UdpImpairmentTest {

    /** Applies frames as "latest value" writes, the way a node applies a remote publish. */
    static final class Latest implements FrameHandler {
        long latest = -1;
        long frames;
        long wentBackwards;
        long mismatched;

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            long c = Frames.counter(buf, off);
            if (!Arrays.equals(Frames.value(c, 16), Arrays.copyOfRange(buf, off, off + len))) {
                mismatched++;
            }
            if (c < latest) {
                wentBackwards++;
            }
            latest = c;
            frames++;
        }
    }

    @Test
    void dropsDuplicatesAndReorderingLeaveTheLatestValueConverged() throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig(), SystemClock.INSTANCE);
        try (ImpairmentShim shim = new ImpairmentShim(server.localAddress(), 42L, 10, 5, 10)) {
            UdpLink client = UdpLink.dial(2, shim.address(), new UdpLinkConfig(), SystemClock.INSTANCE);
            try {
                Latest latest = new Latest();
                int n = 5000;
                for (int i = 1; i <= n; i++) {
                    byte[] f = Frames.value(i, 16);
                    assertEquals(WireError.OK, client.send(0, f, 0, f.length));
                    if (i % 16 == 0) {
                        shim.pump();
                        server.poll(latest, 64);
                    }
                }
                // Drain what is in flight, let held datagrams out, then republish the latest value
                // (what a node's periodic update does) until it lands.
                for (int k = 0; k < 50; k++) {
                    shim.pump();
                    server.poll(latest, 1024);
                    Thread.sleep(1);
                }
                shim.flush();
                long deadline = System.nanoTime() + 5_000_000_000L;
                byte[] last = Frames.value(n, 16);
                while (latest.latest != n && System.nanoTime() < deadline) {
                    client.send(0, last, 0, last.length);
                    shim.pump();
                    Thread.sleep(1);
                    server.poll(latest, 1024);
                }
                System.out.printf("udp shim: sent=%d delivered=%d dropped=%d duplicated=%d reordered=%d backwards=%d%n",
                        n, latest.frames, shim.dropped, shim.duplicated, shim.reordered, latest.wentBackwards);
                assertEquals(n, latest.latest, "the latest value converged");
                assertEquals(0, latest.mismatched, "every delivered frame is one that was sent");
                assertTrue(shim.dropped > 0 && shim.duplicated > 0 && shim.reordered > 0, "the shim impaired");
                assertTrue(latest.wentBackwards > 0, "reordering was visible to the receiver");
                assertEquals(latest.frames, server.stats().framesIn());
                assertEquals(0, server.stats().droppedInvalid());
            } finally {
                client.close();
            }
        } finally {
            server.close();
        }
    }
}
