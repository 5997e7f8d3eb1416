package io.spectrum.link.udp;

import io.spectrum.testing.Frames;
import io.spectrum.time.SystemClock;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Runs N round trips dialer -> listener -> dialer on loopback, for a child JVM under the Epsilon
 * collector (no GC: any per-frame allocation runs the small heap out). Prints "ok frames=".
 */
public final class EpsilonUdpMain {
    private EpsilonUdpMain() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig(), SystemClock.INSTANCE);
        UdpLink client = UdpLink.dial(2, server.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE);
        UdpLinkAllocationTest.Sink atServer = new UdpLinkAllocationTest.Sink();
        UdpLinkAllocationTest.Sink atClient = new UdpLinkAllocationTest.Sink();
        byte[] frame = Frames.value(0, 16);
        for (long c = 1; c <= n; c++) {
            if (!UdpLinkAllocationTest.roundTrip(client, server, atServer, atClient, frame, c)) {
                System.out.println("lost at " + c);
                System.exit(1);
            }
        }
        Runtime rt = Runtime.getRuntime();
        System.out.println("ok frames=" + (2L * n) + " heapUsed=" + (rt.totalMemory() - rt.freeMemory()));
        client.close();
        server.close();
    }
}
